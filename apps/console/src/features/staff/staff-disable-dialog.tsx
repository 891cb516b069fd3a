import type { SubmitEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEACTIVATION_DURATIONS, staffDisableSchema, type StaffDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { disableStaff, refreshStaff } from './staff-api';

interface DisableValues {
  duration: (typeof DEACTIVATION_DURATIONS)[number] | null;
  reason: string;
}

function DisableForm({ staff, onClose }: { staff: StaffDetail; onClose: () => void }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const form = useFormState<DisableValues>({ duration: null, reason: '' });
  const mutation = useMutation({
    mutationFn: (input: { duration: (typeof DEACTIVATION_DURATIONS)[number]; reason?: string | undefined }) =>
      disableStaff(staff.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('staff.disable.done', { name: saved.fullName }));
      refreshStaff(queryClient);
      onClose();
    },
  });
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = form.validate(staffDisableSchema, {
      duration: form.values.duration ?? undefined,
      reason: form.values.reason.trim() === '' ? undefined : form.values.reason,
    });
    if (parsed && !mutation.isPending) mutation.mutate(parsed);
  };
  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('staff.disable.title')}>
      <Stack gap="md">
        <Text>{t('staff.disable.text', { name: staff.fullName })}</Text>
        {/* Server refusals: your own account, a center's main admin, a state that cannot be disabled. */}
        {mutation.isError ? (
          <Alert color="red" variant="light" role="alert" data-testid="staff-disable-error">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <Select
          label={t('staff.disable.duration')}
          placeholder={t('staff.disable.durationPlaceholder')}
          data={DEACTIVATION_DURATIONS.map((duration) => ({
            value: duration,
            label: t(`durations.${duration}`),
          }))}
          value={form.values.duration}
          onChange={(value) => {
            form.setField('duration', DEACTIVATION_DURATIONS.find((duration) => duration === value) ?? null);
          }}
          error={form.errorOf('duration')}
          allowDeselect={false}
          withAsterisk
          data-autofocus
        />
        <Textarea
          label={t('staff.disable.reason')}
          value={form.values.reason}
          onChange={(event) => {
            form.setField('reason', event.currentTarget.value);
          }}
          error={form.errorOf('reason')}
          autosize
          minRows={2}
          maxLength={500}
        />
        <Text fz="xs" c="dimmed">
          {t('staff.disable.sessionsEnd')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" color="red" loading={mutation.isPending}>
            {t('staff.disable.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Temporary disable (spec §4): 3 days, 2 weeks, 1 month or indefinitely, with an optional reason. */
export function StaffDisableDialog({ staff, onClose }: { staff: StaffDetail | null; onClose: () => void }) {
  const { t } = useTranslation('org');
  return (
    <Modal opened={staff !== null} onClose={onClose} title={t('staff.disable.title')} centered>
      {staff ? <DisableForm staff={staff} onClose={onClose} /> : null}
    </Modal>
  );
}
