import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isExpiringSoon, type DoctorProfile } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { areaPath } from '../shell/navigation';
import { useSession } from '../shell/session-context';
import { licenseToday } from './license-today';
import { ownQualificationQuery } from './doctors-api';

/** A notice of the doctor's licenses that have expired or expire within 30 days; nothing otherwise. */
export function LicenseExpiryNotice({
  doctor,
  withLink = false,
}: {
  doctor: DoctorProfile;
  withLink?: boolean;
}) {
  const { t } = useTranslation('doctors');
  const session = useSession();
  const today = licenseToday();
  const expired = doctor.licenses.filter((license) => license.expired);
  const expiring = doctor.licenses.filter((license) => isExpiringSoon(license.expiresOn, today));
  if (expired.length === 0 && expiring.length === 0) return null;
  return (
    <Alert
      color={expired.length > 0 ? 'red' : 'orange'}
      variant="light"
      title={t('self.licenseNoticeTitle')}
      data-testid="license-expiry-notice"
    >
      <Stack gap={4}>
        {expired.map((license) => (
          <Text key={license.id} fz="sm">
            {t('self.licenseExpired', { name: license.name })}
          </Text>
        ))}
        {expiring.map((license) => (
          <Text key={license.id} fz="sm">
            {t('self.licenseExpiring', { name: license.name, date: license.expiresOn })}
          </Text>
        ))}
        {withLink ? (
          <Anchor component={Link} to={`${areaPath(session.area, 'account')}?tab=qualification`} fz="sm">
            {t('self.manageLicenses')}
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** On the signed-in doctor's home: their licenses that need renewing. */
export function OwnLicenseNotice() {
  const session = useSession();
  const doctor = useQuery(ownQualificationQuery(session.user.userId));
  return doctor.isSuccess ? <LicenseExpiryNotice doctor={doctor.data} withLink /> : null;
}
