import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { TICKET_STATUSES, TICKET_TYPES } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { PlusIcon, SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { TicketStatusBadge } from './badges';
import { ticketListQuery, type TicketFilter } from './monitoring-api';
import { TicketCreateDialog } from './ticket-create-dialog';

const PAGE_SIZE = 20;

/** Ticket list (spec §2): filters type, status, KPI failed, "assigned to me"; paged, sortable. */
export function TicketsPage() {
  const { t } = useTranslation('monitoring');
  usePageTitle(t('tickets.list.title'));
  const session = useSession();
  const [isCreating, setCreating] = useState(false);
  const paged = usePagedList<TicketFilter['sortField'], Omit<TicketFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
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
        <TextInput
          label={t('tickets.list.searchLabel')}
          placeholder={t('tickets.list.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={260}
        />
        <Select
          label={t('tickets.list.typeFilter')}
          placeholder={t('tickets.list.allTypes')}
          data={TICKET_TYPES.map((type) => ({ value: type, label: t(`ticketType.${type}`) }))}
          value={filter.type}
          onChange={(value) => {
            update({ type: TICKET_TYPES.find((type) => type === value) ?? null });
          }}
          clearable
          w={170}
        />
        <Select
          label={t('tickets.list.statusFilter')}
          placeholder={t('tickets.list.allStatuses')}
          data={TICKET_STATUSES.map((status) => ({ value: status, label: t(`ticketStatus.${status}`) }))}
          value={filter.status}
          onChange={(value) => {
            update({ status: TICKET_STATUSES.find((status) => status === value) ?? null });
          }}
          clearable
          w={170}
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
      <PagedTableFrame
        query={tickets}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('tickets.list.loadError'),
          emptyTitle: t('tickets.list.empty'),
          noMatchTitle: t('tickets.list.noMatch'),
          noMatchHint: t('tickets.list.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('tickets.list.title')}
            data-testid="tickets-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('tickets.list.columns.number')}</Table.Th>
                <Table.Th>{t('tickets.list.columns.title')}</Table.Th>
                <SortHeader field="type" sort={filter} onSort={paged.sortBy}>
                  {t('tickets.list.columns.type')}
                </SortHeader>
                <SortHeader field="status" sort={filter} onSort={paged.sortBy}>
                  {t('tickets.list.columns.status')}
                </SortHeader>
                <Table.Th>{t('tickets.list.columns.assignee')}</Table.Th>
                <SortHeader field="kpiDue" sort={filter} onSort={paged.sortBy}>
                  {t('tickets.list.columns.kpi')}
                </SortHeader>
                <SortHeader field="created" sort={filter} onSort={paged.sortBy}>
                  {t('tickets.list.columns.created')}
                </SortHeader>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((row) => (
                <Table.Tr key={row.id} data-testid="ticket-row">
                  <Table.Td ff="monospace">#{row.number}</Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                  <Table.Td>{t(`ticketType.${row.type}`)}</Table.Td>
                  <Table.Td>
                    <TicketStatusBadge status={row.status} />
                  </Table.Td>
                  <Table.Td>{row.assignee?.fullName ?? t('sos.unassigned')}</Table.Td>
                  <Table.Td>
                    <Text fz="sm" c={row.kpiFailureReason === null ? undefined : 'red'}>
                      {row.kpiFailureReason === null
                        ? formatDateTime(row.kpiDueAt)
                        : t(`kpiReason.${row.kpiFailureReason}`)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
      <TicketCreateDialog
        opened={isCreating}
        onClose={() => {
          setCreating(false);
        }}
      />
    </Stack>
  );
}
