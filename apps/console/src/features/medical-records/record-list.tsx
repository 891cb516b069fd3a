import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MEDICAL_RECORD_TYPES, type MedicalRecord, type MedicalRecordType } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber, toDisplayDate } from '../../lib/format';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { PlusIcon } from '../shell/icons';
import type { usePagedList } from '../shell/paged-list';
import { Can } from '../shell/permissions';
import {
  medicalRecordListQuery,
  type MedicalRecordFilter,
  type MedicalRecordSortField,
} from './medical-records-api';
import { RecordTypeBadge } from './record-type-badge';

export type RecordListFilter = Omit<MedicalRecordFilter, 'search'>;
export type RecordListState = ReturnType<typeof usePagedList<MedicalRecordSortField, RecordListFilter>>;

export const INITIAL_RECORD_FILTER: RecordListFilter = {
  page: 0,
  size: 10,
  type: null,
  sortField: 'examinationDate',
  sortType: 'desc',
};

/**
 * A patient's medical records (spec §2): searched by title, place or doctor, filtered by type,
 * sorted by examination date (newest first), title or when added; each opens its detail.
 */
export function RecordList({
  patientId,
  list,
  onOpen,
  onNew,
}: {
  patientId: string;
  list: RecordListState;
  onOpen: (id: string) => void;
  onNew: () => void;
}) {
  const { t } = useTranslation('patients');
  const { t: tc } = useTranslation();
  const { filter, debouncedSearch } = list;
  const records = useQuery(medicalRecordListQuery(patientId, { ...filter, search: debouncedSearch }));
  const none = t('profile.none');
  const columns: Column<MedicalRecord, MedicalRecordSortField>[] = [
    {
      id: 'title',
      header: t('records.fields.title'),
      sortField: 'title',
      cell: (row) => (
        <Anchor
          component="button"
          type="button"
          fw={600}
          fz="sm"
          ta="left"
          onClick={() => {
            onOpen(row.id);
          }}
          data-testid="record-title"
        >
          {row.title}
        </Anchor>
      ),
    },
    {
      id: 'type',
      header: t('records.fields.type'),
      isNoWrap: true,
      cell: (row) => <RecordTypeBadge type={row.type} />,
    },
    {
      id: 'examinationDate',
      header: t('records.fields.examinationDate'),
      sortField: 'examinationDate',
      isNoWrap: true,
      cell: (row) => <Text fz="sm">{toDisplayDate(row.examinationDate)}</Text>,
    },
    {
      id: 'place',
      header: t('records.fields.place'),
      cell: (row) => (
        <Text fz="sm" c={row.place === null ? 'dimmed' : undefined}>
          {row.place ?? none}
        </Text>
      ),
    },
    {
      id: 'doctor',
      header: t('records.fields.doctor'),
      cell: (row) => (
        <Text fz="sm" c={row.doctor === null ? 'dimmed' : undefined}>
          {row.doctor ?? none}
        </Text>
      ),
    },
    {
      id: 'files',
      header: t('records.fields.files'),
      isNoWrap: true,
      cell: (row) => (
        <Text fz="sm" data-testid="record-file-count">
          {formatNumber(row.files.length)}
        </Text>
      ),
    },
    {
      id: 'created',
      header: t('records.fields.addedBy'),
      sortField: 'created',
      isNoWrap: true,
      cell: (row) => (
        <Stack gap={0}>
          <Text fz="sm">{row.createdBy?.fullName ?? none}</Text>
          <Text fz="xs" c="dimmed">
            {formatDate(row.createdAt)}
          </Text>
        </Stack>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Title order={2} fz="lg">
          {t('records.title')}
        </Title>
        <Can permission="user.update">
          <Button leftSection={<PlusIcon />} onClick={onNew}>
            {t('records.list.new')}
          </Button>
        </Can>
      </Group>
      <Group gap="sm" align="flex-end">
        <ListSearchField list={list} label={t('records.list.search')} placeholder="" width={300} />
        <ValueFilter<MedicalRecordType>
          values={MEDICAL_RECORD_TYPES}
          labelOf={(type) => t(`records.type.${type}`)}
          value={filter.type}
          onChange={(type) => {
            list.update({ type });
          }}
          label={t('records.fields.type')}
          placeholder=""
          width={220}
        />
      </Group>
      <DataTable
        columns={columns}
        query={records}
        list={list}
        label={t('records.title')}
        testId="records-table"
        rowTestId="record-row"
        isFiltered={debouncedSearch.trim() !== '' || filter.type !== null}
        minWidth={900}
        texts={{
          loadFailed: tc('states.loadFailed'),
          emptyTitle: t('records.list.empty'),
          noMatchTitle: tc('levels.noMatch'),
        }}
      />
    </Stack>
  );
}
