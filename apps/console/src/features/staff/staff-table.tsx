import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ACCOUNT_STATUSES, type StaffList } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { useOrgReach } from '../levels/use-org-reach';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, RecordFilter, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import {
  PLATFORM_LISTS,
  staffListQuery,
  type StaffFilter,
  type StaffRow,
  type StaffSortField,
} from './staff-api';
import { StaffStatusBadge, useRoleLabel } from './staff-status';

/**
 * One staff list of spec §2: search (name, email, phone), filters (status; center for tenant lists),
 * sorting (name, created, status) and pages. The server limits it to what the caller's level sees.
 */
export function StaffTable({ list }: { list: StaffList }) {
  const { t } = useTranslation('org');
  const roleLabel = useRoleLabel();
  const { centers } = useOrgReach();
  const isPlatformList = PLATFORM_LISTS.includes(list);
  const paged = usePagedList<StaffSortField, Omit<StaffFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'name',
    sortType: 'asc',
    status: null,
    centerId: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const staff = useQuery(staffListQuery(list, { ...filter, search: debouncedSearch }));
  const isFiltered = debouncedSearch !== '' || filter.status !== null || filter.centerId !== null;
  const columns: Column<StaffRow, StaffSortField>[] = [
    {
      id: 'name',
      header: t('staff.name'),
      sortField: 'name',
      cell: (row) => (
        <Anchor component={Link} to={row.id} fw={600}>
          {row.fullName}
        </Anchor>
      ),
    },
    {
      id: 'contact',
      header: t('staff.contact'),
      cell: (row) => (
        <>
          <Text fz="sm">{row.email ?? ''}</Text>
          <Text fz="xs" c="dimmed">
            {row.phone ?? ''}
          </Text>
        </>
      ),
    },
    { id: 'role', header: t('staff.role'), cell: (row) => roleLabel(row) },
    // Platform staff belong to no center or scope of a tenant.
    ...(isPlatformList
      ? []
      : [
          {
            id: 'place',
            header: t('staff.place'),
            cell: (row: StaffRow) =>
              row.center?.name ?? row.scope?.name ?? <Text c="dimmed">{t('staff.wholeTenant')}</Text>,
          },
        ]),
    ...(list === 'doctorAssistant'
      ? [
          {
            id: 'doctors',
            header: t('staff.doctors'),
            cell: (row: StaffRow) => (row.doctors ?? []).map((doctor) => doctor.fullName).join(', '),
          },
        ]
      : []),
    ...(list === 'systemAdmin'
      ? [
          {
            id: 'tenants',
            header: t('staff.tenants'),
            cell: (row: StaffRow) => (row.tenants ?? []).map((tenant) => tenant.name).join(', '),
          },
        ]
      : []),
    {
      id: 'status',
      header: t('staff.status'),
      sortField: 'status',
      cell: (row) => <StaffStatusBadge staff={row} />,
    },
    {
      id: 'created',
      header: t('staff.created'),
      sortField: 'created',
      cell: (row) => formatDateTime(row.createdAt),
    },
  ];

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('staff.search')}
          placeholder={t('staff.searchPlaceholder')}
          width={300}
        />
        <ValueFilter
          values={ACCOUNT_STATUSES}
          labelOf={(status) => t(`accountStatus.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('staff.statusFilter')}
          placeholder={t('staff.anyStatus')}
          width={180}
        />
        {isPlatformList ? null : (
          <RecordFilter
            items={centers}
            nameOf={(center) => center.name}
            value={filter.centerId}
            onChange={(centerId) => {
              update({ centerId });
            }}
            label={t('staff.centerFilter')}
            placeholder={t('staff.anyCenter')}
            width={260}
            nothingFound={t('levels.noMatch')}
          />
        )}
      </Group>
      <DataTable
        columns={columns}
        query={staff}
        list={paged}
        label={t(`staff.lists.${list}`)}
        testId="staff-table"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('staff.loadFailed'),
          emptyTitle: t('staff.emptyTitle'),
          emptyHint: t('staff.emptyHint'),
          noMatchTitle: t('staff.noMatchTitle'),
          noMatchHint: t('staff.noMatchHint'),
        }}
      />
    </Stack>
  );
}
