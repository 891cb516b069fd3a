import { useState, type SubmitEvent } from 'react';
import { Alert, Button, Group, Paper, PasswordInput, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import {
  DEACTIVATION_DURATIONS,
  deactivateAccountSchema,
  deactivationResultSchema,
  type DeactivationDuration,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDateTime } from '../../lib/format';
import { messageText } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';

interface DeactivateValues {
  duration: DeactivationDuration | null;
  password: string;
}

function deactivate(body: { duration: DeactivationDuration; password: string }) {
  return api.post('/account/me/deactivate', body, { schema: deactivationResultSchema });
}

/**
 * Deactivate account (spec §2, §4): for 3 days, 2 weeks, 1 month or indefinitely, confirmed with
 * the password. Done at once, the session ends (the server cleared the cookies): back to login,
 * with the message as a toast that stays there. A doctor's request waits for an admin instead.
 */
export function DeactivateTab() {
  const { t } = useTranslation(['common', 'account']);
  const navigate = useNavigate();
  const form = useFormState<DeactivateValues>({ duration: null, password: '' });
  const [requestedUntil, setRequestedUntil] = useState<string | null | undefined>(undefined);
  const mutation = useMutation({
    mutationFn: deactivate,
    meta: { errorDisplay: 'inline' },
    onSuccess: (result) => {
      if (result.outcome === 'REQUESTED') {
        setRequestedUntil(result.until);
        form.setValues({ duration: null, password: '' });
        return;
      }
      notifications.show({
        color: 'orange',
        title: t('account:deactivate.doneTitle'),
        message: result.until
          ? t('account:deactivate.doneUntil', { date: formatDateTime(result.until) })
          : t('account:deactivate.doneIndefinitely'),
        withCloseButton: true,
        closeButtonProps: { 'aria-label': t('toast.close') },
      });
      void navigate('/login', { replace: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'password.wrongCurrent')
        form.setMessage('password', { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRequestedUntil(undefined);
    const parsed = form.validate(deactivateAccountSchema, {
      ...form.values,
      duration: form.values.duration ?? undefined,
    });
    if (parsed && !mutation.isPending) mutation.mutate(parsed);
  };
  const showAlert =
    mutation.isError &&
    !(
      isApiError(mutation.error) &&
      (mutation.error.code === 'password.wrongCurrent' || mutation.error.fieldErrors.length > 0)
    );

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('account:deactivate.formLabel')}>
      <Paper withBorder radius="md" p="lg" maw={560}>
        <Stack gap="md">
          <Alert color="orange" variant="light" title={t('account:deactivate.warningTitle')}>
            {t('account:deactivate.warning')}
          </Alert>
          {requestedUntil !== undefined ? (
            <Alert
              color="blue"
              variant="light"
              role="status"
              title={t('account:deactivate.requestedTitle')}
              data-testid="deactivation-requested"
            >
              {t('account:deactivate.requested')}
            </Alert>
          ) : null}
          {showAlert ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(mutation.error))}
            </Alert>
          ) : null}
          <Select
            label={t('account:deactivate.duration')}
            placeholder={t('account:deactivate.durationPlaceholder')}
            data={DEACTIVATION_DURATIONS.map((duration) => ({
              value: duration,
              label: t(`account:deactivate.durations.${duration}`),
            }))}
            value={form.values.duration}
            onChange={(value) => {
              form.setField(
                'duration',
                DEACTIVATION_DURATIONS.find((duration) => duration === value) ?? null,
              );
            }}
            error={form.errorOf('duration')}
            allowDeselect={false}
            withAsterisk
          />
          <PasswordInput
            label={t('account:deactivate.password')}
            description={t('account:deactivate.passwordHint')}
            value={form.values.password}
            onChange={(event) => {
              form.setField('password', event.currentTarget.value);
            }}
            error={form.errorOf('password')}
            autoComplete="current-password"
            visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
            withAsterisk
          />
          <Text fz="xs" c="dimmed">
            {t('account:deactivate.recovery')}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" color="red" loading={mutation.isPending}>
              {t('account:deactivate.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
