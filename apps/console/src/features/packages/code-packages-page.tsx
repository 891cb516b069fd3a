import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CodePackage } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatNumber } from '../../lib/format';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { CodeCountsText, dayText } from './code-package-parts';
import { CodePackageDialog } from './code-package-dialog';
import { codePackageListQuery, type CodePackageFilter, type CodePackageSortField } from './code-packages-api';

/**
 * Code packages (spec §2 code package management): batches of scratch-card codes, paged, searched
 * (name, organisation, prefix) and sorted by the server, each with its codes counted per state;
 * holders of transaction.manage generate a new batch in a dialog.
 */
export function CodePackagesPage() {
  const { t } = useTranslation('packages');
  usePageTitle(t('codes.title'));
  const { can } = usePermissions();
  const [isCreating, setCreating] = useState(false);
  const paged = usePagedList<CodePackageSortField, Omit<CodePackageFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'created',
    sortType: 'desc',
  });
  const { debouncedSearch } = paged;
  const batches = useQuery(codePackageListQuery({ ...paged.filter, search: debouncedSearch }));

  const columns: Column<CodePackage, CodePackageSortField>[] = [
    {
      id: 'name',
      header: t('codes.columns.name'),
      sortField: 'name',
      cell: (item) => (
        <Stack gap={0}>
          <Anchor component={Link} to={item.id} fz="sm" fw={600}>
            {item.name}
          </Anchor>
          <Text fz="xs" c="dimmed" ff="monospace">
            {item.prefix}
          </Text>
        </Stack>
      ),
    },
    { id: 'type', header: t('codes.columns.type'), isNoWrap: true, cell: (item) => t(`kind.${item.type}`) },
    { id: 'package', header: t('codes.columns.package'), cell: (item) => item.package.name },
    { id: 'organization', header: t('codes.columns.organization'), cell: (item) => item.recipientOrganization },
    {
      id: 'codes',
      header: t('codes.columns.codes'),
      cell: (item) => (
        <Stack gap={0}>
          <Text fz="sm" fw={600}>
            {formatNumber(item.totalCodes)}
          </Text>
          <CodeCountsText counts={item.counts} />
        </Stack>
      ),
    },
    {
      id: 'expires',
      header: t('codes.columns.availability'),
      sortField: 'expires',
      isNoWrap: true,
      cell: (item) => t('codes.period', { from: dayText(item.availableFrom), to: dayText(item.expiresOn) }),
    },
    {
      id: 'created',
      header: t('codes.columns.created'),
      sortField: 'created',
      isNoWrap: true,
      visibleFrom: 'lg',
      cell: (item) => formatDate(item.createdAt),
    },
  ];

  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('codes.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('codes.subtitle')}
          </Text>
        </Stack>
        {can('transaction.manage') ? (
          <Button
            onClick={() => {
              setCreating(true);
            }}
          >
            {t('codes.actions.create')}
          </Button>
        ) : null}
      </Group>
      <Group gap="sm" align="flex-end">
        <ListSearchField list={paged} label={t('codes.search')} placeholder={t('codes.searchPlaceholder')} width={320} />
      </Group>
      <DataTable
        columns={columns}
        query={batches}
        list={paged}
        label={t('codes.title')}
        testId="code-packages-table"
        isFiltered={debouncedSearch !== ''}
        texts={{
          loadFailed: t('codes.list.loadFailed'),
          emptyTitle: t('codes.list.emptyTitle'),
          emptyHint: t('codes.list.emptyHint'),
          noMatchTitle: t('codes.list.noMatchTitle'),
          noMatchHint: t('codes.list.noMatchHint'),
        }}
      />
      {isCreating ? (
        <CodePackageDialog
          opened
          onClose={() => {
            setCreating(false);
          }}
        />
      ) : null}
    </Stack>
  );
}
