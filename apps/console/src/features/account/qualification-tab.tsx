import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DoctorLicensesCard } from '../doctors/doctor-licenses-card';
import { DoctorQualificationForm } from '../doctors/doctor-profile-form';
import { ownQualificationQuery, saveOwnQualification } from '../doctors/doctors-api';
import { LicenseExpiryNotice } from '../doctors/own-license-notice';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';

/** The signed-in doctor's qualification (specialties, degree, ...) and own medical licenses. */
export function QualificationTab() {
  const { t } = useTranslation('doctors');
  const session = useSession();
  const doctor = useQuery(ownQualificationQuery(session.user.userId));
  if (doctor.isPending) return <LoadingState />;
  if (doctor.isError)
    return (
      <ErrorState error={doctor.error} title={t('self.loadFailed')} onRetry={() => void doctor.refetch()} />
    );
  return (
    <Stack gap="lg">
      <LicenseExpiryNotice doctor={doctor.data} />
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={2} fz="lg">
              {t('self.qualificationTitle')}
            </Title>
            <Text c="dimmed" fz="sm">
              {t('self.qualificationHint')}
            </Text>
          </Stack>
          {/* Keyed by the last save, so the form starts from the stored values after a reload. */}
          <DoctorQualificationForm
            key={doctor.data.updatedAt ?? 'new'}
            doctor={doctor.data}
            save={saveOwnQualification}
          />
        </Stack>
      </Paper>
      <DoctorLicensesCard doctor={doctor.data} isOwn />
    </Stack>
  );
}
