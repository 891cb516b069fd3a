import { collectorResultSchema } from '@rpm/contracts';
import { ApiError, apiRequest } from '../../api/client';
import { newBatchId } from '../../lib/batch-id';
import { appendLog, indexedDbQueueStorage, readMeta, setDeviceOwner, writeMeta } from './device-db';
import { syncQueue, type ClaimedBatch, type QueuedReading, type SendOutcome } from './sync-queue';
import { newVirtualWatch, readingsUntil, VIRTUAL_SOURCE, type VirtualWatchState } from './virtual-watch';
import { nextWatchState, type WatchEvent, type WatchState } from './watch-state';

/**
 * The watches running in the page and the sync loop: the virtual watch ticks, the Bluetooth strap
 * notifies, their readings go into the IndexedDB queue, and the queue is sent to the collector
 * now and then, at once when the phone comes back online, and on request.
 */

/** How often the virtual watch hands over its readings, and how often the queue is sent. */
export const TICK_MS = 10_000;
export const SYNC_MS = 60_000;
/** The firmware the app offers (what an upgrade brings a watch to). */
export const LATEST_FIRMWARE = '1.2.0';
export const VIRTUAL_FIRMWARE_START = '1.0.0';

export interface LocalWatch {
  state: WatchState;
  /** The firmware version; empty when the watch does not tell it (a Bluetooth strap). */
  firmware: string;
  lastHeartRate: number | null;
  /** 0 to 100 while upgrading. */
  upgradeProgress: number | null;
}

export interface DevicesSnapshot {
  queued: number;
  lastSync: string | null;
  syncing: boolean;
  /** The last sync could not reach the server (offline). */
  offline: boolean;
  virtual: LocalWatch | null;
  strap: (LocalWatch & { name: string }) | null;
}

interface StoredVirtual {
  watch: VirtualWatchState;
  firmware: string;
}

const storage = indexedDbQueueStorage();
let snapshot: DevicesSnapshot = { queued: 0, lastSync: null, syncing: false, offline: false, virtual: null, strap: null };
const listeners = new Set<() => void>();
let virtual: StoredVirtual | null = null;
let started: { owner: string; ready: Promise<void> } | undefined;
let stopLoop: (() => void) | undefined;
let syncing: Promise<void> | undefined;

function publish(change: Partial<DevicesSnapshot>) {
  snapshot = { ...snapshot, ...change };
  for (const listener of listeners) listener();
}

export const getSnapshot = () => snapshot;
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function log(message: string): void {
  void appendLog(message).catch(() => undefined);
}

async function refreshCounts() {
  publish({ queued: await storage.size(), lastSync: await storage.lastSync() });
}

/** Puts readings into the queue (a watch's notification or tick). */
export async function enqueue(readings: readonly QueuedReading[]): Promise<void> {
  if (readings.length === 0) return;
  await storage.add(readings);
  await refreshCounts();
}

function outcomeOf(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) return 'retryLater';
  // Offline, a server failure, or a session being renewed: the batch waits, same id.
  if (error.status === 0 || error.status >= 500 || error.status === 401) return 'retryLater';
  return 'refused';
}

async function send(batch: ClaimedBatch): Promise<SendOutcome> {
  const deviceIds = new Set(batch.readings.map((reading) => reading.deviceId));
  const [deviceId] = deviceIds;
  try {
    // A watch's readings belong to the account's own record, whichever profile the screen shows.
    const result = await apiRequest(
      'POST',
      '/collector/readings',
      {
        batchId: batch.batchId,
        ...(deviceIds.size === 1 && deviceId !== undefined ? { deviceId } : {}),
        readings: batch.readings.map(({ measure, value, measuredAt }) => ({ measure, value, measuredAt, source: VIRTUAL_SOURCE })),
      },
      collectorResultSchema,
      { ownRecord: true },
    );
    log(`sync: batch ${batch.batchId} ${String(result.accepted)} stored, ${String(result.duplicates)} already stored, ${String(result.rejected)} refused${result.replayed ? ' (replayed)' : ''}`);
    return 'stored';
  } catch (error) {
    const outcome = outcomeOf(error);
    log(`sync: batch ${batch.batchId} of ${String(batch.readings.length)} readings ${outcome === 'refused' ? 'refused' : 'kept for later'} (${error instanceof ApiError ? (error.code ?? String(error.status)) : 'error'})`);
    return outcome;
  }
}

/** Sends what waits in the queue (one sync at a time). */
export function syncNow(): Promise<void> {
  syncing ??= (async () => {
    publish({ syncing: true });
    try {
      await tickVirtual();
      const result = await syncQueue(storage, send, { newBatchId: () => newBatchId(), now: () => new Date().toISOString() });
      publish({ offline: result.interrupted });
    } catch {
      publish({ offline: true });
    } finally {
      await refreshCounts();
      publish({ syncing: false });
      syncing = undefined;
    }
  })();
  return syncing;
}

// The virtual watch -----------------------------------------------------------------------------

function publishVirtual(change: Partial<LocalWatch> | null) {
  publish({ virtual: change === null ? null : { ...(snapshot.virtual ?? { state: 'unpaired', firmware: VIRTUAL_FIRMWARE_START, lastHeartRate: null, upgradeProgress: null }), ...change } });
}

export function sendVirtualEvent(event: WatchEvent): void {
  if (snapshot.virtual === null) return;
  const state = nextWatchState(snapshot.virtual.state, event);
  if (state !== snapshot.virtual.state) log(`virtual watch: ${snapshot.virtual.state} → ${state} (${event})`);
  publishVirtual({ state });
}

async function tickVirtual(): Promise<void> {
  if (virtual === null || snapshot.virtual?.state !== 'connected') return;
  const { readings, watch } = readingsUntil(virtual.watch, Date.now());
  virtual = { ...virtual, watch };
  await writeMeta('virtualWatch', virtual);
  const heart = readings.filter((reading) => reading.measure === 'HEART_RATE').at(-1);
  if (heart) publishVirtual({ lastHeartRate: heart.value });
  await enqueue(readings);
}

/** Adds the virtual watch: it connects at once and its first readings are synced. */
export async function addVirtualWatch(): Promise<void> {
  virtual = { watch: newVirtualWatch(Math.floor(Math.random() * 1_000_000), Date.now()), firmware: VIRTUAL_FIRMWARE_START };
  await writeMeta('virtualWatch', virtual);
  publishVirtual({ state: 'unpaired', firmware: virtual.firmware, lastHeartRate: null, upgradeProgress: null });
  log('virtual watch added');
  sendVirtualEvent('pair');
  sendVirtualEvent('connected');
  await syncNow();
}

export async function removeVirtualWatch(): Promise<void> {
  virtual = null;
  await writeMeta('virtualWatch', undefined);
  log('virtual watch removed');
  publishVirtual(null);
}

/**
 * A simulated firmware transfer to a watch: progress in steps of 10 %, then the new version.
 * `report` sees the progress; the promise resolves when the transfer is done.
 */
export function simulateTransfer(report: (progress: number) => void, stepMs = 250): Promise<void> {
  return new Promise((resolve) => {
    let progress = 0;
    report(progress);
    const timer = setInterval(() => {
      progress += 10;
      report(progress);
      if (progress >= 100) {
        clearInterval(timer);
        resolve();
      }
    }, stepMs);
  });
}

export async function upgradeVirtualFirmware(): Promise<void> {
  if (virtual === null || snapshot.virtual?.state !== 'connected') return;
  sendVirtualEvent('upgradeStarted');
  await simulateTransfer((progress) => {
    publishVirtual({ upgradeProgress: progress });
  });
  virtual = { ...virtual, firmware: LATEST_FIRMWARE };
  await writeMeta('virtualWatch', virtual);
  publishVirtual({ firmware: LATEST_FIRMWARE, upgradeProgress: null });
  log(`virtual watch: firmware ${LATEST_FIRMWARE} installed`);
  sendVirtualEvent('upgradeFinished');
}

// The Bluetooth strap ---------------------------------------------------------------------------

export function publishStrap(strap: DevicesSnapshot['strap']): void {
  publish({ strap });
}

/**
 * Starts the loop for the signed-in account (once; again only for another account): restores its
 * virtual watch, ticks it and syncs on a timer and when back online.
 */
export function startDevices(accountId: string): Promise<void> {
  if (started?.owner === accountId) return started.ready;
  // Another account's loop (never the first start: a watch added while the profile loads stays).
  if (started !== undefined) stopDevices();
  setDeviceOwner(accountId);
  const ready = (async () => {
    const stored = await readMeta<StoredVirtual>('virtualWatch');
    if (started?.owner !== accountId) return;
    if (stored) {
      virtual = stored;
      publishVirtual({ state: 'connected', firmware: stored.firmware, lastHeartRate: null, upgradeProgress: null });
    }
    await refreshCounts();
    const tick = setInterval(() => void tickVirtual().catch(() => undefined), TICK_MS);
    const sync = setInterval(() => void syncNow(), SYNC_MS);
    const online = () => {
      log('phone online: syncing');
      void syncNow();
    };
    const offline = () => {
      log('phone offline: readings kept in the queue');
      publish({ offline: true });
    };
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    stopLoop = () => {
      clearInterval(tick);
      clearInterval(sync);
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  })();
  started = { owner: accountId, ready };
  return ready;
}

/** Stops the loop and forgets the account (sign-out): nothing more is queued or sent for it. */
export function stopDevices(): void {
  stopLoop?.();
  stopLoop = undefined;
  started = undefined;
  virtual = null;
  setDeviceOwner(null);
  publish({ queued: 0, lastSync: null, syncing: false, offline: false, virtual: null, strap: null });
}
