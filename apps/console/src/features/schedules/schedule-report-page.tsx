import { useMemo, useState } from 'react';
import {
  Box,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  SCHEDULE_REPORT_MAX_DAYS,
  SCHEDULE_REPORT_PERIODS,
  type ScheduleReport,
  type ScheduleReportFigures,
  type ScheduleReportPeriod,
  type ScheduleReportPeriodRow,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { displayTimeZone, formatNumber, formatPercent, toDisplayDate } from '../../lib/format';
import { ariaSortOf, sortMarkOf, type SortState } from '../shell/columns';
import { RecordFilter } from '../shell/data-table-filters';
import { DayFilterField } from '../shell/date-field';
import { usePermissions } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { addDays, isoWeekday, mondayOf, todayIn } from './calendar-days';
import { weekdayLabelKey } from './schedule-badges';
import { scheduleReportQuery } from './schedule-report-api';
import { ScheduleTabs } from './schedule-tabs';

type SortField =
  'start' | 'scheduledMinutes' | 'booked' | 'completed' | 'cancelled' | 'noShows' | 'open' | 'completionRate';

interface ReportColumn {
  field: SortField;
  header: string;
  value: (figures: ScheduleReportFigures) => string;
}

const DAY_MS = 86_400_000;
const daysApart = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** A period's figure to sort by: the start day, or a number (no rate sorts below every rate). */
function sortValue(row: ScheduleReportPeriodRow, field: SortField): string | number {
  if (field === 'start') return row.start;
  if (field === 'completionRate') return row.completionRate ?? -1;
  return row[field];
}

function sortRows(
  rows: readonly ScheduleReportPeriodRow[],
  sort: SortState<SortField>,
): ScheduleReportPeriodRow[] {
  const sign = sort.sortType === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = sortValue(a, sort.sortField);
    const right = sortValue(b, sort.sortField);
    const order = left < right ? -1 : left > right ? 1 : 0;
    return order === 0 ? a.start.localeCompare(b.start) : order * sign;
  });
}

/** The figures to show: one doctor's, or every doctor's added up. */
function chosen(report: ScheduleReport, doctorId: string | null) {
  if (doctorId === null) return report.doctors.length === 0 ? null : report;
  return report.doctors.find((entry) => entry.doctor.id === doctorId) ?? null;
}

/**
 * /<area>/schedule-report: the statistics of working schedules (spec §2), per day, week or month
 * between two days: hours of approved schedules and what became of the appointments, with totals.
 * A doctor sees its own; an admin every doctor it sees, added up or one picked.
 */
export function ScheduleReportPage() {
  const { t } = useTranslation(['schedules', 'common']);
  usePageTitle(t('report.pageTitle'));
  const { can } = usePermissions();
  const isAdmin = can('appointment.approve');
  const thisMonday = mondayOf(todayIn(displayTimeZone()));
  const [period, setPeriod] = useState<ScheduleReportPeriod>('day');
  const [from, setFrom] = useState<string | null>(thisMonday);
  const [to, setTo] = useState<string | null>(addDays(thisMonday, 6));
  const [doctorId, setDoctorId] = useState<string | null>(null);
  const [sort, setSort] = useState<SortState<SortField>>({ sortField: 'start', sortType: 'asc' });

  const rangeProblem =
    from === null || to === null
      ? t('report.rangeMissing')
      : from > to || daysApart(from, to) > SCHEDULE_REPORT_MAX_DAYS
        ? t('report.rangeInvalid', { days: SCHEDULE_REPORT_MAX_DAYS })
        : null;
  const query = useQuery({
    ...scheduleReportQuery({ from: from ?? '', to: to ?? '', period }),
    enabled: rangeProblem === null,
  });

  const hours = (minutes: number) =>
    t('report.hoursValue', { value: formatNumber(minutes / 60, minutes % 60 === 0 ? 0 : 1) });
  const columns: ReportColumn[] = [
    {
      field: 'scheduledMinutes',
      header: t('report.columns.hours'),
      value: (row) => hours(row.scheduledMinutes),
    },
    { field: 'booked', header: t('report.columns.booked'), value: (row) => formatNumber(row.booked) },
    {
      field: 'completed',
      header: t('report.columns.completed'),
      value: (row) => formatNumber(row.completed),
    },
    {
      field: 'cancelled',
      header: t('report.columns.cancelled'),
      value: (row) => formatNumber(row.cancelled),
    },
    { field: 'noShows', header: t('report.columns.noShows'), value: (row) => formatNumber(row.noShows) },
    { field: 'open', header: t('report.columns.open'), value: (row) => formatNumber(row.open) },
    {
      field: 'completionRate',
      header: t('report.columns.completionRate'),
      value: (row) => (row.completionRate === null ? '—' : formatPercent(row.completionRate / 100, 1)),
    },
  ];

  const periodLabel = (row: ScheduleReportPeriodRow) => {
    if (row.start === row.end) {
      const weekday = t(weekdayLabelKey(isoWeekday(row.start)));
      return `${weekday} ${toDisplayDate(row.start)}`;
    }
    return `${toDisplayDate(row.start)} – ${toDisplayDate(row.end)}`;
  };

  const report = query.data;
  const shown = report === undefined ? null : chosen(report, doctorId);
  const rows = useMemo(() => (shown === null ? [] : sortRows(shown.periods, sort)), [shown, sort]);
  const doctors = report?.doctors.map((entry) => entry.doctor) ?? [];

  const header = (field: SortField, words: string) => {
    const ariaSort = ariaSortOf({ sortField: field }, sort);
    return (
      <Table.Th key={field} aria-sort={ariaSort} ta={field === 'start' ? undefined : 'right'}>
        <UnstyledButton
          fw={600}
          fz="sm"
          onClick={() => {
            setSort((current) => ({
              sortField: field,
              sortType: current.sortField === field && current.sortType === 'asc' ? 'desc' : 'asc',
            }));
          }}
        >
          {words} {sortMarkOf(ariaSort)}
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="lg" maw={1280}>
      <ScheduleTabs current="schedule-report" />
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('report.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t(isAdmin ? 'report.subtitleAdmin' : 'report.subtitleDoctor')}
        </Text>
      </Stack>
      <Group align="flex-end" gap="lg" wrap="wrap">
        <Stack gap={4}>
          <Text fz="sm" fw={500} id="report-period-label">
            {t('report.period')}
          </Text>
          <SegmentedControl
            aria-labelledby="report-period-label"
            value={period}
            onChange={(value) => {
              setPeriod(value);
            }}
            data={SCHEDULE_REPORT_PERIODS.map((value) => ({ value, label: t(`report.periods.${value}`) }))}
          />
        </Stack>
        <DayFilterField label={t('report.from')} value={from} onChange={setFrom} />
        <DayFilterField label={t('report.to')} value={to} onChange={setTo} />
        {isAdmin ? (
          <RecordFilter
            items={doctors}
            nameOf={(doctor) => doctor.fullName}
            value={doctorId}
            onChange={setDoctorId}
            label={t('report.doctor')}
            placeholder={t('report.allDoctors')}
            width={260}
            nothingFound={t('report.noOption')}
          />
        ) : null}
      </Group>
      <Text c="dimmed" fz="xs">
        {t('report.definitions')}
      </Text>
      <Paper withBorder radius="md" p="md">
        {rangeProblem !== null ? (
          <Text c="red" fz="sm" role="alert">
            {rangeProblem}
          </Text>
        ) : null}
        {rangeProblem === null && query.isPending ? <LoadingState /> : null}
        {rangeProblem === null && query.isError ? (
          <ErrorState
            error={query.error}
            title={t('report.loadFailed')}
            onRetry={() => void query.refetch()}
          />
        ) : null}
        {rangeProblem === null && query.isSuccess && shown === null ? (
          <EmptyList
            title={t('report.emptyTitle')}
            description={t(doctorId === null ? 'report.emptyHint' : 'report.emptyDoctorHint')}
          />
        ) : null}
        {rangeProblem === null && query.isSuccess && shown !== null ? (
          <Box style={{ overflowX: 'auto' }}>
            <Table
              highlightOnHover
              verticalSpacing="sm"
              aria-label={t('report.tableLabel')}
              data-testid="schedule-report"
              style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}
              miw={860}
            >
              <Table.Thead>
                <Table.Tr>
                  {header('start', t('report.columns.period'))}
                  {columns.map((column) => header(column.field, column.header))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.start} data-testid="schedule-report-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{periodLabel(row)}</Table.Td>
                    {columns.map((column) => (
                      <Table.Td key={column.field} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {column.value(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr data-testid="schedule-report-totals" fw={700}>
                  <Table.Th scope="row">{t('report.total')}</Table.Th>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.field}
                      ta="right"
                      fw={700}
                      style={{ fontVariantNumeric: 'tabular-nums' }}
                    >
                      {column.value(shown.totals)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Box>
        ) : null}
      </Paper>
    </Stack>
  );
}
