import { useState } from 'react';
import { Anchor, Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { CenterSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { scopePath, scopesInTreeOrder } from '../levels/reach';
import { useOrgReach } from '../levels/use-org-reach';
import { PlusIcon, SearchIcon } from '../shell/icons';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { centerDetailQuery, centerListQuery, myCentersQuery } from './centers-api';
import { EnabledBadge } from './scope-table';

const PAGE_SIZE = 10;

function CenterRows({ centers, isDimmed = false }: { centers: CenterSummary[]; isDimmed?: boolean }) {
  const { t } = useTranslation('org');
  return (
    <Table
      highlightOnHover
      verticalSpacing="sm"
      aria-label={t('centers.tableLabel')}
      data-testid="centers-table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('centers.name')}</Table.Th>
          <Table.Th>{t('centers.scope')}</Table.Th>
          <Table.Th>{t('centers.phone')}</Table.Th>
          <Table.Th>{t('centers.mainAdmin')}</Table.Th>
          <Table.Th>{t('centers.status')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody style={{ opacity: isDimmed ? 0.6 : 1 }}>
        {centers.map((center) => (
          <Table.Tr key={center.id}>
            <Table.Td>
              <Anchor component={Link} to={center.id} fw={600}>
                {center.name}
              </Anchor>
              <Text fz="xs" c="dimmed" lineClamp={1} maw={320}>
                {center.address}
              </Text>
            </Table.Td>
            <Table.Td>{center.scope?.name ?? <Text c="dimmed">—</Text>}</Table.Td>
            <Table.Td>{[center.phonePrefix, center.phoneNumber].filter(Boolean).join(' ') || '—'}</Table.Td>
            <Table.Td>{center.mainAdmin?.fullName ?? <Text c="dimmed">—</Text>}</Table.Td>
            <Table.Td>
              <EnabledBadge enabled={center.enabled} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Everyone's centers for callers who see the whole tenant: search, scope filter (its subtree too), pages. */
function TenantCenters() {
  const { t } = useTranslation('org');
  const { scopes } = useOrgReach();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [scopeId, setScopeId] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const centers = useQuery(centerListQuery({ page, size: PAGE_SIZE, search: debouncedSearch, scopeId }));
  const isFiltered = debouncedSearch !== '' || scopeId !== null;
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('centers.search')}
          placeholder={t('centers.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(0);
          }}
          w={320}
        />
        <Select
          label={t('centers.scopeFilter')}
          placeholder={t('centers.anyScope')}
          data={scopesInTreeOrder(scopes).map((scope) => ({
            value: scope.id,
            label: scopePath(scopes, scope.id),
          }))}
          value={scopeId}
          onChange={(value) => {
            setScopeId(value);
            setPage(0);
          }}
          searchable
          clearable
          nothingFoundMessage={t('scopes.noMatch')}
          w={320}
        />
      </Group>
      <Paper withBorder radius="md" p="md">
        {centers.isPending ? <LoadingState /> : null}
        {centers.isError ? (
          <ErrorState
            error={centers.error}
            title={t('centers.loadFailed')}
            onRetry={() => void centers.refetch()}
          />
        ) : null}
        {centers.isSuccess && centers.data.items.length === 0 ? (
          <EmptyList
            title={isFiltered ? t('centers.noMatchTitle') : t('centers.emptyTitle')}
            description={isFiltered ? t('centers.noMatchHint') : t('centers.emptyHint')}
          />
        ) : null}
        {centers.isSuccess && centers.data.items.length > 0 ? (
          <>
            <CenterRows centers={centers.data.items} isDimmed={centers.isPlaceholderData} />
            <TablePager page={page} size={PAGE_SIZE} total={centers.data.total} onChange={setPage} />
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}

/** Centers beyond their own that a scope admin's list reads one by one (a scope rarely has more). */
const OTHER_CENTER_LIMIT = 50;

/**
 * A center or scope admin's centers: the ones they administer or work at (GET smadmin/mhsc/me),
 * then the others their level reaches (a scope admin's subtree), each read by the call open to them.
 */
function OwnCenters() {
  const { t } = useTranslation('org');
  const { centers: reachable } = useOrgReach();
  const mine = useQuery(myCentersQuery());
  const otherIds = mine.data
    ? reachable
        .filter((center) => !mine.data.some((own) => own.id === center.id))
        .slice(0, OTHER_CENTER_LIMIT)
        .map((center) => center.id)
    : [];
  const others = useQueries({ queries: otherIds.map((id) => centerDetailQuery(id, false)) });
  const failed = others.find((query) => query.isError);
  if (mine.isPending) return <LoadingState />;
  if (mine.isError)
    return (
      <ErrorState error={mine.error} title={t('centers.loadFailed')} onRetry={() => void mine.refetch()} />
    );
  const centers = [...mine.data, ...others.flatMap((query) => (query.data ? [query.data] : []))];
  const isLoadingOthers = others.some((query) => query.isPending);
  if (centers.length === 0 && !isLoadingOthers && !failed)
    return <EmptyList title={t('centers.noOwnTitle')} description={t('centers.noOwnHint')} />;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        {centers.length > 0 ? <CenterRows centers={centers} /> : null}
        {isLoadingOthers ? <LoadingState /> : null}
        {failed ? (
          <ErrorState
            error={failed.error}
            title={t('centers.loadFailed')}
            onRetry={() => {
              for (const query of others) if (query.isError) void query.refetch();
            }}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Health center list (spec §2). Creating and the tenant-wide list need a caller who sees the whole tenant. */
export function CentersPage() {
  const { t } = useTranslation('org');
  usePageTitle(t('centers.pageTitle'));
  const reach = useOrgReach();
  return (
    <Stack gap="lg" maw={1180}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('centers.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {reach.isWholeTenant ? t('centers.subtitle') : t('centers.subtitleOwn')}
          </Text>
        </Stack>
        {reach.isWholeTenant ? (
          <Button component={Link} to="new" leftSection={<PlusIcon />}>
            {t('centers.create')}
          </Button>
        ) : null}
      </Group>
      {reach.options.isPending ? <LoadingState /> : null}
      {reach.options.isError ? (
        <ErrorState
          error={reach.options.error}
          title={t('reach.loadFailed')}
          onRetry={() => void reach.options.refetch()}
        />
      ) : null}
      {reach.options.isSuccess ? reach.isWholeTenant ? <TenantCenters /> : <OwnCenters /> : null}
    </Stack>
  );
}
