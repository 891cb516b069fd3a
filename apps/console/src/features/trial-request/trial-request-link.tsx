import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The login page's invitation to organisations without a tenant yet. */
export function TrialRequestLink() {
  const { t } = useTranslation('tenants');
  return (
    <Text fz="sm" c="dimmed">
      {t('trial.loginPrompt')}{' '}
      <Anchor component={Link} to="/trial-request" fz="sm">
        {t('trial.loginLink')}
      </Anchor>
    </Text>
  );
}
