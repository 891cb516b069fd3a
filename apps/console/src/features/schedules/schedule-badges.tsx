import { Badge, Text } from '@mantine/core';
import { scheduleWeekdays, type DoctorSchedule, type ScheduleDisplayStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { toDisplayDate } from '../../lib/format';

export const STATUS_COLORS: Record<ScheduleDisplayStatus, string> = {
  NEW: 'yellow',
  APPROVED: 'teal',
  REJECTED: 'red',
  DELETION_REQUESTED: 'orange',
  DELETED: 'gray',
  EXPIRED: 'gray',
};

export function ScheduleStatusBadge({ status }: { status: ScheduleDisplayStatus }) {
  const { t } = useTranslation('schedules');
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      data-testid="schedule-status"
      data-status={status}
      styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

type WeekdayKey = '1' | '2' | '3' | '4' | '5' | '6' | '7';
const weekdayKey = (day: number) => String(day) as WeekdayKey;

/** "Mon, Wed, Fri" in the console's language. */
export function useWeekdayNames(): (days: readonly number[]) => string {
  const { t } = useTranslation('schedules');
  return (days) => days.map((day) => t(`weekday.${weekdayKey(day)}`)).join(', ');
}

export function weekdayLabelKey(day: number): `weekday.${WeekdayKey}` {
  return `weekday.${weekdayKey(day)}`;
}

export function weekdayLongKey(day: number): `weekdayLong.${WeekdayKey}` {
  return `weekdayLong.${weekdayKey(day)}`;
}

/** "01/12/2026" or "01/12/2026 – 31/12/2026". */
export function scheduleDates(schedule: Pick<DoctorSchedule, 'startDate' | 'endDate'>): string {
  return schedule.startDate === schedule.endDate
    ? toDisplayDate(schedule.startDate)
    : `${toDisplayDate(schedule.startDate)} – ${toDisplayDate(schedule.endDate)}`;
}

/** "08:00–12:00" (the schedule's own wall-clock hours). */
export function scheduleHours(schedule: Pick<DoctorSchedule, 'startTime' | 'endTime'>): string {
  return `${schedule.startTime.slice(0, 5)}–${schedule.endTime.slice(0, 5)}`;
}

/** The kind with the days it runs on: "Weekly · Mon, Wed". */
export function ScheduleKindCell({ schedule }: { schedule: DoctorSchedule }) {
  const { t } = useTranslation('schedules');
  const names = useWeekdayNames();
  return (
    <Text fz="sm" component="span">
      {t(`kind.${schedule.kind}`)}
      <Text span c="dimmed" fz="sm">
        {' · '}
        {names(scheduleWeekdays(schedule))}
      </Text>
    </Text>
  );
}
