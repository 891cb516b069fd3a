import { Anchor, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ACCOUNT_STATUSES, type StaffList } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { useOrgReach } from '../levels/use-org-reach';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import {
  PLATFORM_LISTS,
  staffListQuery,
  type StaffFilter,
  type StaffRow,
  type StaffSortField,
} from './staff-api';
import { StaffStatusBadge, useRoleLabel } from './staff-status';

const PAGE_SIZE = 10;
type Status = (typeof ACCOUNT_STATUSES)[number];

function ExtraCell({ list, row }: { list: StaffList; row: StaffRow }) {
  if (list === 'doctorAssistant')
    return <Table.Td>{(row.doctors ?? []).map((doctor) => doctor.fullName).join(', ')}</Table.Td>;
  if (list === 'systemAdmin')
    return <Table.Td>{(row.tenants ?? []).map((tenant) => tenant.name).join(', ')}</Table.Td>;
  return null;
}

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
    size: PAGE_SIZE,
    sortField: 'name',
    sortType: 'asc',
    status: null,
    centerId: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const staff = useQuery(staffListQuery(list, { ...filter, search: debouncedSearch }));
  const onSort = paged.sortBy;
  const isFiltered = debouncedSearch !== '' || filter.status !== null || filter.centerId !== null;
  const extraHeader =
    list === 'doctorAssistant' ? t('staff.doctors') : list === 'systemAdmin' ? t('staff.tenants') : null;

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('staff.search')}
          placeholder={t('staff.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={300}
        />
        <Select
          label={t('staff.statusFilter')}
          placeholder={t('staff.anyStatus')}
          data={ACCOUNT_STATUSES.map((status) => ({ value: status, label: t(`accountStatus.${status}`) }))}
          value={filter.status}
          onChange={(value) => {
            update({ status: ACCOUNT_STATUSES.find((status: Status) => status === value) ?? null });
          }}
          clearable
          w={180}
        />
        {isPlatformList ? null : (
          <Select
            label={t('staff.centerFilter')}
            placeholder={t('staff.anyCenter')}
            data={centers.map((center) => ({ value: center.id, label: center.name }))}
            value={filter.centerId}
            onChange={(value) => {
              update({ centerId: value });
            }}
            searchable
            clearable
            nothingFoundMessage={t('levels.noMatch')}
            w={260}
          />
        )}
      </Group>
      <PagedTableFrame
        query={staff}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('staff.loadFailed'),
          emptyTitle: t('staff.emptyTitle'),
          emptyHint: t('staff.emptyHint'),
          noMatchTitle: t('staff.noMatchTitle'),
          noMatchHint: t('staff.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t(`staff.lists.${list}`)}
            data-testid="staff-table"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="name" sort={filter} onSort={onSort}>
                  {t('staff.name')}
                </SortHeader>
                <Table.Th>{t('staff.contact')}</Table.Th>
                <Table.Th>{t('staff.role')}</Table.Th>
                {isPlatformList ? null : <Table.Th>{t('staff.place')}</Table.Th>}
                {extraHeader ? <Table.Th>{extraHeader}</Table.Th> : null}
                <SortHeader field="status" sort={filter} onSort={onSort}>
                  {t('staff.status')}
                </SortHeader>
                <SortHeader field="created" sort={filter} onSort={onSort}>
                  {t('staff.created')}
                </SortHeader>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    <Anchor component={Link} to={row.id} fw={600}>
                      {row.fullName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{row.email ?? ''}</Text>
                    <Text fz="xs" c="dimmed">
                      {row.phone ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{roleLabel(row)}</Table.Td>
                  {isPlatformList ? null : (
                    <Table.Td>
                      {row.center?.name ?? row.scope?.name ?? (
                        <Text c="dimmed">{t('staff.wholeTenant')}</Text>
                      )}
                    </Table.Td>
                  )}
                  <ExtraCell list={list} row={row} />
                  <Table.Td>
                    <StaffStatusBadge staff={row} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
    </Stack>
  );
}
