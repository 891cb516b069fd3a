import { useState, type SyntheticEvent } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CareReminder } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldMessageText, type FieldMessages } from '../../lib/form-errors';
import { messageText } from '../../lib/notify';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { usePermissions } from '../shell/permissions';
import {
  CARE_PLAN_QUERY_ROOT,
  careRemindersQuery,
  createCareReminder,
  deleteCareReminder,
} from './care-plan-api';
import { useCarePlanToday } from './care-plan-today';
import { emptySchedule, type ScheduleValues } from './form-values';
import { checkReminder, serverMessages, type ReminderValues } from './problems';
import { ScheduleFields } from './schedule-fields';
import { scheduleInWords } from './schedule-words';
import { withoutMessages } from './use-prescription-form';

/** The form to write a care reminder: a title, a note and its schedule, checked like a medicine's. */
function ReminderForm({ patientId, onDone }: { patientId: string; onDone: () => void }) {
  const { t } = useTranslation('carePlan');
  const queryClient = useQueryClient();
  const today = useCarePlanToday();
  const [values, setValues] = useState<ReminderValues>(() => ({
    title: '',
    note: '',
    schedule: emptySchedule(today, { label: t('reminders.defaultLabel'), time: '08:00' }),
  }));
  const [messages, setMessages] = useState<FieldMessages>({});
  const save = useMutation({
    mutationFn: (input: Parameters<typeof createCareReminder>[1]) => createCareReminder(patientId, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CARE_PLAN_QUERY_ROOT });
      onDone();
    },
    onError: (error) => {
      setMessages(serverMessages(error));
    },
  });
  const errorOf = (path: string) => fieldMessageText(messages[path]);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const checked = checkReminder(values);
    setMessages(checked.messages);
    if (checked.input !== null) save.mutate(checked.input);
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label={t('reminders.new')}>
      <Stack gap="sm">
        <Title order={4} fz="md">
          {t('reminders.new')}
        </Title>
        <TextInput
          label={t('reminders.title')}
          description={t('reminders.titleHint')}
          required
          maxLength={120}
          value={values.title}
          error={errorOf('title')}
          onChange={(event) => {
            const title = event.currentTarget.value;
            setValues((current) => ({ ...current, title }));
            setMessages((current) => withoutMessages(current, ['title']));
          }}
        />
        <Textarea
          label={t('reminders.note')}
          maxLength={1000}
          autosize
          minRows={2}
          value={values.note}
          error={errorOf('note')}
          onChange={(event) => {
            const note = event.currentTarget.value;
            setValues((current) => ({ ...current, note }));
          }}
        />
        <ScheduleFields
          schedule={values.schedule}
          path="schedule"
          openEnd="forever"
          medicineName={values.title}
          errorOf={errorOf}
          onChange={(patch: Partial<ScheduleValues>, fixes) => {
            setValues((current) => ({ ...current, schedule: { ...current.schedule, ...patch } }));
            setMessages((current) => withoutMessages(current, fixes));
          }}
        />
        {save.isError && Object.keys(serverMessages(save.error)).length === 0 ? (
          <Alert color="red">{messageText(errorMessageFor(save.error))}</Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('reminders.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('reminders.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function ReminderRow({ patientId, reminder }: { patientId: string; reminder: CareReminder }) {
  const { t, i18n } = useTranslation('carePlan');
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const [isConfirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteCareReminder(patientId, reminder.id),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: CARE_PLAN_QUERY_ROOT });
    },
  });
  return (
    <Paper withBorder p="sm" data-testid="care-reminder">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text fw={600}>{reminder.title}</Text>
          <Text fz="sm">{scheduleInWords(reminder.schedule, t, i18n.language, 'forever')}</Text>
          {reminder.note === null ? null : (
            <Text fz="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {reminder.note}
            </Text>
          )}
          <Text fz="xs" c="dimmed">
            {t('reminders.by', { name: reminder.createdBy.fullName })}
          </Text>
        </Stack>
        {can('health.remind') ? (
          <Button
            variant="default"
            color="red"
            size="xs"
            onClick={() => {
              setConfirming(true);
            }}
          >
            {t('reminders.delete')}
          </Button>
        ) : null}
      </Group>
      <ConfirmDialog
        isOpen={isConfirming}
        title={t('reminders.deleteTitle')}
        text={t('reminders.deleteText', { title: reminder.title })}
        confirmLabel={t('reminders.delete')}
        confirmColor="red"
        isPending={remove.isPending}
        error={remove.error}
        onConfirm={() => {
          if (!remove.isPending) remove.mutate();
        }}
        onClose={() => {
          setConfirming(false);
        }}
      />
    </Paper>
  );
}

/**
 * Care reminders (spec §3 Reminder, §6): reminders on the patient that are not a medicine's dose
 * ("measure your blood pressure"), written and deleted by doctors and their assistants
 * (health.remind), read by the care team; the app rings them at their times.
 */
export function CareReminders({ patientId }: { patientId: string }) {
  const { t } = useTranslation('carePlan');
  const { can } = usePermissions();
  const reminders = useQuery(careRemindersQuery(patientId));
  const [isAdding, setAdding] = useState(false);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="care-reminders-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Stack gap={0}>
            <Title order={3} fz="lg" id="care-reminders-heading">
              {t('reminders.heading')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('reminders.subtitle')}
            </Text>
          </Stack>
          {can('health.remind') && !isAdding ? (
            <Button
              onClick={() => {
                setAdding(true);
              }}
            >
              {t('reminders.add')}
            </Button>
          ) : null}
        </Group>
        {isAdding ? (
          <ReminderForm
            patientId={patientId}
            onDone={() => {
              setAdding(false);
            }}
          />
        ) : null}
        {reminders.isPending ? <Text c="dimmed">{t('reminders.loading')}</Text> : null}
        {reminders.isError ? (
          <Alert color="red">{messageText(errorMessageFor(reminders.error))}</Alert>
        ) : null}
        {reminders.data?.length === 0 ? <Text c="dimmed">{t('reminders.empty')}</Text> : null}
        {reminders.data?.map((reminder) => (
          <ReminderRow key={reminder.id} patientId={patientId} reminder={reminder} />
        ))}
      </Stack>
    </Paper>
  );
}
