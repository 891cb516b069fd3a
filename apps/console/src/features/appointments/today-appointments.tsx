import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { displayTimeZone } from '../../lib/format';
import { areaPath } from '../shell/navigation';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { AppointmentStatusBadge, appointmentTime, StartDistanceBadge, useNow } from './appointment-badges';
import { appointmentListQuery } from './appointments-api';
import { periodRange } from './appointment-time';

/** At most this many of the day's appointments on the home; the list page has them all. */
const SHOWN = 30;

/**
 * Today's appointments on the triage home (a doctor's own; an operator's, its center's), soonest
 * first, with their state and how far each is from its start (overdue ones stand out), refreshed
 * every minute and live when an appointment changes. Online ones open their video room.
 */
export function TodayAppointments() {
  const { t } = useTranslation('schedules');
  const session = useSession();
  const now = useNow();
  const range = periodRange('today', displayTimeZone(), now);
  const list = useQuery({
    ...appointmentListQuery({
      page: 0,
      size: SHOWN,
      search: '',
      status: null,
      from: range.from,
      to: range.to,
      sortField: 'start',
      sortType: 'asc',
    }),
    refetchInterval: 60_000,
  });
  const isOwnDoctor = session.user.role === 'DOCTOR';
  return (
    <Paper withBorder radius="md" p="lg" data-testid="today-appointments">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={2} fz={20}>
              {t('today.title')}
            </Title>
            <Text c="dimmed" fz="sm">
              {isOwnDoctor ? t('today.subtitleDoctor') : t('today.subtitle')}
            </Text>
          </Stack>
          <Anchor component={Link} to={areaPath(session.area, 'appointments?period=today')} fz="sm">
            {t('today.all')}
          </Anchor>
        </Group>
        {list.isPending ? <LoadingState /> : null}
        {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
        {list.isSuccess && list.data.items.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('today.empty')}
          </Text>
        ) : null}
        {list.isSuccess && list.data.items.length > 0 ? (
          <Table verticalSpacing="xs" aria-label={t('today.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('appointments.columns.time')}</Table.Th>
                <Table.Th>{t('appointments.columns.patient')}</Table.Th>
                {isOwnDoctor ? null : <Table.Th>{t('appointments.columns.doctor')}</Table.Th>}
                <Table.Th>{t('appointments.columns.place')}</Table.Th>
                <Table.Th>{t('appointments.columns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((appointment) => (
                <Table.Tr key={appointment.id} data-testid="today-appointment">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{appointmentTime(appointment)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={areaPath(session.area, `appointments/${appointment.id}`)} fz="sm">
                      {appointment.patient.fullName}
                    </Anchor>
                  </Table.Td>
                  {isOwnDoctor ? null : <Table.Td>{appointment.doctor.fullName}</Table.Td>}
                  <Table.Td>
                    {appointment.place === 'ONLINE' && appointment.doctor.id === session.user.userId ? (
                      <Anchor
                        component={Link}
                        to={areaPath(session.area, `appointments/${appointment.id}/video`)}
                        fz="sm"
                      >
                        {t('appointments.place.ONLINE')}
                      </Anchor>
                    ) : (
                      t(`appointments.place.${appointment.place}`)
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <AppointmentStatusBadge status={appointment.status} />
                      <StartDistanceBadge appointment={appointment} now={now} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        {list.isSuccess && list.data.total > SHOWN ? (
          <Badge variant="light" color="gray" tt="none">
            {t('today.more', { count: list.data.total - SHOWN })}
          </Badge>
        ) : null}
      </Stack>
    </Paper>
  );
}
