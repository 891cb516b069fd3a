import { useState } from 'react';
import { Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { APP_STATUSES, CONNECTION_STATUS_NAMES, CONNECTION_STATUSES, DEVICE_MODELS } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, parseDisplayDate } from '../../lib/format';
import { DateField } from '../shell/date-field';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import { AppStatusBadge, ConnectionBadge } from './device-status';
import {
  connectionHistoryQuery,
  phoneHistoryQuery,
  phoneValuesQuery,
  type ConnectionHistoryFilter,
  type ConnectionSortField,
  type PhoneHistoryFilter,
  type PhoneSortField,
} from './devices-api';

const PAGE_SIZE = 10;

/** A from/to pair of typed dates (dd/MM/yyyy) as the API's instants: whole local days. */
function useDateRange(onChange: (range: { start: string | null; end: string | null }) => void) {
  const { t } = useTranslation('devices');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const instantOf = (text: string, edge: 'start' | 'end') => {
    const iso = parseDisplayDate(text);
    if (iso === null) return null;
    return new Date(`${iso}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}`).toISOString();
  };
  const errorOf = (text: string) =>
    text !== '' && parseDisplayDate(text) === null ? t('history.invalidDate') : undefined;
  const fields = (
    <>
      <DateField
        label={t('history.from')}
        value={from}
        error={errorOf(from)}
        onChange={(value) => {
          setFrom(value);
          onChange({ start: instantOf(value, 'start'), end: instantOf(to, 'end') });
        }}
      />
      <DateField
        label={t('history.to')}
        value={to}
        error={errorOf(to)}
        onChange={(value) => {
          setTo(value);
          onChange({ start: instantOf(from, 'start'), end: instantOf(value, 'end') });
        }}
      />
    </>
  );
  return { fields, isSet: from !== '' || to !== '' };
}

/** Connection history (spec §7 searchByUsername) of one device or of one account. */
export function ConnectionHistoryTable({ target }: { target: { deviceId?: string; username?: string } }) {
  const { t } = useTranslation('devices');
  const paged = usePagedList<ConnectionSortField, Omit<ConnectionHistoryFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
    sortField: 'connectedAt',
    sortType: 'desc',
    status: null,
    model: null,
    start: null,
    end: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const history = useQuery(connectionHistoryQuery(target, { ...filter, search: debouncedSearch }));
  const range = useDateRange(update);
  const isFiltered = debouncedSearch !== '' || filter.status !== null || filter.model !== null || range.isSet;
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('history.search')}
          placeholder={t('history.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={280}
        />
        <Select
          label={t('history.status')}
          placeholder={t('history.allStatuses')}
          data={CONNECTION_STATUSES.map((status) => ({
            value: String(status),
            label: t(`connectionStatus.${CONNECTION_STATUS_NAMES[status]}`),
          }))}
          value={filter.status === null ? null : String(filter.status)}
          onChange={(value) => {
            update({ status: CONNECTION_STATUSES.find((status) => String(status) === value) ?? null });
          }}
          clearable
          w={190}
        />
        {target.deviceId === undefined ? (
          <Select
            label={t('history.model')}
            placeholder={t('history.allModels')}
            data={[...DEVICE_MODELS]}
            value={filter.model}
            onChange={(value) => {
              update({ model: DEVICE_MODELS.find((model) => model === value) ?? null });
            }}
            clearable
            w={150}
          />
        ) : null}
        {range.fields}
      </Group>
      <PagedTableFrame
        query={history}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('history.loadFailed'),
          emptyTitle: t('history.empty'),
          noMatchTitle: t('history.empty'),
          noMatchHint: t('history.emptyHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('detail.connectionHistory')}
            data-testid="connection-history-table"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="connectedAt" sort={filter} onSort={paged.sortBy}>
                  {t('history.connectedAt')}
                </SortHeader>
                <SortHeader field="disconnectedAt" sort={filter} onSort={paged.sortBy}>
                  {t('history.disconnectedAt')}
                </SortHeader>
                <SortHeader field="deviceName" sort={filter} onSort={paged.sortBy}>
                  {t('history.deviceName')}
                </SortHeader>
                <Table.Th>{t('history.username')}</Table.Th>
                <SortHeader field="status" sort={filter} onSort={paged.sortBy}>
                  {t('history.status')}
                </SortHeader>
                <SortHeader field="appVersion" sort={filter} onSort={paged.sortBy}>
                  {t('history.appVersion')}
                </SortHeader>
                <SortHeader field="phoneName" sort={filter} onSort={paged.sortBy}>
                  {t('history.phoneName')}
                </SortHeader>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{formatDateTime(row.connectedAt)}</Table.Td>
                  <Table.Td>
                    {row.disconnectedAt === null ? (
                      <Text c="dimmed" fz="sm">
                        {t('history.stillConnected')}
                      </Text>
                    ) : (
                      formatDateTime(row.disconnectedAt)
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{row.deviceName}</Text>
                    <Text fz="xs" c="dimmed">
                      {row.model}
                    </Text>
                  </Table.Td>
                  <Table.Td>{row.username}</Table.Td>
                  <Table.Td>
                    <ConnectionBadge status={row.status} />
                  </Table.Td>
                  <Table.Td>{row.appVersion}</Table.Td>
                  <Table.Td>{row.phoneName}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
    </Stack>
  );
}

/** Phone history (spec §7 phone-history/searchByUsername) of one account. */
export function PhoneHistoryTable({ username }: { username: string }) {
  const { t } = useTranslation('devices');
  const paged = usePagedList<PhoneSortField, Omit<PhoneHistoryFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
    sortField: 'recordedAt',
    sortType: 'desc',
    status: null,
    phoneName: null,
    appVersion: null,
    start: null,
    end: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const history = useQuery(phoneHistoryQuery(username, { ...filter, search: debouncedSearch }));
  const phoneNames = useQuery(phoneValuesQuery('getPhoneNameList', username));
  const appVersions = useQuery(phoneValuesQuery('getAppVersionList', username));
  const range = useDateRange(update);
  const isFiltered =
    debouncedSearch !== '' ||
    filter.status !== null ||
    filter.phoneName !== null ||
    filter.appVersion !== null ||
    range.isSet;
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('history.search')}
          placeholder={t('history.phoneSearchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={240}
        />
        <Select
          label={t('history.status')}
          placeholder={t('history.allStatuses')}
          data={APP_STATUSES.map((status) => ({ value: status, label: t(`appStatus.${status}`) }))}
          value={filter.status}
          onChange={(value) => {
            update({ status: APP_STATUSES.find((status) => status === value) ?? null });
          }}
          clearable
          w={170}
        />
        <Select
          label={t('history.phoneName')}
          placeholder={t('history.allPhones')}
          data={phoneNames.data ?? []}
          value={filter.phoneName}
          onChange={(value) => {
            update({ phoneName: value });
          }}
          clearable
          w={180}
        />
        <Select
          label={t('history.appVersion')}
          placeholder={t('history.allVersions')}
          data={appVersions.data ?? []}
          value={filter.appVersion}
          onChange={(value) => {
            update({ appVersion: value });
          }}
          clearable
          w={150}
        />
        {range.fields}
      </Group>
      <PagedTableFrame
        query={history}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('history.loadFailed'),
          emptyTitle: t('history.empty'),
          noMatchTitle: t('history.empty'),
          noMatchHint: t('history.emptyHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('detail.phoneHistory')}
            data-testid="phone-history-table"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="recordedAt" sort={filter} onSort={paged.sortBy}>
                  {t('history.recordedAt')}
                </SortHeader>
                <SortHeader field="phoneName" sort={filter} onSort={paged.sortBy}>
                  {t('history.phoneName')}
                </SortHeader>
                <Table.Th>{t('history.os')}</Table.Th>
                <SortHeader field="appVersion" sort={filter} onSort={paged.sortBy}>
                  {t('history.appVersion')}
                </SortHeader>
                <SortHeader field="status" sort={filter} onSort={paged.sortBy}>
                  {t('history.status')}
                </SortHeader>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{formatDateTime(row.recordedAt)}</Table.Td>
                  <Table.Td>{row.phoneName}</Table.Td>
                  <Table.Td>
                    {t(`os.${row.os}`)} {row.osVersion}
                  </Table.Td>
                  <Table.Td>{row.appVersion}</Table.Td>
                  <Table.Td>
                    <AppStatusBadge status={row.status} />
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
