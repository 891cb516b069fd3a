import { lazy, Suspense, type ComponentProps } from 'react';
import { Center, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OtpLoginForm as OtpLoginFormModule } from './otp-login-form';
import type { UnlockForm as UnlockFormModule } from './unlock-form';

/*
 * The login page's forms that most visits never show (the one-time code tab, the unlock of a
 * locked account) are fetched when they are first shown, not with the login page.
 */
const OtpLoginFormChunk = lazy(() =>
  import('./otp-login-form').then((module) => ({ default: module.OtpLoginForm })),
);
const UnlockFormChunk = lazy(() => import('./unlock-form').then((module) => ({ default: module.UnlockForm })));

function FormLoading() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" />
        <Text c="dimmed" fz="sm">
          {t('states.loading')}
        </Text>
      </Group>
    </Center>
  );
}

export function OtpLoginForm(props: ComponentProps<typeof OtpLoginFormModule>) {
  return (
    <Suspense fallback={<FormLoading />}>
      <OtpLoginFormChunk {...props} />
    </Suspense>
  );
}

export function UnlockForm(props: ComponentProps<typeof UnlockFormModule>) {
  return (
    <Suspense fallback={<FormLoading />}>
      <UnlockFormChunk {...props} />
    </Suspense>
  );
}
