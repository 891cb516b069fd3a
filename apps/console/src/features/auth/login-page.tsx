import { Alert, Anchor, Box, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LanguageSwitch } from '../shell/language-switch';
import { PulseIcon } from '../shell/icons';
import { usePageTitle } from '../shell/use-page-title';
import { LoginForm } from './login-form';
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

function BrandPanel() {
  const { t } = useTranslation();
  return (
    <Stack
      justify="space-between"
      p={48}
      style={{
        flex: '0 0 42%',
        background: 'linear-gradient(150deg, var(--mantine-primary-color-8), var(--mantine-primary-color-5))',
        color: 'var(--mantine-primary-color-contrast)',
      }}
    >
      <Group gap="sm">
        <PulseIcon width={30} height={30} />
        <Text fw={700} fz="xl">
          {t('app.name')}
        </Text>
      </Group>
      <Stack gap="md" maw={420}>
        <Title order={2} fz={30} lh={1.25}>
          {t('login.brandHeadline')}
        </Title>
        <List spacing="xs" c="inherit">
          <List.Item>{t('login.brandPoint1')}</List.Item>
          <List.Item>{t('login.brandPoint2')}</List.Item>
          <List.Item>{t('login.brandPoint3')}</List.Item>
        </List>
      </Stack>
      <Text fz="xs" opacity={0.8}>
        {t('login.brandFootnote')}
      </Text>
    </Stack>
  );
}

/** /login: public. Remembers where the user was going and why they were sent here. */
export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const { from, notice } = readLoginState(location.state);
  usePageTitle(t('login.pageTitle'));
  useForgetSession();

  return (
    <Box mih="100vh" style={{ display: 'flex' }}>
      <BrandPanel />
      <Stack flex={1} bg="gray.0" p="xl" style={{ position: 'relative' }} justify="center" align="center">
        <Box pos="absolute" top={20} right={24}>
          <LanguageSwitch />
        </Box>
        <Paper withBorder shadow="sm" radius="lg" p={36} w="100%" maw={440}>
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={1} fz={26}>
                {t('login.title')}
              </Title>
              <Text c="dimmed" fz="sm">
                {t('login.subtitle')}
              </Text>
            </Stack>
            {notice ? <NoticeAlert notice={notice} /> : null}
            <LoginForm returnTo={from} />
          </Stack>
        </Paper>
        <Anchor component={Link} to="/privacy" fz="sm" c="dimmed">
          {t('nav.privacy')}
        </Anchor>
      </Stack>
    </Box>
  );
}
