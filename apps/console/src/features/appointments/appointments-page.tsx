import { Anchor, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { APPOINTMENT_STATUSES, type Appointment, type AppointmentStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { displayTimeZone } from '../../lib/format';
import type { Column } from '../shell/columns';
import { TwoLineCell } from '../shell/data-table-cells';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { PlusIcon } from '../shell/icons';
import { areaPath } from '../shell/navigation';
import { usePagedList } from '../shell/paged-list';
import { Can } from '../shell/permissions';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import {
  AppointmentStatusBadge,
  appointmentTime,
  PaidBadge,
  StartDistanceBadge,
  useNow,
} from './appointment-badges';
import { CheckInIcon } from './appointment-icons';
import { isPeriod, PERIODS, periodRange, type Period } from './appointment-time';
import { appointmentListQuery, type AppointmentFilter } from './appointments-api';

const isStatus = (value: string | null): value is AppointmentStatus =>
  APPOINTMENT_STATUSES.some((status) => status === value);

/**
 * /<area>/appointments (spec §2 appointments list, §4 states): the appointments the user sees (a
 * doctor: its own) in a period (today, this week, from today on, all), by state, searchable by
 * patient; each waiting one says live how soon it starts or how overdue it is.
 */
export function AppointmentsPage() {
  const { t } = useTranslation(['schedules', 'common']);
  usePageTitle(t('appointments.title'));
  const session = useSession();
  const now = useNow();
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedPeriod = searchParams.get('period');
  const period: Period = isPeriod(requestedPeriod) ? requestedPeriod : 'today';
  const requestedStatus = searchParams.get('status');
  const status = isStatus(requestedStatus) ? requestedStatus : null;
  const paged = usePagedList<'start', Omit<AppointmentFilter, 'search' | 'status' | 'from' | 'to'>>({
    page: 0,
    size: 20,
    sortField: 'start',
    sortType: 'asc',
  });
  const { filter, debouncedSearch } = paged;
  const range = periodRange(period, displayTimeZone(), now);
  const appointments = useQuery(
    appointmentListQuery({ ...filter, ...range, status, search: debouncedSearch }),
  );
  const setParam = (name: 'period' | 'status', value: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (value === null) next.delete(name);
    else next.set(name, value);
    setSearchParams(next, { replace: true });
    paged.update({});
  };

  const columns: Column<Appointment, 'start'>[] = [
    {
      id: 'patient',
      header: t('appointments.columns.patient'),
      cell: (appointment) => (
        <TwoLineCell
          title={
            <Anchor
              component={Link}
              to={areaPath(session.area, `patients/${appointment.patient.id}`)}
              fw={600}
              fz="sm"
            >
              {appointment.patient.fullName}
            </Anchor>
          }
          detail={
            <Text span fz="xs" c="dimmed" ff="monospace">
              {appointment.patient.patientCode}
            </Text>
          }
        />
      ),
    },
    { id: 'doctor', header: t('appointments.columns.doctor'), cell: (appointment) => appointment.doctor.fullName },
    {
      id: 'time',
      header: t('appointments.columns.time'),
      sortField: 'start',
      isNoWrap: true,
      cell: (appointment) => (
        <Stack gap={2} align="flex-start">
          <Text fz="sm">{appointmentTime(appointment)}</Text>
          <StartDistanceBadge appointment={appointment} now={now} />
        </Stack>
      ),
    },
    {
      id: 'place',
      header: t('appointments.columns.place'),
      cell: (appointment) => t(`appointments.place.${appointment.place}`),
    },
    {
      id: 'paid',
      header: t('appointments.columns.paid'),
      isNoWrap: true,
      cell: (appointment) => <PaidBadge paid={appointment.paid} />,
    },
    {
      id: 'status',
      header: t('appointments.columns.status'),
      isNoWrap: true,
      cell: (appointment) => <AppointmentStatusBadge status={appointment.status} />,
    },
    {
      id: 'actions',
      header: t('common:actions.view'),
      isHeaderHidden: true,
      align: 'right',
      cell: (appointment) => (
        <Button component={Link} to={appointment.id} size="xs" variant="light">
          {t('common:actions.view')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1400}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('appointments.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('appointments.subtitle')}
          </Text>
        </Stack>
        <Group gap="sm">
          <Can permission="appointment.update">
            <Button
              component={Link}
              to={areaPath(session.area, 'check-in')}
              variant="default"
              leftSection={<CheckInIcon />}
            >
              {t('appointments.checkInDesk')}
            </Button>
          </Can>
          <Can permission="appointment.create">
            <Button component={Link} to="new" leftSection={<PlusIcon />}>
              {t('appointments.new')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group align="flex-end" gap="md">
        <Stack gap={4}>
          <Text fz="sm" fw={500} id="appointment-period-label">
            {t('appointments.period')}
          </Text>
          <SegmentedControl
            aria-labelledby="appointment-period-label"
            value={period}
            onChange={(value) => {
              setParam('period', value === 'today' ? null : value);
            }}
            data={PERIODS.map((value) => ({ value, label: t(`appointments.periods.${value}`) }))}
          />
        </Stack>
        <ValueFilter
          values={APPOINTMENT_STATUSES}
          labelOf={(value) => t(`appointments.status.${value}`)}
          value={status}
          onChange={(value) => {
            setParam('status', value);
          }}
          label={t('appointments.statusFilter')}
          placeholder={t('appointments.allStatuses')}
          width={210}
        />
        <ListSearchField
          list={paged}
          label={t('appointments.search')}
          placeholder={t('appointments.searchPlaceholder')}
          width={280}
        />
      </Group>
      <DataTable
        columns={columns}
        query={appointments}
        list={paged}
        label={t('appointments.tableLabel')}
        testId="appointments-table"
        rowTestId="appointment-row"
        isFiltered={debouncedSearch !== '' || status !== null}
        texts={{
          loadFailed: t('appointments.loadFailed'),
          emptyTitle: t('appointments.emptyTitle'),
          emptyHint: t('appointments.empty'),
          noMatchTitle: t('appointments.noMatchTitle'),
          noMatchHint: t('appointments.noMatch', { search: debouncedSearch }),
        }}
        minWidth={1000}
      />
    </Stack>
  );
}
