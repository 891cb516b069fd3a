import { useState } from 'react';
import { Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  APP_STATUSES,
  CONNECTION_STATUS_NAMES,
  CONNECTION_STATUSES,
  DEVICE_MODELS,
  type ConnectionHistoryItem,
  type PhoneHistoryItem,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, parseDisplayDate } from '../../lib/format';
import { DateField } from '../shell/date-field';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
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

/** The load, empty and no-match words both histories share. */
function useHistoryTexts() {
  const { t } = useTranslation('devices');
  return {
    loadFailed: t('history.loadFailed'),
    emptyTitle: t('history.empty'),
    noMatchTitle: t('history.empty'),
    noMatchHint: t('history.emptyHint'),
  };
}

/** Connection history (spec §7 searchByUsername) of one device or of one account. */
export function ConnectionHistoryTable({ target }: { target: { deviceId?: string; username?: string } }) {
  const { t } = useTranslation('devices');
  const paged = usePagedList<ConnectionSortField, Omit<ConnectionHistoryFilter, 'search'>>({
    page: 0,
    size: 10,
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
  const texts = useHistoryTexts();
  const columns: Column<ConnectionHistoryItem, ConnectionSortField>[] = [
    {
      id: 'connectedAt',
      header: t('history.connectedAt'),
      sortField: 'connectedAt',
      cell: (row) => formatDateTime(row.connectedAt),
    },
    {
      id: 'disconnectedAt',
      header: t('history.disconnectedAt'),
      sortField: 'disconnectedAt',
      cell: (row) =>
        row.disconnectedAt === null ? (
          <Text c="dimmed" fz="sm">
            {t('history.stillConnected')}
          </Text>
        ) : (
          formatDateTime(row.disconnectedAt)
        ),
    },
    {
      id: 'deviceName',
      header: t('history.deviceName'),
      sortField: 'deviceName',
      cell: (row) => (
        <>
          <Text fz="sm">{row.deviceName}</Text>
          <Text fz="xs" c="dimmed">
            {row.model}
          </Text>
        </>
      ),
    },
    { id: 'username', header: t('history.username'), cell: (row) => row.username },
    {
      id: 'status',
      header: t('history.status'),
      sortField: 'status',
      cell: (row) => <ConnectionBadge status={row.status} />,
    },
    {
      id: 'appVersion',
      header: t('history.appVersion'),
      sortField: 'appVersion',
      cell: (row) => row.appVersion,
    },
    { id: 'phoneName', header: t('history.phoneName'), sortField: 'phoneName', cell: (row) => row.phoneName },
  ];
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('history.search')}
          placeholder={t('history.searchPlaceholder')}
          width={280}
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
      <DataTable
        columns={columns}
        query={history}
        list={paged}
        label={t('detail.connectionHistory')}
        testId="connection-history-table"
        isFiltered={isFiltered}
        texts={texts}
      />
    </Stack>
  );
}

/** Phone history (spec §7 phone-history/searchByUsername) of one account. */
export function PhoneHistoryTable({ username }: { username: string }) {
  const { t } = useTranslation('devices');
  const paged = usePagedList<PhoneSortField, Omit<PhoneHistoryFilter, 'search'>>({
    page: 0,
    size: 10,
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
  const texts = useHistoryTexts();
  const columns: Column<PhoneHistoryItem, PhoneSortField>[] = [
    {
      id: 'recordedAt',
      header: t('history.recordedAt'),
      sortField: 'recordedAt',
      cell: (row) => formatDateTime(row.recordedAt),
    },
    { id: 'phoneName', header: t('history.phoneName'), sortField: 'phoneName', cell: (row) => row.phoneName },
    { id: 'os', header: t('history.os'), cell: (row) => `${t(`os.${row.os}`)} ${row.osVersion}` },
    {
      id: 'appVersion',
      header: t('history.appVersion'),
      sortField: 'appVersion',
      cell: (row) => row.appVersion,
    },
    {
      id: 'status',
      header: t('history.status'),
      sortField: 'status',
      cell: (row) => <AppStatusBadge status={row.status} />,
    },
  ];
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('history.search')}
          placeholder={t('history.phoneSearchPlaceholder')}
          width={240}
        />
        <ValueFilter
          values={APP_STATUSES}
          labelOf={(status) => t(`appStatus.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('history.status')}
          placeholder={t('history.allStatuses')}
          width={170}
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
      <DataTable
        columns={columns}
        query={history}
        list={paged}
        label={t('detail.phoneHistory')}
        testId="phone-history-table"
        isFiltered={isFiltered}
        texts={texts}
      />
    </Stack>
  );
}
