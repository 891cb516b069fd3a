import { useState } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthLayout } from '../auth/auth-layout';
import { usePageTitle } from '../shell/use-page-title';
import { TrialRequestForm } from './trial-request-form';

/**
 * /trial-request: public, like /register. An organisation asks for a trial tenant with its name,
 * login code, colour and both logos; a super admin approves or rejects it (spec §2, §4).
 */
export function TrialRequestPage() {
  const { t } = useTranslation('tenants');
  usePageTitle(t('trial.pageTitle'));
  const [submitted, setSubmitted] = useState<{ organization: string; email: string } | null>(null);

  return (
    <AuthLayout
      title={t('trial.title')}
      subtitle={submitted ? undefined : t('trial.subtitle')}
      width={submitted ? 480 : 760}
    >
      {submitted ? (
        <Stack gap="md">
          <Alert
            color="teal"
            variant="light"
            role="status"
            title={t('trial.doneTitle')}
            data-testid="trial-done"
          >
            {t('trial.doneMessage', submitted)}
          </Alert>
          <Button component={Link} to="/login" size="md" fullWidth autoFocus>
            {t('trial.backToLogin')}
          </Button>
        </Stack>
      ) : (
        <TrialRequestForm onSubmitted={setSubmitted} />
      )}
    </AuthLayout>
  );
}
