import { useState, type ReactNode } from 'react';
import { Anchor, Button, Paper, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { PlusIcon, SearchIcon } from '../shell/icons';
import { Can } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { ConnectionTypeBadge, CountValue, TenantStatusBadge } from './tenant-badges';
import { SortIcon } from './tenant-icons';
import { tenantListQuery, type SortOrder, type TenantSort } from './tenants-api';

const PAGE_SIZE = 20;

/** A column header that sorts the list; aria-sort tells screen readers the current order. */
function SortableHeader({
  column,
  sort,
  order,
  onSort,
  children,
}: {
  column: TenantSort;
  sort: TenantSort;
  order: SortOrder;
  onSort: (column: TenantSort) => void;
  children: ReactNode;
}) {
  const isActive = column === sort;
  return (
    <Table.Th aria-sort={isActive ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={() => {
          onSort(column);
        }}
        fw={700}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {children}
        <SortIcon sorted={isActive ? order : null} />
      </UnstyledButton>
    </Table.Th>
  );
}

/** The tenants: searchable by name, official name or code, sortable by name or creation, paged. */
export function TenantsTable() {
  const { t } = useTranslation('tenants');
  const [search, setSearch] = useState('');
  // Ask the server once typing pauses, not on every key.
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<TenantSort>('name');
  const [order, setOrder] = useState<SortOrder>('asc');
  const tenants = useQuery(tenantListQuery({ page, size: PAGE_SIZE, search: debouncedSearch, sort, order }));

  const onSort = (column: TenantSort) => {
    // The same column again flips the order; a new column starts with its natural order.
    if (column === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setOrder(column === 'created' ? 'desc' : 'asc');
    }
    setPage(0);
  };

  return (
    <Stack gap="md">
      <TextInput
        label={t('list.search')}
        placeholder={t('list.searchPlaceholder')}
        leftSection={<SearchIcon />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        maw={360}
      />
      <Paper withBorder radius="md" p="md">
        {tenants.isPending ? <LoadingState /> : null}
        {tenants.isError ? (
          <ErrorState
            error={tenants.error}
            title={t('list.loadFailed')}
            onRetry={() => void tenants.refetch()}
          />
        ) : null}
        {tenants.isSuccess && tenants.data.items.length === 0 ? (
          <EmptyList
            title={debouncedSearch ? t('list.noMatchTitle') : t('list.emptyTitle')}
            description={debouncedSearch ? t('list.noMatch', { search: debouncedSearch }) : t('list.empty')}
            action={
              debouncedSearch ? null : (
                <Can permission="tenant.create">
                  <Button component={Link} to="new" leftSection={<PlusIcon />}>
                    {t('list.create')}
                  </Button>
                </Can>
              )
            }
          />
        ) : null}
        {tenants.isSuccess && tenants.data.items.length > 0 ? (
          <>
            <Table.ScrollContainer minWidth={980}>
              <Table
                highlightOnHover
                verticalSpacing="sm"
                aria-label={t('list.tableLabel')}
                data-testid="tenants-table"
              >
                <Table.Thead>
                  <Table.Tr>
                    <SortableHeader column="name" sort={sort} order={order} onSort={onSort}>
                      {t('list.name')}
                    </SortableHeader>
                    <Table.Th>{t('list.code')}</Table.Th>
                    <Table.Th>{t('list.status')}</Table.Th>
                    <Table.Th>{t('list.connection')}</Table.Th>
                    <Table.Th ta="right">{t('counts.healthCenters')}</Table.Th>
                    <Table.Th ta="right">{t('counts.admins')}</Table.Th>
                    <Table.Th ta="right">{t('counts.doctors')}</Table.Th>
                    <Table.Th ta="right">{t('counts.patients')}</Table.Th>
                    <SortableHeader column="created" sort={sort} order={order} onSort={onSort}>
                      {t('list.created')}
                    </SortableHeader>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody style={{ opacity: tenants.isPlaceholderData ? 0.6 : 1 }}>
                  {tenants.data.items.map((tenant) => (
                    <Table.Tr key={tenant.id}>
                      <Table.Td>
                        <Anchor component={Link} to={tenant.id} fw={600}>
                          {tenant.name}
                        </Anchor>
                        {tenant.officialName ? (
                          <Text fz="xs" c="dimmed" lineClamp={1} maw={320}>
                            {tenant.officialName}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Text ff="monospace" fz="sm">
                          {tenant.code}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <TenantStatusBadge status={tenant.status} />
                      </Table.Td>
                      <Table.Td>
                        <ConnectionTypeBadge type={tenant.connectionType} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <CountValue value={tenant.counts?.healthCenters} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <CountValue value={tenant.counts?.admins} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <CountValue value={tenant.counts?.doctors} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <CountValue value={tenant.counts?.patients} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(tenant.createdAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <TablePager page={page} size={PAGE_SIZE} total={tenants.data.total} onChange={setPage} />
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}
