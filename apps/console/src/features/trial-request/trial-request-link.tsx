import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * The login page's invitation to organisations without a tenant yet. Its strings are in `common`, so
 * the login page waits for no other catalogue.
 */
export function TrialRequestLink() {
  const { t } = useTranslation();
  return (
    <Text fz="sm" c="dimmed">
      {t('login.trialPrompt')}{' '}
      <Anchor component={Link} to="/trial-request" fz="sm">
        {t('login.trialLink')}
      </Anchor>
    </Text>
  );
}
