import type { SubmitEvent } from 'react';
import {
  Alert,
  Button,
  Chip,
  Group,
  Input,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  SCHEDULE_KINDS,
  SCHEDULE_SLOT_MINUTES,
  scheduleInputSchema,
  type ScheduleInput,
  type ScheduleKind,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageForIssue, type FieldMessages } from '../../lib/form-errors';
import { displayDateForSchema, displayTimeZone, toDisplayDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { DateField } from '../shell/date-field';
import { addDays, formatTimeTyping, todayIn } from './calendar-days';
import { weekdayLabelKey } from './schedule-badges';
import { requestSchedule, SCHEDULES_QUERY_ROOT } from './schedules-api';

export interface RequestValues {
  kind: ScheduleKind;
  /** As typed, dd/MM/yyyy. */
  startDate: string;
  endDate: string;
  /** ISO days of the week as chip values ("1" … "7"). */
  weekdays: string[];
  startTime: string;
  endTime: string;
  slotMinutes: string;
  note: string;
}

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The input to send for the values as typed (dates ISO when they are real, as typed otherwise). */
export function toScheduleInput(values: RequestValues): Record<string, unknown> {
  const startDate = displayDateForSchema(values.startDate);
  return {
    kind: values.kind,
    startDate,
    endDate: values.kind === 'SINGLE' ? startDate : displayDateForSchema(values.endDate),
    ...(values.kind === 'WEEKLY' ? { weekdays: values.weekdays.map(Number).sort() } : {}),
    startTime: values.startTime,
    endTime: values.endTime,
    slotMinutes: Number(values.slotMinutes),
    ...(values.note.trim() === '' ? {} : { note: values.note.trim() }),
  };
}

/**
 * The form's messages: the contract's fields and §5 rules (their messages are `schedule.problems.*`
 * of the errors catalogue), and a first day before the doctor's today. Null input when any.
 */
export function checkRequest(
  values: RequestValues,
  today: string,
): { input: ScheduleInput | null; messages: FieldMessages } {
  const parsed = scheduleInputSchema.safeParse(toScheduleInput(values));
  const messages: FieldMessages = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      messages[path] ??= issue.message.startsWith('schedule.problems.')
        ? { key: `errors:${issue.message}` }
        : messageForIssue(issue);
    }
  }
  if (parsed.success && parsed.data.startDate < today && !('startDate' in messages))
    messages.startDate = { key: 'schedules:form.pastDay' };
  return { input: parsed.success && Object.keys(messages).length === 0 ? parsed.data : null, messages };
}

/** Refusals that belong under one field rather than above the form. */
const FIELD_OF_CODE: Partial<Record<string, string>> = { 'schedule.pastDate': 'startDate' };

export function initialRequestValues(today: string): RequestValues {
  const start = addDays(today, 1);
  return {
    kind: 'WEEKLY',
    startDate: toDisplayDate(start),
    endDate: toDisplayDate(addDays(start, 27)),
    weekdays: [],
    startTime: '08:00',
    endTime: '12:00',
    slotMinutes: '30',
    note: '',
  };
}

/** "Request working hours": a single day or a weekly pattern, checked as the server will. */
export function ScheduleRequestForm({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(['schedules', 'common']);
  const queryClient = useQueryClient();
  const zone = displayTimeZone();
  const today = todayIn(zone);
  const form = useFormState<RequestValues>(initialRequestValues(today));
  const { values } = form;
  const send = useMutation({
    mutationFn: (input: ScheduleInput) => requestSchedule(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('form.sent'));
      void queryClient.invalidateQueries({ queryKey: SCHEDULES_QUERY_ROOT });
      form.setValues(initialRequestValues(today));
      onClose();
    },
    onError: (error) => {
      if (form.showServerErrors(error)) return;
      const field = isApiError(error) && error.code ? FIELD_OF_CODE[error.code] : undefined;
      if (field !== undefined) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
    },
  });
  const isFieldError =
    isApiError(send.error) &&
    (send.error.fieldErrors.length > 0 ||
      (send.error.code !== undefined && FIELD_OF_CODE[send.error.code] !== undefined));

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    send.reset();
    const { input, messages } = checkRequest(values, today);
    if (input === null) {
      form.clearMessages();
      for (const [path, message] of Object.entries(messages)) form.setMessage(path, message);
      return;
    }
    form.clearMessages();
    send.mutate(input);
  };
  const close = () => {
    send.reset();
    form.clearMessages();
    onClose();
  };
  const setField = <K extends keyof RequestValues>(name: K, value: RequestValues[K]) => {
    form.setField(name, value);
    send.reset();
  };
  const weekdaysError = form.errorOf('weekdays');

  return (
    <Modal opened={opened} onClose={close} title={t('form.title')} size="lg" centered>
      <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('form.label')}>
        <Stack gap="md">
          {send.isError && !isFieldError ? (
            <Alert color="red" variant="light" role="alert" data-testid="schedule-form-error">
              {messageText(errorMessageFor(send.error))}
            </Alert>
          ) : null}
          <Stack gap={4}>
            <Text fz="sm" fw={500} id="schedule-kind-label">
              {t('form.kind')}
            </Text>
            <SegmentedControl
              aria-labelledby="schedule-kind-label"
              value={values.kind}
              onChange={(value) => {
                const kind = SCHEDULE_KINDS.find((option) => option === value);
                if (kind !== undefined) setField('kind', kind);
              }}
              data={[
                { value: 'SINGLE', label: t('form.single') },
                { value: 'WEEKLY', label: t('form.weekly') },
              ]}
            />
          </Stack>
          <SimpleGrid cols={2} spacing="md">
            <DateField
              label={values.kind === 'SINGLE' ? t('form.day') : t('form.startDate')}
              value={values.startDate}
              error={form.errorOf('startDate')}
              onChange={(value) => {
                setField('startDate', value);
              }}
              isRequired
            />
            {values.kind === 'WEEKLY' ? (
              <DateField
                label={t('form.endDate')}
                value={values.endDate}
                error={form.errorOf('endDate')}
                onChange={(value) => {
                  setField('endDate', value);
                }}
                isRequired
              />
            ) : null}
          </SimpleGrid>
          {values.kind === 'WEEKLY' ? (
            <Input.Wrapper label={t('form.weekdays')} withAsterisk error={weekdaysError}>
              <Chip.Group
                multiple
                value={values.weekdays}
                onChange={(days) => {
                  setField('weekdays', days);
                }}
              >
                <Group gap={6} mt={4} role="group" aria-label={t('form.weekdays')}>
                  {WEEKDAYS.map((day) => (
                    <Chip key={day} value={String(day)} size="sm">
                      {t(weekdayLabelKey(day))}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            </Input.Wrapper>
          ) : null}
          <SimpleGrid cols={3} spacing="md">
            <TextInput
              label={t('form.startTime')}
              placeholder={t('form.timePlaceholder')}
              inputMode="numeric"
              maxLength={5}
              value={values.startTime}
              onChange={(event) => {
                setField('startTime', formatTimeTyping(event.currentTarget.value));
              }}
              error={form.errorOf('startTime')}
              withAsterisk
            />
            <TextInput
              label={t('form.endTime')}
              placeholder={t('form.timePlaceholder')}
              inputMode="numeric"
              maxLength={5}
              value={values.endTime}
              onChange={(event) => {
                setField('endTime', formatTimeTyping(event.currentTarget.value));
              }}
              error={form.errorOf('endTime')}
              withAsterisk
            />
            <Select
              label={t('form.slotMinutes')}
              data={SCHEDULE_SLOT_MINUTES.map((minutes) => ({
                value: String(minutes),
                label: t('minutes', { count: minutes }),
              }))}
              value={values.slotMinutes}
              onChange={(value) => {
                if (value !== null) setField('slotMinutes', value);
              }}
              error={form.errorOf('slotMinutes')}
              allowDeselect={false}
              withAsterisk
            />
          </SimpleGrid>
          <Textarea
            label={t('form.note')}
            placeholder={t('form.notePlaceholder')}
            value={values.note}
            onChange={(event) => {
              setField('note', event.currentTarget.value);
            }}
            error={form.errorOf('note')}
            autosize
            minRows={2}
            maxRows={5}
          />
          <Text fz="xs" c="dimmed">
            {t('form.zoneHint', { zone })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
