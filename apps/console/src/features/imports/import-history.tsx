import { Badge, Button, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ImportKindCode } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../lib/format';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import { downloadErrorFile } from './import-panel';
import { IMPORT_STATUS_COLORS } from './import-status';
import { importHistoryQuery, type ImportFilter, type ImportSortField } from './imports-api';

const PAGE_SIZE = 10;

/** The imports of one kind, newest first: paged, searchable by file name, sortable. */
export function ImportHistory({ kind }: { kind: ImportKindCode }) {
  const { t } = useTranslation('imports');
  const paged = usePagedList<ImportSortField, Omit<ImportFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
    sortField: 'created',
    sortType: 'desc',
    kind,
  });
  const { filter, debouncedSearch } = paged;
  const history = useQuery(importHistoryQuery({ ...filter, search: debouncedSearch }));

  return (
    <Stack gap="md">
      <Title order={2} fz="lg">
        {t('history.title')}
      </Title>
      <TextInput
        label={t('history.search')}
        placeholder={t('history.searchPlaceholder')}
        leftSection={<SearchIcon />}
        value={paged.search}
        onChange={(event) => {
          paged.setSearch(event.currentTarget.value);
        }}
        w={300}
      />
      <PagedTableFrame
        query={history}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={debouncedSearch !== ''}
        texts={{
          loadFailed: t('history.loadFailed'),
          emptyTitle: t('history.emptyTitle'),
          emptyHint: t('history.emptyHint'),
          noMatchTitle: t('history.noMatchTitle'),
          noMatchHint: t('history.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('history.title')}
            data-testid="import-history"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="fileName" sort={filter} onSort={paged.sortBy}>
                  {t('history.fileName')}
                </SortHeader>
                <SortHeader field="status" sort={filter} onSort={paged.sortBy}>
                  {t('history.status')}
                </SortHeader>
                <SortHeader field="created" sort={filter} onSort={paged.sortBy}>
                  {t('history.created')}
                </SortHeader>
                <Table.Th>{t('history.by')}</Table.Th>
                <Table.Th>{t('history.counts')}</Table.Th>
                <Table.Th>{t('history.errorFile')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((job) => (
                <Table.Tr key={job.id}>
                  <Table.Td>
                    <Text fz="sm" fw={600}>
                      {job.fileName}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={IMPORT_STATUS_COLORS[job.status]} variant="light">
                      {t(`status.${job.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(job.createdAt)}</Table.Td>
                  <Table.Td>{job.createdBy?.fullName ?? t('history.none')}</Table.Td>
                  <Table.Td>
                    {formatNumber(job.rowsStored)} / {formatNumber(job.rowsFailed)}
                  </Table.Td>
                  <Table.Td>
                    {job.hasErrorFile ? (
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
                    )}
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
