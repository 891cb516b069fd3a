import { Anchor, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SOS_CASE_STATUSES, type SosCaseSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { PatientStatusBadge } from '../patients/patient-status-badge';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { KpiBadge, SosStatusBadge } from './badges';
import { sosCaseListQuery, type SosCaseFilter } from './monitoring-api';

/**
 * SOS call list (spec §2): the SOS cases of the caller's centers, open ones first by default,
 * searchable by patient, filterable by status, sortable. Live updates invalidate its query keys.
 */
export function SosListPage() {
  const { t } = useTranslation('monitoring');
  usePageTitle(t('sos.list.title'));
  const paged = usePagedList<SosCaseFilter['sortField'], Omit<SosCaseFilter, 'search'>>({
    page: 0,
    size: 20,
    sortField: 'opened',
    sortType: 'desc',
    status: null,
    open: true,
  });
  const { filter, update, debouncedSearch } = paged;
  const cases = useQuery(sosCaseListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered = debouncedSearch !== '' || filter.status !== null || filter.open;
  const columns: Column<SosCaseSummary, SosCaseFilter['sortField']>[] = [
    {
      id: 'patient',
      header: t('sos.list.columns.patient'),
      sortField: 'patient',
      cell: (row) => (
        <>
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
        </>
      ),
    },
    { id: 'center', header: t('sos.list.columns.center'), cell: (row) => row.healthCenter?.name ?? '' },
    {
      id: 'reason',
      header: t('sos.list.columns.reason'),
      cell: (row) => (
        <Stack gap={2}>
          <Text fz="sm">{t(`alertType.${row.reason}`, { defaultValue: row.reason })}</Text>
          <Text fz="xs" c="dimmed">
            {t(`source.${row.source}`)}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'status',
      header: t('sos.list.columns.status'),
      sortField: 'status',
      cell: (row) => (
        <Group gap={6}>
          <SosStatusBadge status={row.status} />
          <PatientStatusBadge status={row.patient.status} />
        </Group>
      ),
    },
    {
      id: 'opened',
      header: t('sos.list.columns.opened'),
      sortField: 'opened',
      cell: (row) => formatDateTime(row.openedAt),
    },
    {
      id: 'assignee',
      header: t('sos.list.columns.assignee'),
      cell: (row) => row.assignee?.fullName ?? t('sos.unassigned'),
    },
    {
      id: 'kpi',
      header: t('sos.list.columns.kpi'),
      sortField: 'kpiDue',
      cell: (row) => (
        <Group gap={6}>
          <Text fz="sm">{formatDateTime(row.kpiDueAt)}</Text>
          <KpiBadge failed={row.kpiFailed} />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1380}>
      <Title order={1} fz={26}>
        {t('sos.list.title')}
      </Title>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('sos.list.searchLabel')}
          placeholder={t('sos.list.searchPlaceholder')}
          width={280}
        />
        <ValueFilter
          values={SOS_CASE_STATUSES}
          labelOf={(status) => t(`sosStatus.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('sos.list.statusFilter')}
          placeholder={t('sos.list.allStatuses')}
          width={170}
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
      <DataTable
        columns={columns}
        query={cases}
        list={paged}
        label={t('sos.list.title')}
        testId="sos-table"
        rowTestId="sos-row"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('sos.list.loadError'),
          emptyTitle: t('sos.list.empty'),
          emptyHint: t('sos.list.emptyHint'),
          noMatchTitle: t('sos.list.noMatch'),
          noMatchHint: t('sos.list.noMatchHint'),
        }}
      />
    </Stack>
  );
}
