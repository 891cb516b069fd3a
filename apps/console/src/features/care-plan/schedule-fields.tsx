import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Input,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateField } from '../shell/date-field';
import { CrossIcon, PlusIcon } from '../shell/icons';
import {
  ALL_WEEKDAYS,
  formatTimeTyping,
  newKey,
  REPEAT_KINDS,
  type NumberValue,
  type ScheduleValues,
} from './form-values';
import { weekdayKey, type OpenEnd } from './schedule-words';

/** The most reminder times a schedule holds (contracts reminderScheduleSchema). */
const MAX_TIMES = 24;

const asNumber = (value: string | number): NumberValue => (typeof value === 'number' ? value : '');

/**
 * A medicine's reminder schedule (spec §3 Reminder, §5): its times with their labels, how it repeats
 * (weekdays, days of the month, every n hours, days on and off, every n days), its first day and
 * its last one or none (as long as the prescription lasts).
 *
 * `path` names its fields as the contract does ("medicines.0.schedule"), so the rules' messages
 * land under them; `onChange` takes the change and the fields (under `path`) it fixes.
 */
export function ScheduleFields({
  schedule,
  path,
  medicineName,
  errorOf,
  onChange,
  openEnd = 'prescription',
}: {
  schedule: ScheduleValues;
  path: string;
  medicineName: string;
  errorOf: (path: string) => string | undefined;
  onChange: (patch: Partial<ScheduleValues>, fixes: readonly string[]) => void;
  /** What no end date means: until the prescription ends, or for good (a care reminder). */
  openEnd?: OpenEnd;
}) {
  const { t } = useTranslation('carePlan');
  const timesError = errorOf(`${path}.times`);
  const repeatPath = `${path}.repeat`;
  const numberField = (
    field: 'everyHours' | 'activeDays' | 'inactiveDays' | 'everyDays',
    apiField: string,
    label: string,
    max: number,
  ) => (
    <NumberInput
      label={label}
      value={schedule[field]}
      min={1}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      onChange={(value) => {
        onChange({ [field]: asNumber(value) }, [`${repeatPath}.${apiField}`]);
      }}
      error={errorOf(`${repeatPath}.${apiField}`)}
      withAsterisk
    />
  );
  return (
    <Fieldset legend={t('schedule.legend')} radius="md" data-testid="schedule-fields">
      <Stack gap="md">
        <Stack gap="xs">
          {schedule.times.map((item, index) => (
            <Group key={item.key} gap="sm" align="flex-start" wrap="nowrap" data-testid="schedule-time">
              <TextInput
                label={t('schedule.labelShort', { number: index + 1 })}
                aria-label={t('schedule.timeLabel', { number: index + 1 })}
                placeholder={t('schedule.timeLabelPlaceholder')}
                value={item.label}
                maxLength={60}
                onChange={(event) => {
                  const label = event.currentTarget.value;
                  onChange(
                    {
                      times: schedule.times.map((other) =>
                        other.key === item.key ? { ...other, label } : other,
                      ),
                    },
                    [`${path}.times.${String(index)}.label`],
                  );
                }}
                error={errorOf(`${path}.times.${String(index)}.label`)}
                withAsterisk
                w={240}
              />
              <TextInput
                label={t('schedule.timeShort')}
                aria-label={t('schedule.time', { number: index + 1 })}
                placeholder="08:00"
                inputMode="numeric"
                maxLength={5}
                value={item.time}
                onChange={(event) => {
                  const time = formatTimeTyping(event.currentTarget.value);
                  onChange(
                    {
                      times: schedule.times.map((other) =>
                        other.key === item.key ? { ...other, time } : other,
                      ),
                    },
                    [`${path}.times.${String(index)}.time`],
                  );
                }}
                error={errorOf(`${path}.times.${String(index)}.time`)}
                withAsterisk
                w={110}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={t('schedule.removeTime', { number: index + 1, name: medicineName })}
                onClick={() => {
                  onChange({ times: schedule.times.filter((other) => other.key !== item.key) }, [
                    `${path}.times`,
                  ]);
                }}
              >
                <CrossIcon />
              </ActionIcon>
            </Group>
          ))}
          {timesError === undefined ? null : <Input.Error role="alert">{timesError}</Input.Error>}
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<PlusIcon />}
              disabled={schedule.times.length >= MAX_TIMES}
              onClick={() => {
                onChange({ times: [...schedule.times, { key: newKey(), label: '', time: '' }] }, [
                  `${path}.times`,
                ]);
              }}
            >
              {t('schedule.addTime')}
            </Button>
          </Group>
        </Stack>
        <SimpleGrid cols={3} spacing="md">
          <Select
            label={t('schedule.repeat')}
            data={REPEAT_KINDS.map((kind) => ({ value: kind, label: t(`repeatKind.${kind}`) }))}
            value={schedule.repeatKind}
            onChange={(value) => {
              const kind = REPEAT_KINDS.find((candidate) => candidate === value);
              if (kind !== undefined) onChange({ repeatKind: kind }, [repeatPath, `${path}.times`]);
            }}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
          {schedule.repeatKind === 'MONTH_DAYS' ? (
            <TextInput
              label={t('schedule.monthDays')}
              description={t('schedule.monthDaysHint')}
              placeholder="1,15"
              value={schedule.monthDays}
              onChange={(event) => {
                onChange({ monthDays: event.currentTarget.value }, [`${repeatPath}.days`]);
              }}
              error={errorOf(`${repeatPath}.days`)}
              withAsterisk
            />
          ) : null}
          {schedule.repeatKind === 'HOUR_CYCLE'
            ? numberField('everyHours', 'everyHours', t('schedule.everyHours'), 24)
            : null}
          {schedule.repeatKind === 'DAY_CYCLE' ? (
            <>
              {numberField('activeDays', 'activeDays', t('schedule.activeDays'), 365)}
              {numberField('inactiveDays', 'inactiveDays', t('schedule.inactiveDays'), 365)}
            </>
          ) : null}
          {schedule.repeatKind === 'EVERY_N_DAYS'
            ? numberField('everyDays', 'everyDays', t('schedule.everyDays'), 365)
            : null}
        </SimpleGrid>
        {schedule.repeatKind === 'HOUR_CYCLE' ? (
          <Text fz="xs" c="dimmed">
            {t('schedule.hourCycleHint')}
          </Text>
        ) : null}
        {schedule.repeatKind === 'WEEKDAYS' ? (
          <Checkbox.Group
            label={t('schedule.weekdays')}
            value={schedule.weekdays.map(String)}
            onChange={(chosen) => {
              onChange({ weekdays: chosen.map(Number).sort((a, b) => a - b) }, [`${repeatPath}.weekdays`]);
            }}
            error={errorOf(`${repeatPath}.weekdays`)}
            withAsterisk
          >
            <Group gap="md" mt={6}>
              {ALL_WEEKDAYS.map((day) => (
                <Checkbox key={day} value={String(day)} label={t(`weekdays.long.${weekdayKey(day)}`)} />
              ))}
            </Group>
          </Checkbox.Group>
        ) : null}
        <Group gap="md" align="flex-start">
          <DateField
            label={t('schedule.startDate')}
            value={schedule.startDate}
            onChange={(startDate) => {
              onChange({ startDate }, [`${path}.startDate`, `${path}.endDate`]);
            }}
            error={errorOf(`${path}.startDate`)}
            isRequired
            width={160}
          />
          {schedule.isForever ? null : (
            <DateField
              label={t('schedule.endDate')}
              value={schedule.endDate}
              onChange={(endDate) => {
                onChange({ endDate }, [`${path}.startDate`, `${path}.endDate`]);
              }}
              error={errorOf(`${path}.endDate`)}
              isRequired
              width={160}
            />
          )}
          <Checkbox
            mt={32}
            label={t(openEnd === 'prescription' ? 'schedule.forever' : 'schedule.noEnd')}
            checked={schedule.isForever}
            onChange={(event) => {
              onChange({ isForever: event.currentTarget.checked }, [`${path}.endDate`]);
            }}
          />
        </Group>
      </Stack>
    </Fieldset>
  );
}
