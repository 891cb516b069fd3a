import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PRESCRIPTION_STATES, type PrescriptionState, type PrescriptionSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, toDisplayDate } from '../../lib/format';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { PlusIcon } from '../shell/icons';
import type { usePagedList } from '../shell/paged-list';
import { Can } from '../shell/permissions';
import { PrescriptionStateBadge } from './care-plan-badges';
import { prescriptionListQuery, type PrescriptionFilter, type PrescriptionSortField } from './care-plan-api';

export type PrescriptionListState = ReturnType<
  typeof usePagedList<PrescriptionSortField, PrescriptionListFilter>
>;
export type PrescriptionListFilter = Omit<PrescriptionFilter, 'search'>;

export const INITIAL_PRESCRIPTION_FILTER: PrescriptionListFilter = {
  page: 0,
  size: 10,
  state: null,
  sortField: 'start',
  sortType: 'desc',
};

/**
 * A patient's prescriptions (spec §2): searched by name or RX number, filtered by state, sorted by
 * name, start or when written, newest start first; each opens its detail.
 */
export function PrescriptionList({
  patientId,
  list,
  onOpen,
  onNew,
}: {
  patientId: string;
  list: PrescriptionListState;
  onOpen: (id: string) => void;
  onNew: () => void;
}) {
  const { t } = useTranslation('carePlan');
  const { filter, debouncedSearch } = list;
  const prescriptions = useQuery(prescriptionListQuery(patientId, { ...filter, search: debouncedSearch }));
  const columns: Column<PrescriptionSummary, PrescriptionSortField>[] = [
    {
      id: 'name',
      header: t('list.columns.name'),
      sortField: 'name',
      cell: (row) => (
        <Stack gap={0} align="flex-start">
          <Anchor
            component="button"
            type="button"
            fw={600}
            fz="sm"
            ta="left"
            onClick={() => {
              onOpen(row.id);
            }}
            aria-label={t('list.open', { name: row.name })}
            data-testid="prescription-name"
          >
            {row.name}
          </Anchor>
          <Text fz="xs" c="dimmed" ff={row.rxNumber === null ? undefined : 'monospace'}>
            {row.rxNumber === null ? t('list.noRx') : t('list.rx', { number: row.rxNumber })}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'state',
      header: t('list.columns.state'),
      isNoWrap: true,
      cell: (row) => <PrescriptionStateBadge state={row.state} />,
    },
    {
      id: 'period',
      header: t('list.columns.period'),
      sortField: 'start',
      isNoWrap: true,
      cell: (row) => (
        <Stack gap={0}>
          <Text fz="sm">
            {t('list.period', { start: toDisplayDate(row.startDate), end: toDisplayDate(row.endDate) })}
          </Text>
          <Text fz="xs" c="dimmed">
            {t('list.days', { count: row.totalDays })}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'doctor',
      header: t('list.columns.doctor'),
      cell: (row) => <Text fz="sm">{row.doctorInCharge.fullName}</Text>,
    },
    {
      id: 'medicines',
      header: t('list.columns.medicines'),
      isNoWrap: true,
      cell: (row) => <Text fz="sm">{t('list.medicineCount', { count: row.medicineCount })}</Text>,
    },
    {
      id: 'created',
      header: t('list.columns.created'),
      sortField: 'created',
      isNoWrap: true,
      cell: (row) => <Text fz="sm">{formatDate(row.createdAt)}</Text>,
    },
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2} maw={760}>
          <Title order={2} fz="lg">
            {t('title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('subtitle')}
          </Text>
        </Stack>
        <Can permission="health.prescribe">
          <Button leftSection={<PlusIcon />} onClick={onNew}>
            {t('list.new')}
          </Button>
        </Can>
      </Group>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={list}
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          width={280}
        />
        <ValueFilter<PrescriptionState>
          values={PRESCRIPTION_STATES}
          labelOf={(state) => t(`state.${state}`)}
          value={filter.state}
          onChange={(state) => {
            list.update({ state });
          }}
          label={t('list.state')}
          placeholder={t('list.allStates')}
          width={200}
        />
      </Group>
      <DataTable
        columns={columns}
        query={prescriptions}
        list={list}
        label={t('list.caption')}
        testId="prescriptions-table"
        rowTestId="prescription-row"
        isFiltered={debouncedSearch.trim() !== '' || filter.state !== null}
        minWidth={860}
        texts={{
          loadFailed: t('list.loadFailed'),
          emptyTitle: t('list.empty'),
          emptyHint: t('list.emptyHint'),
          noMatchTitle: t('list.noMatch'),
          noMatchHint: t('list.noMatchHint'),
        }}
      />
    </Stack>
  );
}
