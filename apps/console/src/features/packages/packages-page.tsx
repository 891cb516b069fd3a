import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PACKAGE_KINDS, type ServicePackage } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { PackageStateBadge, useDuration, useMoney } from './package-badges';
import { PackageFormDialog } from './package-form-dialog';
import { packageListQuery, refreshPackages, setPackageEnabled, type PackageFilter, type PackageSortField } from './packages-api';

const STATES = ['true', 'false'] as const;

/**
 * Service packages and add-on services (spec §2): paged, searched, filtered by kind and state and
 * sorted by the server; staff with transaction.manage create and edit them and disable or enable
 * them again after a confirmation.
 */
export function PackagesPage() {
  const { t } = useTranslation('packages');
  usePageTitle(t('title'));
  const { can } = usePermissions();
  const canManage = can('transaction.manage');
  const queryClient = useQueryClient();
  const money = useMoney();
  const duration = useDuration();
  const [form, setForm] = useState<{ editing: ServicePackage | null } | null>(null);
  const [toggling, setToggling] = useState<ServicePackage | null>(null);
  const paged = usePagedList<PackageSortField, Omit<PackageFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'price',
    sortType: 'asc',
    kind: null,
    enabled: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const packages = useQuery(packageListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered = debouncedSearch !== '' || filter.kind !== null || filter.enabled !== null;
  const toggle = useMutation({
    mutationFn: (item: ServicePackage) => setPackageEnabled(item.id, !item.enabled),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (saved) => {
      notifySuccess(t(saved.enabled ? 'state.enabled' : 'state.disabled', { code: saved.code }));
      await refreshPackages(queryClient);
      setToggling(null);
    },
  });

  const columns: Column<ServicePackage, PackageSortField>[] = [
    { id: 'code', header: t('columns.code'), sortField: 'code', isMonospace: true, isNoWrap: true, cell: (item) => item.code },
    {
      id: 'name',
      header: t('columns.name'),
      sortField: 'name',
      cell: (item) => (
        <Group gap={6} wrap="nowrap">
          <Text fz="sm" fw={600}>
            {item.name}
          </Text>
          {item.isDefault ? (
            <Badge size="xs" variant="outline">
              {t('defaultMark')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { id: 'kind', header: t('columns.kind'), isNoWrap: true, visibleFrom: 'lg', cell: (item) => t(`kind.${item.kind}`) },
    {
      id: 'level',
      header: t('columns.level'),
      isNoWrap: true,
      cell: (item) => (item.level === null ? t('none') : t(`level.${item.level}`)),
    },
    {
      id: 'price',
      header: t('columns.price'),
      sortField: 'price',
      align: 'right',
      isNoWrap: true,
      cell: (item) => money(item.priceMinor, item.currency),
    },
    { id: 'duration', header: t('columns.duration'), isNoWrap: true, cell: (item) => duration(item.durationMonths) },
    { id: 'subscribers', header: t('columns.subscribers'), align: 'right', visibleFrom: 'lg', cell: (item) => item.subscribers },
    { id: 'state', header: t('columns.state'), isNoWrap: true, cell: (item) => <PackageStateBadge enabled={item.enabled} /> },
    ...(canManage
      ? [
          {
            id: 'actions',
            header: t('columns.actions'),
            isHeaderHidden: true,
            isNoWrap: true,
            cell: (item: ServicePackage) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setForm({ editing: item });
                  }}
                  aria-label={`${t('actions.edit')} ${item.code}`}
                >
                  {t('actions.edit')}
                </Button>
                {item.isDefault ? null : (
                  <Button
                    size="xs"
                    variant="light"
                    color={item.enabled ? 'red' : undefined}
                    onClick={() => {
                      toggle.reset();
                      setToggling(item);
                    }}
                    aria-label={`${t(item.enabled ? 'actions.disable' : 'actions.enable')} ${item.code}`}
                  >
                    {t(item.enabled ? 'actions.disable' : 'actions.enable')}
                  </Button>
                )}
              </Group>
            ),
          } satisfies Column<ServicePackage, PackageSortField>,
        ]
      : []),
  ];

  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('subtitle')}
          </Text>
        </Stack>
        {canManage ? (
          <Button
            onClick={() => {
              setForm({ editing: null });
            }}
          >
            {t('actions.create')}
          </Button>
        ) : null}
      </Group>
      <Group gap="sm" align="flex-end">
        <ListSearchField list={paged} label={t('search')} placeholder={t('searchPlaceholder')} width={280} />
        <ValueFilter
          values={PACKAGE_KINDS}
          labelOf={(kind) => t(`kind.${kind}`)}
          value={filter.kind}
          onChange={(kind) => {
            update({ kind });
          }}
          label={t('kindFilter')}
          placeholder={t('any')}
          width={190}
        />
        <ValueFilter
          values={STATES}
          labelOf={(state) => t(`enabledState.${state}`)}
          value={filter.enabled === null ? null : filter.enabled ? 'true' : 'false'}
          onChange={(state) => {
            update({ enabled: state === null ? null : state === 'true' });
          }}
          label={t('enabledFilter')}
          placeholder={t('any')}
          width={170}
        />
      </Group>
      <DataTable
        columns={columns}
        query={packages}
        list={paged}
        label={t('title')}
        testId="packages-table"
        minWidth={860}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('list.loadFailed'),
          emptyTitle: t('list.emptyTitle'),
          emptyHint: t('list.emptyHint'),
          noMatchTitle: t('list.noMatchTitle'),
          noMatchHint: t('list.noMatchHint'),
        }}
      />
      {form === null ? null : (
        <PackageFormDialog
          key={form.editing?.id ?? 'new'}
          opened
          editing={form.editing}
          onClose={() => {
            setForm(null);
          }}
        />
      )}
      <ConfirmDialog
        isOpen={toggling !== null}
        title={
          toggling === null
            ? ''
            : t(toggling.enabled ? 'state.disableTitle' : 'state.enableTitle', { code: toggling.code })
        }
        text={toggling === null ? '' : t(toggling.enabled ? 'state.disableText' : 'state.enableText')}
        confirmLabel={t(toggling?.enabled === false ? 'actions.enable' : 'actions.disable')}
        confirmColor={toggling?.enabled === false ? undefined : 'red'}
        isPending={toggle.isPending}
        error={toggle.error}
        onConfirm={() => {
          if (toggling !== null) toggle.mutate(toggling);
        }}
        onClose={() => {
          setToggling(null);
        }}
      />
    </Stack>
  );
}
