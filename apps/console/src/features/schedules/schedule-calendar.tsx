import { useState, type CSSProperties } from 'react';
import { Box, Button, Group, Paper, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ScheduleDisplayStatus, ScheduleOccurrence } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { displayTimeZone, formatTime, toDisplayDate } from '../../lib/format';
import { ErrorState, LoadingState } from '../shell/query-states';
import {
  addDays,
  isoWeekday,
  laneLayout,
  stepAnchor,
  todayIn,
  viewDays,
  zonedPlace,
  type CalendarView,
} from './calendar-days';
import { weekdayLabelKey, weekdayLongKey } from './schedule-badges';
import { calendarQuery, type CalendarFilter } from './schedules-api';

const HOUR_PX = 44;
const PENDING: readonly ScheduleDisplayStatus[] = ['NEW', 'DELETION_REQUESTED'];

/**
 * How a period looks: approved solid, pending striped with a dashed edge, past ones grey. The text
 * keeps a contrast of at least 4.5:1 on each (teal 9 on teal 0: 4.7; grey 8 on the yellow stripes: 10).
 */
function periodStyle(status: ScheduleDisplayStatus): CSSProperties {
  if (PENDING.includes(status))
    return {
      background:
        'repeating-linear-gradient(135deg, var(--mantine-color-yellow-1) 0 6px, var(--mantine-color-body) 6px 12px)',
      border: '1.5px dashed var(--mantine-color-yellow-8)',
      color: 'var(--mantine-color-gray-8)',
    };
  if (status === 'EXPIRED')
    return {
      background: 'var(--mantine-color-gray-1)',
      border: '1px solid var(--mantine-color-gray-4)',
      color: 'var(--mantine-color-gray-7)',
    };
  return {
    background: 'var(--mantine-color-teal-0)',
    border: '1px solid var(--mantine-color-teal-6)',
    borderLeft: '4px solid var(--mantine-color-teal-7)',
    color: 'var(--mantine-color-teal-9)',
  };
}

interface Placed {
  occurrence: ScheduleOccurrence;
  day: string;
  start: number;
  end: number;
}

/** The periods by the day (in the user's zone) they start on; a period past midnight ends at 24:00. */
function placeOccurrences(
  occurrences: readonly ScheduleOccurrence[],
  timeZone: string,
): Map<string, Placed[]> {
  const byDay = new Map<string, Placed[]>();
  for (const occurrence of occurrences) {
    const start = zonedPlace(occurrence.startAt, timeZone);
    const end = zonedPlace(occurrence.endAt, timeZone);
    const placed: Placed = {
      occurrence,
      day: start.day,
      start: start.minute,
      end: end.day === start.day ? end.minute : 24 * 60,
    };
    byDay.set(start.day, [...(byDay.get(start.day) ?? []), placed]);
  }
  return byDay;
}

function useLabels(showDoctor: boolean) {
  const { t } = useTranslation('schedules');
  return (occurrence: ScheduleOccurrence) => {
    const start = formatTime(occurrence.startAt);
    const end = formatTime(occurrence.endAt);
    const status = t(`status.${occurrence.status}`);
    return {
      hours: t('calendar.period', { start, end }),
      full: showDoctor
        ? t('calendar.periodOf', { doctor: occurrence.doctor.fullName, start, end, status })
        : `${t('calendar.period', { start, end })}, ${status}`,
    };
  };
}

function PeriodBlock({
  placed,
  showDoctor,
  style,
}: {
  placed: Placed;
  showDoctor: boolean;
  style?: CSSProperties;
}) {
  const labelOf = useLabels(showDoctor);
  const { occurrence } = placed;
  const label = labelOf(occurrence);
  return (
    <Tooltip label={label.full} withinPortal openDelay={300}>
      <Box
        data-testid="calendar-period"
        data-status={occurrence.status}
        data-schedule-id={occurrence.scheduleId}
        data-day={placed.day}
        aria-label={label.full}
        role="listitem"
        px={6}
        py={2}
        style={{
          borderRadius: 6,
          overflow: 'hidden',
          fontSize: 12,
          lineHeight: 1.3,
          ...periodStyle(occurrence.status),
          ...style,
        }}
      >
        <Text fz={12} fw={600} c="inherit" truncate>
          {label.hours}
        </Text>
        {showDoctor ? (
          <Text fz={12} c="inherit" truncate>
            {occurrence.doctor.fullName}
          </Text>
        ) : null}
      </Box>
    </Tooltip>
  );
}

function DayHeader({ day, today }: { day: string; today: string }) {
  const { t } = useTranslation('schedules');
  const isToday = day === today;
  return (
    <Stack gap={0} align="center" py={4}>
      <Text fz="xs" c="dimmed" tt="uppercase">
        {t(weekdayLabelKey(isoWeekday(day)))}
      </Text>
      <Text fz="sm" fw={isToday ? 700 : 500} c={isToday ? 'blue' : undefined}>
        {toDisplayDate(day).slice(0, 5)}
      </Text>
    </Stack>
  );
}

/** The week or day view: a column per day, hours down the side, each period where its hours are. */
function TimeGrid({
  days,
  byDay,
  today,
  showDoctor,
}: {
  days: readonly string[];
  byDay: Map<string, Placed[]>;
  today: string;
  showDoctor: boolean;
}) {
  const shown = days.flatMap((day) => byDay.get(day) ?? []);
  const firstHour = Math.min(7, ...shown.map((placed) => Math.floor(placed.start / 60)));
  const lastHour = Math.max(19, ...shown.map((placed) => Math.ceil(placed.end / 60)));
  const hours = Array.from({ length: lastHour - firstHour }, (_, index) => firstHour + index);
  const columns = `56px repeat(${String(days.length)}, minmax(0, 1fr))`;
  return (
    <Box style={{ overflowX: 'auto' }}>
      <Box miw={days.length > 1 ? 760 : undefined}>
        <Box style={{ display: 'grid', gridTemplateColumns: columns }}>
          <span />
          {days.map((day) => (
            <DayHeader key={day} day={day} today={today} />
          ))}
        </Box>
        <Box
          style={{
            display: 'grid',
            gridTemplateColumns: columns,
            borderTop: '1px solid var(--mantine-color-default-border)',
          }}
        >
          <Box style={{ position: 'relative' }}>
            {hours.map((hour) => (
              <Text
                key={hour}
                fz={11}
                c="dimmed"
                ta="right"
                pr={6}
                h={HOUR_PX}
                style={{ lineHeight: '14px' }}
              >
                {`${String(hour).padStart(2, '0')}:00`}
              </Text>
            ))}
          </Box>
          {days.map((day) => (
            <Box
              key={day}
              data-testid="calendar-day"
              data-day={day}
              role="list"
              aria-label={toDisplayDate(day)}
              style={{
                position: 'relative',
                height: hours.length * HOUR_PX,
                borderLeft: '1px solid var(--mantine-color-default-border)',
                background: `repeating-linear-gradient(to bottom, transparent 0 ${String(HOUR_PX - 1)}px, var(--mantine-color-default-border) ${String(HOUR_PX - 1)}px ${String(HOUR_PX)}px)${day === today ? ', var(--mantine-color-blue-light)' : ''}`,
              }}
            >
              {laneLayout(byDay.get(day) ?? []).map(({ period, lane, lanes }) => (
                <PeriodBlock
                  key={`${period.occurrence.scheduleId}-${period.day}`}
                  placed={period}
                  showDoctor={showDoctor}
                  style={{
                    position: 'absolute',
                    top: ((period.start - firstHour * 60) / 60) * HOUR_PX + 1,
                    height: Math.max(18, ((period.end - period.start) / 60) * HOUR_PX - 2),
                    left: `calc(${String((lane / lanes) * 100)}% + 2px)`,
                    width: `calc(${String(100 / lanes)}% - 4px)`,
                  }}
                />
              ))}
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
}

const MONTH_CELL_MAX = 3;

function MonthGrid({
  days,
  month,
  byDay,
  today,
  showDoctor,
}: {
  days: readonly string[];
  month: string;
  byDay: Map<string, Placed[]>;
  today: string;
  showDoctor: boolean;
}) {
  const { t } = useTranslation('schedules');
  return (
    <Box style={{ overflowX: 'auto' }}>
      <Box
        miw={760}
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(7, minmax(0, 1fr))',
          borderTop: '1px solid var(--mantine-color-default-border)',
          borderLeft: '1px solid var(--mantine-color-default-border)',
        }}
      >
        {days.slice(0, 7).map((day) => (
          <Text key={`head-${day}`} fz="xs" c="dimmed" tt="uppercase" ta="center" py={4}>
            {t(weekdayLabelKey(isoWeekday(day)))}
          </Text>
        ))}
        {days.map((day) => {
          const periods = (byDay.get(day) ?? []).sort((a, b) => a.start - b.start);
          return (
            <Stack
              key={day}
              gap={2}
              p={4}
              mih={96}
              data-testid="calendar-day"
              data-day={day}
              role="list"
              aria-label={toDisplayDate(day)}
              style={{
                borderRight: '1px solid var(--mantine-color-default-border)',
                borderBottom: '1px solid var(--mantine-color-default-border)',
                background: day === today ? 'var(--mantine-color-blue-light)' : undefined,
                opacity: day.slice(0, 7) === month ? 1 : 0.55,
              }}
            >
              <Text fz="xs" fw={day === today ? 700 : 500}>
                {Number(day.slice(8))}
              </Text>
              {periods.slice(0, MONTH_CELL_MAX).map((placed) => (
                <PeriodBlock
                  key={`${placed.occurrence.scheduleId}-${placed.day}`}
                  placed={placed}
                  showDoctor={showDoctor}
                />
              ))}
              {periods.length > MONTH_CELL_MAX ? (
                <Text fz={11} c="dimmed">
                  {t('calendar.more', { count: periods.length - MONTH_CELL_MAX })}
                </Text>
              ) : null}
            </Stack>
          );
        })}
      </Box>
    </Box>
  );
}

function Legend() {
  const { t } = useTranslation('schedules');
  const swatch = (status: ScheduleDisplayStatus, label: string) => (
    <Group gap={6} wrap="nowrap">
      <Box w={16} h={12} style={{ borderRadius: 3, ...periodStyle(status) }} />
      <Text fz="xs">{label}</Text>
    </Group>
  );
  return (
    <Group gap="md" aria-label={t('calendar.legend')}>
      {swatch('APPROVED', t('calendar.approved'))}
      {swatch('NEW', t('calendar.pending'))}
      {swatch('EXPIRED', t('calendar.expired'))}
    </Group>
  );
}

/**
 * A calendar of working periods (the calendar endpoint) by day, week or month, in the user's time
 * zone, with previous/next and today. `filter` picks whose periods (a doctor, a center).
 */
export function ScheduleCalendar({
  filter,
  showDoctor,
  testId,
}: {
  filter: Omit<CalendarFilter, 'from' | 'to'>;
  showDoctor: boolean;
  testId: string;
}) {
  const { t } = useTranslation('schedules');
  const timeZone = displayTimeZone();
  const today = todayIn(timeZone);
  const [view, setView] = useState<CalendarView>('week');
  const [anchor, setAnchor] = useState(today);
  const days = viewDays(view, anchor);
  const first = days[0] ?? anchor;
  const last = days.at(-1) ?? anchor;
  // A day either side: the server's days are the schedules' zones', the view's the user's.
  const periods = useQuery(calendarQuery({ ...filter, from: addDays(first, -1), to: addDays(last, 1) }));
  const byDay = placeOccurrences(periods.data ?? [], timeZone);
  const shownCount = days.reduce((count, day) => count + (byDay.get(day)?.length ?? 0), 0);
  const title =
    view === 'day'
      ? `${t(weekdayLongKey(isoWeekday(anchor)))} ${toDisplayDate(anchor)}`
      : view === 'week'
        ? `${toDisplayDate(first)} – ${toDisplayDate(last)}`
        : toDisplayDate(`${anchor.slice(0, 8)}01`).slice(3);

  return (
    <Paper withBorder radius="md" p="md" data-testid={testId} aria-label={t('calendar.label')}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setAnchor(stepAnchor(view, anchor, -1));
              }}
            >
              ‹ {t('calendar.previous')}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setAnchor(today);
              }}
            >
              {t('calendar.today')}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setAnchor(stepAnchor(view, anchor, 1));
              }}
            >
              {t('calendar.next')} ›
            </Button>
            <Text fw={600} ml="sm" data-testid="calendar-range" aria-live="polite">
              {title}
            </Text>
          </Group>
          <Group gap="md">
            <Legend />
            <SegmentedControl
              size="xs"
              aria-label={t('calendar.view')}
              value={view}
              onChange={setView}
              data={(['day', 'week', 'month'] as const).map((value) => ({
                value,
                label: t(`calendar.views.${value}`),
              }))}
            />
          </Group>
        </Group>
        {periods.isPending ? <LoadingState /> : null}
        {periods.isError ? (
          <ErrorState
            error={periods.error}
            title={t('calendar.loadFailed')}
            onRetry={() => void periods.refetch()}
          />
        ) : null}
        {periods.isSuccess ? (
          <Box style={{ opacity: periods.isPlaceholderData ? 0.6 : 1 }}>
            {view === 'month' ? (
              <MonthGrid
                days={days}
                month={anchor.slice(0, 7)}
                byDay={byDay}
                today={today}
                showDoctor={showDoctor}
              />
            ) : (
              <TimeGrid days={days} byDay={byDay} today={today} showDoctor={showDoctor} />
            )}
            {shownCount === 0 ? (
              <Text fz="sm" c="dimmed" ta="center" mt="sm">
                {t('calendar.empty')}
              </Text>
            ) : null}
          </Box>
        ) : null}
      </Stack>
    </Paper>
  );
}
