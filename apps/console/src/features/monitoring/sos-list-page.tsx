import { Anchor, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SOS_CASE_STATUSES, type SosCaseStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { PatientStatusBadge } from '../patients/patient-status-badge';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { KpiBadge, SosStatusBadge } from './badges';
import { sosCaseListQuery, type SosCaseFilter } from './monitoring-api';

const PAGE_SIZE = 20;

/**
 * SOS call list (spec §2): the SOS cases of the caller's centers, open ones first by default,
 * searchable by patient, filterable by status, sortable. Live updates invalidate its query keys.
 */
export function SosListPage() {
  const { t } = useTranslation('monitoring');
  usePageTitle(t('sos.list.title'));
  const paged = usePagedList<SosCaseFilter['sortField'], Omit<SosCaseFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
    sortField: 'opened',
    sortType: 'desc',
    status: null,
    open: true,
  });
  const { filter, update, debouncedSearch } = paged;
  const cases = useQuery(sosCaseListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered = debouncedSearch !== '' || filter.status !== null || filter.open;

  return (
    <Stack gap="lg" maw={1380}>
      <Title order={1} fz={26}>
        {t('sos.list.title')}
      </Title>
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('sos.list.searchLabel')}
          placeholder={t('sos.list.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={280}
        />
        <Select
          label={t('sos.list.statusFilter')}
          placeholder={t('sos.list.allStatuses')}
          data={SOS_CASE_STATUSES.map((status) => ({ value: status, label: t(`sosStatus.${status}`) }))}
          value={filter.status}
          onChange={(value) => {
            update({ status: SOS_CASE_STATUSES.find((status: SosCaseStatus) => status === value) ?? null });
          }}
          clearable
          w={170}
        />
        <Checkbox
          label={t('sos.list.openOnly')}
          checked={filter.open}
          onChange={(event) => {
            update({ open: event.currentTarget.checked });
          }}
          mb={8}
        />
      </Group>
      <PagedTableFrame
        query={cases}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('sos.list.loadError'),
          emptyTitle: t('sos.list.empty'),
          emptyHint: t('sos.list.emptyHint'),
          noMatchTitle: t('sos.list.noMatch'),
          noMatchHint: t('sos.list.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('sos.list.title')}
            data-testid="sos-table"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="patient" sort={filter} onSort={paged.sortBy}>
                  {t('sos.list.columns.patient')}
                </SortHeader>
                <Table.Th>{t('sos.list.columns.center')}</Table.Th>
                <Table.Th>{t('sos.list.columns.reason')}</Table.Th>
                <SortHeader field="status" sort={filter} onSort={paged.sortBy}>
                  {t('sos.list.columns.status')}
                </SortHeader>
                <SortHeader field="opened" sort={filter} onSort={paged.sortBy}>
                  {t('sos.list.columns.opened')}
                </SortHeader>
                <Table.Th>{t('sos.list.columns.assignee')}</Table.Th>
                <SortHeader field="kpiDue" sort={filter} onSort={paged.sortBy}>
                  {t('sos.list.columns.kpi')}
                </SortHeader>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((row) => (
                <Table.Tr key={row.id} data-testid="sos-row">
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={row.id}
                      fw={600}
                      aria-label={t('sos.list.open', { name: row.patient.fullName })}
                    >
                      {row.patient.fullName}
                    </Anchor>
                    <Group gap={6}>
                      <Text fz="xs" c="dimmed" ff="monospace">
                        {row.patient.patientCode}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {row.patient.phone ?? ''}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{row.healthCenter?.name ?? ''}</Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <Text fz="sm">{t(`alertType.${row.reason}`, { defaultValue: row.reason })}</Text>
                      <Text fz="xs" c="dimmed">
                        {t(`source.${row.source}`)}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      <SosStatusBadge status={row.status} />
                      <PatientStatusBadge status={row.patient.status} />
                    </Group>
                  </Table.Td>
                  <Table.Td>{formatDateTime(row.openedAt)}</Table.Td>
                  <Table.Td>{row.assignee?.fullName ?? t('sos.unassigned')}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      <Text fz="sm">{formatDateTime(row.kpiDueAt)}</Text>
                      <KpiBadge failed={row.kpiFailed} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
    </Stack>
  );
}
