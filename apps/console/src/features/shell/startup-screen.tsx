import { Alert, Button, Center, Group, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PulseIcon } from './icons';
import { usePageTitle } from './use-page-title';

/** The startup steps of spec §1, in order. */
export const STARTUP_STEPS = ['session', 'permissions', 'settings'] as const;
export type StartupStep = (typeof STARTUP_STEPS)[number];

export type StartupState =
  | { status: 'loading'; step: StartupStep }
  | { status: 'error'; step: StartupStep; message: string; onRetry: () => void }
  | { status: 'redirecting' };

/** Progress and failure of the startup sequence, naming the step so a stuck start can be reported. */
export function StartupScreen({ state }: { state: StartupState }) {
  const { t } = useTranslation();
  usePageTitle(t('startup.pageTitle'));
  const step = state.status === 'redirecting' ? 'session' : state.step;
  const active = STARTUP_STEPS.indexOf(step);

  return (
    <Center mih="100vh" bg="gray.0" p="lg">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w={460}>
        <Stack gap="lg">
          <Group gap="xs">
            <PulseIcon width={24} height={24} color="var(--mantine-primary-color-filled)" />
            <Title order={1} fz={20}>
              {t('app.name')}
            </Title>
          </Group>
          <Stepper active={active} orientation="vertical" size="sm" allowNextStepsSelect={false}>
            {STARTUP_STEPS.map((name, index) => (
              <Stepper.Step
                key={name}
                label={t(`startup.steps.${name}`)}
                loading={state.status === 'loading' && index === active}
                color={state.status === 'error' && index === active ? 'red' : undefined}
              />
            ))}
          </Stepper>
          {state.status === 'loading' ? (
            <Text role="status" aria-live="polite" c="dimmed">
              {t(`startup.progress.${state.step}`)}
            </Text>
          ) : null}
          {state.status === 'redirecting' ? (
            <Text role="status" aria-live="polite" c="dimmed">
              {t('startup.redirecting')}
            </Text>
          ) : null}
          {state.status === 'error' ? (
            <Alert color="red" variant="light" title={t(`startup.failed.${state.step}`)} role="alert">
              <Stack gap="sm" align="flex-start">
                <Text fz="sm">{state.message}</Text>
                <Button size="xs" color="red" onClick={state.onRetry}>
                  {t('actions.retry')}
                </Button>
              </Stack>
            </Alert>
          ) : null}
        </Stack>
      </Paper>
    </Center>
  );
}
