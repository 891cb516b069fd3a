import { useId } from 'react';
import { Alert, Anchor, Group, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { usePageTitle } from '../shell/use-page-title';
import { TrialRequestLink } from '../trial-request/trial-request-link';
import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';
import { OtpLoginForm } from './lazy-forms';
import { readLoginState, type LoginNotice } from './return-path';
import { useForgetSession } from './use-forget-session';

function NoticeAlert({ notice }: { notice: LoginNotice }) {
  const { t } = useTranslation(['common', 'errors']);
  const isWarning = notice === 'auth.loggedInElsewhere' || notice === 'auth.sessionExpired';
  const message = notice === 'signedOut' ? t('login.signedOut') : t(`errors:${notice}`);
  return (
    <Alert color={isWarning ? 'orange' : 'blue'} variant="light" data-testid="login-notice">
      {message}
    </Alert>
  );
}

type LoginMethod = 'password' | 'otp';

/**
 * /login: public. Password or one-time code; remembers where the user was going and why they
 * were sent here. The method is in the address (?method=otp) so a link can open the code tab.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { from, notice } = readLoginState(location.state);
  const passwordPanelLabelId = useId();
  const method: LoginMethod = searchParams.get('method') === 'otp' ? 'otp' : 'password';
  usePageTitle(t('login.pageTitle'));
  useForgetSession();

  return (
    <AuthLayout
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          <Text fz="sm" c="dimmed">
            {t('login.noAccount')}{' '}
            <Anchor component={Link} to="/register" fz="sm">
              {t('login.createAccount')}
            </Anchor>
          </Text>
          <TrialRequestLink />
        </>
      }
    >
      {notice ? <NoticeAlert notice={notice} /> : null}
      <Tabs
        value={method}
        onChange={(value) => {
          // Replace, not push: switching tabs is not a page the Back button should revisit.
          setSearchParams(value === 'otp' ? { method: 'otp' } : {}, {
            replace: true,
            state: location.state as unknown,
          });
        }}
        keepMounted={false}
      >
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="password">{t('login.methodPassword')}</Tabs.Tab>
          <Tabs.Tab value="otp">{t('login.methodOtp')}</Tabs.Tab>
        </Tabs.List>
        {/* Labelled as the form rather than by its tab, so "Password" names only the password field. */}
        <Tabs.Panel value="password" aria-labelledby={passwordPanelLabelId}>
          <VisuallyHidden id={passwordPanelLabelId}>{t('login.formLabel')}</VisuallyHidden>
          <LoginForm returnTo={from} />
        </Tabs.Panel>
        <Tabs.Panel value="otp">
          <OtpLoginForm returnTo={from} />
        </Tabs.Panel>
      </Tabs>
      <Group justify="center">
        <Anchor component={Link} to="/forgot-password" fz="sm">
          {t('login.forgotPassword')}
        </Anchor>
      </Group>
    </AuthLayout>
  );
}
