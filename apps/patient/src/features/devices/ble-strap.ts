import { parseHeartRateMeasurement } from './heart-rate';
import { enqueue, getSnapshot, log, publishStrap } from './devices-runtime';
import { readingKey } from './sync-queue';
import { VIRTUAL_SOURCE } from './virtual-watch';
import { nextWatchState, type WatchEvent } from './watch-state';

/** The few Web Bluetooth types this uses (not in TypeScript's DOM library). */
interface HeartRateCharacteristic extends EventTarget {
  value?: DataView;
  startNotifications(): Promise<HeartRateCharacteristic>;
}
interface GattServer {
  connect(): Promise<GattServer>;
  disconnect(): void;
  getPrimaryService(service: string): Promise<{ getCharacteristic(name: string): Promise<HeartRateCharacteristic> }>;
}
interface BluetoothDeviceLike extends EventTarget {
  name?: string;
  gatt?: GattServer;
}
interface BluetoothLike {
  requestDevice(options: { filters: { services: string[] }[] }): Promise<BluetoothDeviceLike>;
  getAvailability?(): Promise<boolean>;
}

const bluetooth = (): BluetoothLike | undefined => (navigator as Navigator & { bluetooth?: BluetoothLike }).bluetooth;

/** Whether this browser can pair a Bluetooth heart-rate watch or strap (Web Bluetooth). */
export const hasWebBluetooth = () => bluetooth() !== undefined;

/** One heart rate every this many milliseconds at most: a strap notifies about once a second. */
export const HEART_RATE_EVERY_MS = 15_000;

let device: BluetoothDeviceLike | undefined;
let lastQueuedAt = 0;

function strapEvent(event: WatchEvent, name?: string) {
  const current = getSnapshot().strap ?? { state: 'unpaired' as const, firmware: '', lastHeartRate: null, upgradeProgress: null, name: name ?? '' };
  const state = nextWatchState(current.state, event);
  if (state !== current.state) log(`bluetooth ${(current.name !== '' ? current.name : undefined) ?? name ?? 'strap'}: ${current.state} → ${state} (${event})`);
  publishStrap({ ...current, ...(name === undefined ? {} : { name }), state });
}

function onMeasurement(event: Event) {
  const view = (event.target as HeartRateCharacteristic).value;
  if (!view) return;
  const measurement = parseHeartRateMeasurement(view);
  if (measurement === null || measurement.heartRate === 0 || measurement.sensorContact === false) return;
  const strap = getSnapshot().strap;
  if (strap) publishStrap({ ...strap, lastHeartRate: measurement.heartRate });
  const now = Date.now();
  if (now - lastQueuedAt < HEART_RATE_EVERY_MS) return;
  lastQueuedAt = now;
  const measuredAt = new Date(Math.floor(now / 1000) * 1000).toISOString();
  void enqueue([{ key: readingKey(VIRTUAL_SOURCE, 'HEART_RATE', measuredAt), measure: 'HEART_RATE', value: measurement.heartRate, measuredAt }]);
}

/**
 * Pairs any watch or strap offering the standard Heart Rate service (0x180D) and queues its heart
 * rate (0x2A37 notifications). Rejects with 'bluetoothOff' or 'notSupported' for the spec's messages.
 */
export async function pairHeartRateStrap(): Promise<void> {
  const api = bluetooth();
  if (!api) throw new Error('notSupported');
  if (api.getAvailability && !(await api.getAvailability())) {
    strapEvent('bluetoothOff');
    throw new Error('bluetoothOff');
  }
  const chosen = await api.requestDevice({ filters: [{ services: ['heart_rate'] }] });
  device = chosen;
  strapEvent('pair', chosen.name ?? '');
  chosen.addEventListener('gattserverdisconnected', () => {
    strapEvent('connectionLost');
  });
  if (!chosen.gatt) throw new Error('notSupported');
  const server = await chosen.gatt.connect();
  const service = await server.getPrimaryService('heart_rate');
  const characteristic = await service.getCharacteristic('heart_rate_measurement');
  characteristic.addEventListener('characteristicvaluechanged', onMeasurement);
  await characteristic.startNotifications();
  strapEvent('connected');
}

export function forgetStrap(): void {
  device?.gatt?.disconnect();
  device = undefined;
  log('bluetooth strap removed');
  publishStrap(null);
}
