import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CdrFile } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber, toDisplayDate } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import type { PageState } from '../shell/paged-list';
import { cdrListQuery, downloadCdrFile } from './transactions-api';

type CdrSortField = 'day';

/** Downloads one file; the button spins meanwhile and a failure is said in a toast. */
function DownloadButton({ file }: { file: CdrFile }) {
  const { t } = useTranslation('payments');
  const [isDownloading, setDownloading] = useState(false);
  return (
    <Button
      size="xs"
      variant="default"
      loading={isDownloading}
      aria-label={t('transactions.cdr.downloadLabel', { file: file.fileName })}
      onClick={() => {
        setDownloading(true);
        downloadCdrFile(file.id, file.fileName)
          .catch((error: unknown) => {
            notifyError(error, 'payments:transactions.cdr.failed');
          })
          .finally(() => {
            setDownloading(false);
          });
      }}
    >
      {t('transactions.cdr.download')}
    </Button>
  );
}

/**
 * The daily CDR files (spec §2 "order history with export (CDR and Excel)", §9 "daily at 12 AM"),
 * newest day first, each downloaded as the CSV the server wrote.
 */
export function CdrTab() {
  const { t } = useTranslation('payments');
  const [filter, setFilter] = useState<PageState<CdrSortField>>({
    page: 0,
    size: 20,
    sortField: 'day',
    sortType: 'desc',
  });
  const files = useQuery(cdrListQuery({ page: filter.page, size: filter.size }));
  const columns: Column<CdrFile, CdrSortField>[] = [
    {
      id: 'day',
      header: t('transactions.cdr.columns.day'),
      isNoWrap: true,
      cell: (file) => toDisplayDate(file.day),
    },
    {
      id: 'file',
      header: t('transactions.cdr.columns.file'),
      isMonospace: true,
      cell: (file) => file.fileName,
    },
    {
      id: 'rows',
      header: t('transactions.cdr.columns.rows'),
      align: 'right',
      cell: (file) => formatNumber(file.rows),
    },
    {
      id: 'created',
      header: t('transactions.cdr.columns.created'),
      isNoWrap: true,
      cell: (file) => formatDateTime(file.createdAt),
    },
    {
      id: 'actions',
      header: t('transactions.cdr.columns.actions'),
      isHeaderHidden: true,
      cell: (file) => <DownloadButton file={file} />,
    },
  ];
  return (
    <Stack gap="md">
      <Text c="dimmed" fz="sm">
        {t('transactions.cdr.intro')}
      </Text>
      <DataTable
        columns={columns}
        query={files}
        list={{
          filter,
          setPage: (page) => {
            setFilter((current) => ({ ...current, page }));
          },
          sortBy: () => undefined,
        }}
        label={t('transactions.tabs.cdr')}
        testId="cdr-table"
        rowTestId="cdr-row"
        isFiltered={false}
        texts={{
          loadFailed: t('transactions.cdr.list.loadFailed'),
          emptyTitle: t('transactions.cdr.list.emptyTitle'),
          emptyHint: t('transactions.cdr.list.emptyHint'),
          noMatchTitle: t('transactions.cdr.list.emptyTitle'),
        }}
      />
    </Stack>
  );
}
