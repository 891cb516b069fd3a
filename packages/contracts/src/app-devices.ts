/** The patient app's calls of this feature: request and answer shapes shared by the server and the app. */
import { z } from 'zod';
import { connectionStatusSchema, DEVICE_MODELS, type DeviceModel } from './devices.js';

/**
 * The watch settings the app offers (spec §9): night SpO2 detection (00:00 to 07:00) and fall
 * detection (spec §3 alert types). Missing keys take their defaults.
 */
export const watchSettingsSchema = z.object({
  nightSpo2Detection: z.boolean().default(true),
  fallDetection: z.boolean().default(true),
});
export type WatchSettings = z.infer<typeof watchSettingsSchema>;
export const DEFAULT_WATCH_SETTINGS: WatchSettings = { nightSpo2Detection: true, fallDetection: true };

/** A watch bound to the calling patient, as the app shows it. */
export const myDeviceSchema = z.object({
  id: z.uuid(),
  model: z.enum(DEVICE_MODELS),
  serialNumber: z.string(),
  macAddress: z.string().nullable(),
  firmwareVersion: z.string(),
  connectionStatus: connectionStatusSchema,
  lastSyncedAt: z.iso.datetime({ offset: true }).nullable(),
  boundAt: z.iso.datetime({ offset: true }).nullable(),
  settings: watchSettingsSchema,
});
export type MyDevice = z.infer<typeof myDeviceSchema>;
export const myDeviceListSchema = z.array(myDeviceSchema);

/** POST /health/me/devices: bind a watch of the tenant's stock by its model and serial number. */
export const bindMyDeviceSchema = z.object({
  model: z.enum(DEVICE_MODELS),
  serialNumber: z.string().trim().min(1).max(64),
});
export type BindMyDevice = z.infer<typeof bindMyDeviceSchema>;

export const myDeviceIdSchema = z.object({ deviceId: z.uuid() });

export const myDeviceSettingsSchema = z.object({ deviceId: z.uuid(), settings: watchSettingsSchema });

/** A firmware version as watches report it: digits and dots (1.0.4). */
export const firmwareVersionSchema = z.string().regex(/^\d{1,3}(\.\d{1,3}){1,3}$/);
export const myDeviceFirmwareSchema = z.object({ deviceId: z.uuid(), firmwareVersion: firmwareVersionSchema });

/**
 * What a watch's QR code says: "MODEL:SERIAL" (V19:SN10001), a JSON object with model and
 * serialNumber, or a link with ?model=...&serial=... . Null when it names no supported model or no
 * serial number.
 */
export function parseDeviceQr(text: string): BindMyDevice | null {
  const raw = text.trim();
  let model: string | undefined;
  let serial: string | undefined;
  if (raw.startsWith('{')) {
    try {
      const value = JSON.parse(raw) as Record<string, unknown>;
      model = typeof value.model === 'string' ? value.model : undefined;
      const candidate = value.serialNumber ?? value.serial;
      serial = typeof candidate === 'string' ? candidate : undefined;
    } catch {
      return null;
    }
  } else if (/^https?:\/\//i.test(raw)) {
    const param = (name: string) => {
      const found = new RegExp(`[?&]${name}=([^&#]*)`).exec(raw)?.[1];
      if (found === undefined) return undefined;
      try {
        return decodeURIComponent(found.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    model = param('model');
    serial = param('serial') ?? param('serialNumber');
  } else {
    const match = /^([A-Za-z0-9]+)\s*[:;|/ ]\s*(\S+)$/.exec(raw);
    model = match?.[1];
    serial = match?.[2];
  }
  const upper = model?.trim().toUpperCase();
  const serialNumber = serial?.trim() ?? '';
  if (upper === undefined || !(DEVICE_MODELS as readonly string[]).includes(upper) || serialNumber === '') return null;
  return { model: upper as DeviceModel, serialNumber };
}
