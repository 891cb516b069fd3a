import { useState } from 'react';
import {
  Anchor,
  Badge,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { organisationTypeLabel } from './organisation-type-label';
import { scopePath, scopesInTreeOrder } from '../levels/reach';
import { useOrgReach } from '../levels/use-org-reach';
import { SearchIcon } from '../shell/icons';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { ScopeActions } from './scope-actions';
import { scopeListQuery } from './scopes-api';

const PAGE_SIZE = 10;

/** Active or inactive, worded for scopes and centers alike. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('org');
  return (
    // The label may not shrink to an ellipsis in a crowded table ("ĐANG HO…"): the column widens instead.
    <Badge variant="light" color={enabled ? 'teal' : 'gray'} styles={{ label: { overflow: 'visible' } }}>
      {enabled ? t('status.enabled') : t('status.disabled')}
    </Badge>
  );
}

/**
 * Scopes as a paged table: search by name, filter by type and by parent (the tree's selection sets
 * the parent, so the table lists what sits under the chosen scope).
 */
export function ScopeTable({
  parentId,
  onParentChange,
}: {
  parentId: string | null;
  onParentChange: (id: string | null) => void;
}) {
  const { t } = useTranslation('org');
  const { isWholeTenant, scopes: known } = useOrgReach();
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [debouncedType] = useDebouncedValue(type, 300);
  const [page, setPage] = useState(0);
  const [lastFilter, setLastFilter] = useState({ debouncedSearch, debouncedType, parentId });
  // A new filter starts again at the first page (set while rendering, React's pattern for derived state).
  if (
    lastFilter.debouncedSearch !== debouncedSearch ||
    lastFilter.debouncedType !== debouncedType ||
    lastFilter.parentId !== parentId
  ) {
    setLastFilter({ debouncedSearch, debouncedType, parentId });
    setPage(0);
  }
  const filter = { page, size: PAGE_SIZE, search: debouncedSearch, type: debouncedType, parentId };
  const scopes = useQuery(scopeListQuery(filter, isWholeTenant));
  const isFiltered = debouncedSearch !== '' || debouncedType !== '' || parentId !== null;
  const nameOf = (id: string | null) =>
    id === null ? '' : (known.find((scope) => scope.id === id)?.name ?? '');

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('scopes.search')}
          placeholder={t('scopes.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
          }}
          w={220}
        />
        <TextInput
          label={t('scopes.typeFilter')}
          placeholder={t('scopes.typePlaceholder')}
          value={type}
          onChange={(event) => {
            setType(event.currentTarget.value);
          }}
          w={140}
        />
        <Select
          label={t('scopes.parentFilter')}
          placeholder={t('scopes.anyParent')}
          data={scopesInTreeOrder(known).map((scope) => ({
            value: scope.id,
            label: scopePath(known, scope.id),
          }))}
          value={parentId}
          onChange={onParentChange}
          searchable
          clearable
          nothingFoundMessage={t('scopes.noMatch')}
          w={260}
        />
      </Group>
      <Paper withBorder radius="md" p="md">
        {scopes.isPending ? <LoadingState /> : null}
        {scopes.isError ? (
          <ErrorState
            error={scopes.error}
            title={t('scopes.loadFailed')}
            onRetry={() => void scopes.refetch()}
          />
        ) : null}
        {scopes.isSuccess && scopes.data.items.length === 0 ? (
          <EmptyList
            title={isFiltered ? t('scopes.noMatchTitle') : t('scopes.emptyTitle')}
            description={isFiltered ? t('scopes.noMatchHint') : t('scopes.emptyHint')}
          />
        ) : null}
        {scopes.isSuccess && scopes.data.items.length > 0 ? (
          <>
            <Table.ScrollContainer minWidth={720}>
              <Table
                highlightOnHover
                verticalSpacing="xs"
                aria-label={t('scopes.tableLabel')}
                data-testid="scopes-table"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('scopes.name')}</Table.Th>
                    <Table.Th>{t('scopes.type')}</Table.Th>
                    <Table.Th>{t('scopes.level')}</Table.Th>
                    <Table.Th>{t('scopes.parent')}</Table.Th>
                    <Table.Th>{t('scopes.status')}</Table.Th>
                    <Table.Th>{t('scopes.updated')}</Table.Th>
                    {isWholeTenant ? (
                      <Table.Th w={50}>
                        <VisuallyHidden>{t('scopes.actions')}</VisuallyHidden>
                      </Table.Th>
                    ) : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody style={{ opacity: scopes.isPlaceholderData ? 0.6 : 1 }}>
                  {scopes.data.items.map((scope) => (
                    <Table.Tr key={scope.id}>
                      <Table.Td>
                        <Anchor component={Link} to={scope.id} fw={600} fz="sm">
                          {scope.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{scope.type ? organisationTypeLabel(scope.type) : <Text c="dimmed">—</Text>}</Table.Td>
                      <Table.Td>{scope.level}</Table.Td>
                      <Table.Td>{nameOf(scope.parentId) || <Text c="dimmed">—</Text>}</Table.Td>
                      <Table.Td miw={90}>
                        <EnabledBadge enabled={scope.enabled} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(scope.updatedAt)}</Table.Td>
                      {isWholeTenant ? (
                        <Table.Td>
                          <ScopeActions scope={scope} />
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <TablePager page={page} size={PAGE_SIZE} total={scopes.data.total} onChange={setPage} />
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}
