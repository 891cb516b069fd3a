import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  connectionHistoryItemSchema,
  deviceDetailSchema,
  deviceSummarySchema,
  nameListSchema,
  pageOf,
  patientSummarySchema,
  phoneHistoryItemSchema,
  type AppStatus,
  type ConnectionStatus,
  type DeviceInput,
  type DeviceModel,
  type PHONE_HISTORY_SORTS,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const DEVICES_QUERY_ROOT = [SESSION_QUERY_ROOT, 'devices'] as const;

export type DeviceSortField =
  'created' | 'model' | 'serialNumber' | 'macAddress' | 'lastConnected' | 'lastSync' | 'status';
export interface DeviceFilter {
  page: number;
  size: number;
  search: string;
  sortField: DeviceSortField;
  sortType: 'asc' | 'desc';
  category: DeviceModel | null;
  status: ConnectionStatus | null;
  appStatus: AppStatus | null;
  bound: 'true' | 'false' | null;
}

/** The list's query string, shared by the list and its export. */
export function deviceQueryString(filter: DeviceFilter): string {
  return listQuery(filter, {
    category: filter.category,
    status: filter.status,
    appStatus: filter.appStatus,
    bound: filter.bound,
  });
}

export const deviceExportPath = (filter: DeviceFilter) =>
  `/account/devices/export?${deviceQueryString(filter)}`;

const devicePageSchema = pageOf(deviceSummarySchema);

export const deviceListQuery = (filter: DeviceFilter) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/devices?${deviceQueryString(filter)}`, { schema: devicePageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

const devicePath = (id: string, rest = '') => `/account/devices/${encodeURIComponent(id)}${rest}`;

export const deviceDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(devicePath(id), { schema: deviceDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const patientDevicesQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, 'patient', patientId],
    queryFn: ({ signal }) =>
      api.get(`/account/patients/${encodeURIComponent(patientId)}/devices`, {
        schema: z.array(deviceSummarySchema),
        signal,
      }),
    meta: { errorDisplay: 'inline' },
  });

/** Patients to bind a device to (the patients list, as far as the caller sees). */
export const patientSearchQuery = (search: string) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, 'patient-search', search],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: '0', size: '10' });
      if (search.trim() !== '') query.set('search', search.trim());
      return api.get(`/account/patients?${query.toString()}`, {
        schema: pageOf(
          patientSummarySchema.pick({
            id: true,
            patientCode: true,
            fullName: true,
            phone: true,
            email: true,
          }),
        ),
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export function refreshDevices(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_ROOT });
}

export const createDevice = (input: DeviceInput) =>
  api.post('/account/devices', input, { schema: deviceDetailSchema });
export const updateDevice = (id: string, input: DeviceInput) =>
  api.put(devicePath(id), input, { schema: deviceDetailSchema });
export const deleteDevice = (id: string) => api.delete(devicePath(id));
export const bindDevice = (id: string, patientId: string) =>
  api.put(devicePath(id, '/bind'), { patientId }, { schema: deviceDetailSchema });
export const unbindDevice = (id: string) =>
  api.put(devicePath(id, '/unbind'), undefined, { schema: deviceDetailSchema });

// Histories ---------------------------------------------------------------------------------------

export type ConnectionSortField =
  'connectedAt' | 'disconnectedAt' | 'deviceName' | 'model' | 'status' | 'appVersion' | 'phoneName';
export interface ConnectionHistoryFilter {
  page: number;
  size: number;
  search: string;
  sortField: ConnectionSortField;
  sortType: 'asc' | 'desc';
  status: ConnectionStatus | null;
  model: DeviceModel | null;
  /** ISO instants (start of the first day, end of the last). */
  start: string | null;
  end: string | null;
}

export const connectionHistoryQuery = (
  target: { deviceId?: string; username?: string },
  filter: ConnectionHistoryFilter,
) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, 'connections', target, filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        page: String(filter.page),
        size: String(filter.size),
        sortField: filter.sortField,
        sortType: filter.sortType,
      });
      if (target.deviceId !== undefined) query.set('deviceId', target.deviceId);
      if (target.username !== undefined) query.set('username', target.username);
      if (filter.search.trim() !== '') query.set('search', filter.search.trim());
      if (filter.status !== null) query.set('status', String(filter.status));
      if (filter.model !== null) query.set('model', filter.model);
      if (filter.start !== null) query.set('start', filter.start);
      if (filter.end !== null) query.set('end', filter.end);
      return api.get(`/health/device-connection-history/searchByUsername?${query.toString()}`, {
        schema: pageOf(connectionHistoryItemSchema),
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export type PhoneSort = (typeof PHONE_HISTORY_SORTS)[number];
export type PhoneSortField = 'recordedAt' | 'phoneName' | 'appVersion' | 'status';
export interface PhoneHistoryFilter {
  page: number;
  size: number;
  search: string;
  sortField: PhoneSortField;
  sortType: 'asc' | 'desc';
  status: AppStatus | null;
  phoneName: string | null;
  appVersion: string | null;
  start: string | null;
  end: string | null;
}

export const phoneHistoryQuery = (username: string, filter: PhoneHistoryFilter) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, 'phones', username, filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        page: String(filter.page),
        size: String(filter.size),
        username,
        sort: `${filter.sortField},${filter.sortType}`,
      });
      if (filter.search.trim() !== '') query.set('search', filter.search.trim());
      if (filter.status !== null) query.set('status', filter.status);
      if (filter.phoneName !== null) query.set('phoneName', filter.phoneName);
      if (filter.appVersion !== null) query.set('appVersion', filter.appVersion);
      if (filter.start !== null) query.set('start', filter.start);
      if (filter.end !== null) query.set('end', filter.end);
      return api.get(`/health/phone-history/searchByUsername?${query.toString()}`, {
        schema: pageOf(phoneHistoryItemSchema),
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const phoneValuesQuery = (list: 'getPhoneNameList' | 'getAppVersionList', username: string) =>
  queryOptions({
    queryKey: [...DEVICES_QUERY_ROOT, list, username],
    queryFn: ({ signal }) =>
      api.get(`/health/phone-history/${list}?username=${encodeURIComponent(username)}`, {
        schema: nameListSchema,
        signal,
      }),
    meta: { errorDisplay: 'inline' },
  });
