import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { TICKET_STATUSES, TICKET_TYPES, type TicketSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { PlusIcon } from '../shell/icons';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { TicketStatusBadge } from './badges';
import { ticketListQuery, type TicketFilter } from './monitoring-api';
import { TicketCreateDialog } from './ticket-create-dialog';

/** Ticket list (spec §2): filters type, status, KPI failed, "assigned to me"; paged, sortable. */
export function TicketsPage() {
  const { t } = useTranslation('monitoring');
  usePageTitle(t('tickets.list.title'));
  const session = useSession();
  const [isCreating, setCreating] = useState(false);
  const paged = usePagedList<TicketFilter['sortField'], Omit<TicketFilter, 'search'>>({
    page: 0,
    size: 20,
    sortField: 'created',
    sortType: 'desc',
    type: null,
    status: null,
    kpiFailed: null,
    mine: false,
  });
  const { filter, update, debouncedSearch } = paged;
  const tickets = useQuery(ticketListQuery({ ...filter, search: debouncedSearch }, session.user.userId));
  const isFiltered =
    debouncedSearch !== '' ||
    filter.type !== null ||
    filter.status !== null ||
    filter.kpiFailed !== null ||
    filter.mine;
  const columns: Column<TicketSummary, TicketFilter['sortField']>[] = [
    {
      id: 'number',
      header: t('tickets.list.columns.number'),
      isMonospace: true,
      cell: (row) => `#${row.number}`,
    },
    {
      id: 'title',
      header: t('tickets.list.columns.title'),
      cell: (row) => (
        <>
          <Anchor
            component={Link}
            to={row.id}
            fw={600}
            aria-label={`${row.title} · ${t('tickets.list.open', { number: row.number })}`}
          >
            {row.title}
          </Anchor>
          <Text fz="xs" c="dimmed">
            {row.patient.fullName} · {row.patient.patientCode}
          </Text>
        </>
      ),
    },
    {
      id: 'type',
      header: t('tickets.list.columns.type'),
      sortField: 'type',
      cell: (row) => t(`ticketType.${row.type}`),
    },
    {
      id: 'status',
      header: t('tickets.list.columns.status'),
      sortField: 'status',
      cell: (row) => <TicketStatusBadge status={row.status} />,
    },
    {
      id: 'assignee',
      header: t('tickets.list.columns.assignee'),
      cell: (row) => row.assignee?.fullName ?? t('sos.unassigned'),
    },
    {
      id: 'kpi',
      header: t('tickets.list.columns.kpi'),
      sortField: 'kpiDue',
      cell: (row) => (
        <Text fz="sm" c={row.kpiFailureReason === null ? undefined : 'red'}>
          {row.kpiFailureReason === null
            ? formatDateTime(row.kpiDueAt)
            : t(`kpiReason.${row.kpiFailureReason}`)}
        </Text>
      ),
    },
    {
      id: 'created',
      header: t('tickets.list.columns.created'),
      sortField: 'created',
      cell: (row) => formatDateTime(row.createdAt),
    },
  ];

  return (
    <Stack gap="lg" maw={1380}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz={26}>
          {t('tickets.list.title')}
        </Title>
        <Group gap="sm">
          <Button component={Link} to="statistics" variant="default">
            {t('tickets.list.statistics')}
          </Button>
          <Button
            leftSection={<PlusIcon />}
            onClick={() => {
              setCreating(true);
            }}
          >
            {t('tickets.list.new')}
          </Button>
        </Group>
      </Group>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('tickets.list.searchLabel')}
          placeholder={t('tickets.list.searchPlaceholder')}
          width={260}
        />
        <ValueFilter
          values={TICKET_TYPES}
          labelOf={(type) => t(`ticketType.${type}`)}
          value={filter.type}
          onChange={(type) => {
            update({ type });
          }}
          label={t('tickets.list.typeFilter')}
          placeholder={t('tickets.list.allTypes')}
          width={170}
        />
        <ValueFilter
          values={TICKET_STATUSES}
          labelOf={(status) => t(`ticketStatus.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('tickets.list.statusFilter')}
          placeholder={t('tickets.list.allStatuses')}
          width={170}
        />
        <Select
          label={t('tickets.list.kpiFilter')}
          placeholder={t('tickets.list.kpiAll')}
          data={[
            { value: 'true', label: t('tickets.list.kpiFailed') },
            { value: 'false', label: t('tickets.list.kpiOnTime') },
          ]}
          value={filter.kpiFailed === null ? null : String(filter.kpiFailed)}
          onChange={(value) => {
            update({ kpiFailed: value === null ? null : value === 'true' });
          }}
          clearable
          w={170}
        />
        <Checkbox
          label={t('tickets.list.mine')}
          checked={filter.mine}
          onChange={(event) => {
            update({ mine: event.currentTarget.checked });
          }}
          mb={8}
        />
      </Group>
      <DataTable
        columns={columns}
        query={tickets}
        list={paged}
        label={t('tickets.list.title')}
        testId="tickets-table"
        rowTestId="ticket-row"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('tickets.list.loadError'),
          emptyTitle: t('tickets.list.empty'),
          noMatchTitle: t('tickets.list.noMatch'),
          noMatchHint: t('tickets.list.noMatchHint'),
        }}
      />
      <TicketCreateDialog
        opened={isCreating}
        onClose={() => {
          setCreating(false);
        }}
      />
    </Stack>
  );
}
