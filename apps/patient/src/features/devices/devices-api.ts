import {
  myDeviceListSchema,
  myDeviceSchema,
  type BindMyDevice,
  type WatchSettings,
} from '@rpm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Query keys under the session root, so logging out clears them. */
export const DEVICES_KEY = [SESSION_QUERY_ROOT, 'devices'] as const;

export const myDevicesQuery = () =>
  queryOptions({ queryKey: DEVICES_KEY, queryFn: () => api.get('/health/me/devices', myDeviceListSchema) });

export const bindDevice = (body: BindMyDevice) => api.post('/health/me/devices', body, myDeviceSchema);
export const unbindDevice = (deviceId: string) => api.post('/health/me/devices/unbind', { deviceId }, z.null());
export const saveSettings = (deviceId: string, settings: WatchSettings) =>
  api.post('/health/me/devices/settings', { deviceId, settings }, myDeviceSchema);
export const saveFirmware = (deviceId: string, firmwareVersion: string) =>
  api.post('/health/me/devices/firmware', { deviceId, firmwareVersion }, myDeviceSchema);
