import { Badge, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ImportJob, ImportKindCode } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../lib/format';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { downloadErrorFile } from './import-panel';
import { IMPORT_STATUS_COLORS } from './import-status';
import { importHistoryQuery, type ImportFilter, type ImportSortField } from './imports-api';

/** The imports of one kind, newest first: paged, searchable by file name, sortable. */
export function ImportHistory({ kind }: { kind: ImportKindCode }) {
  const { t } = useTranslation('imports');
  const paged = usePagedList<ImportSortField, Omit<ImportFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'created',
    sortType: 'desc',
    kind,
  });
  const { filter, debouncedSearch } = paged;
  const history = useQuery(importHistoryQuery({ ...filter, search: debouncedSearch }));
  const columns: Column<ImportJob, ImportSortField>[] = [
    {
      id: 'fileName',
      header: t('history.fileName'),
      sortField: 'fileName',
      cell: (job) => (
        <Text fz="sm" fw={600}>
          {job.fileName}
        </Text>
      ),
    },
    {
      id: 'status',
      header: t('history.status'),
      sortField: 'status',
      cell: (job) => (
        <Badge color={IMPORT_STATUS_COLORS[job.status]} variant="light">
          {t(`status.${job.status}`)}
        </Badge>
      ),
    },
    {
      id: 'created',
      header: t('history.created'),
      sortField: 'created',
      cell: (job) => formatDateTime(job.createdAt),
    },
    { id: 'by', header: t('history.by'), cell: (job) => job.createdBy?.fullName ?? t('history.none') },
    {
      id: 'counts',
      header: t('history.counts'),
      cell: (job) => `${formatNumber(job.rowsStored)} / ${formatNumber(job.rowsFailed)}`,
    },
    {
      id: 'errorFile',
      header: t('history.errorFile'),
      cell: (job) =>
        job.hasErrorFile ? (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-label={t('history.downloadFor', { name: job.fileName })}
            onClick={() => {
              downloadErrorFile(job);
            }}
          >
            {t('history.download')}
          </Button>
        ) : (
          t('history.none')
        ),
    },
  ];

  return (
    <Stack gap="md">
      <Title order={2} fz="lg">
        {t('history.title')}
      </Title>
      <ListSearchField
        list={paged}
        label={t('history.search')}
        placeholder={t('history.searchPlaceholder')}
        width={300}
      />
      <DataTable
        columns={columns}
        query={history}
        list={paged}
        label={t('history.title')}
        testId="import-history"
        isFiltered={debouncedSearch !== ''}
        texts={{
          loadFailed: t('history.loadFailed'),
          emptyTitle: t('history.emptyTitle'),
          emptyHint: t('history.emptyHint'),
          noMatchTitle: t('history.noMatchTitle'),
          noMatchHint: t('history.noMatchHint'),
        }}
      />
    </Stack>
  );
}
