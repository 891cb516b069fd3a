import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ClaimedBatch, QueuedReading, QueueStorage } from './sync-queue';

/** What the app keeps about watches on the phone: the sync queue, a few settings and the device log. */
interface DeviceDb extends DBSchema {
  readings: { key: string; value: QueuedReading & { batchId: string; seq: number }; indexes: { bySeq: number } };
  meta: { key: string; value: unknown };
  log: { key: number; value: { at: string; message: string } };
}

/**
 * One database per account on the phone: readings queued for one patient can never be sent
 * under another's session (a shared phone, a sign-out while offline). Set at sign-in by the
 * shell, cleared when it closes.
 */
let owner: string | null = null;
let opened: Promise<IDBPDatabase<DeviceDb>> | undefined;
/** Calls made before the shell names the account (a screen drawn first) wait for it. */
let waiting: (() => void)[] = [];

export function setDeviceOwner(accountId: string | null): void {
  if (accountId === owner) return;
  const previous = opened;
  opened = undefined;
  owner = accountId;
  void previous?.then((db) => { db.close(); }).catch(() => undefined);
  if (accountId !== null) {
    for (const resume of waiting) resume();
    waiting = [];
  }
}

export async function deviceDb(): Promise<IDBPDatabase<DeviceDb>> {
  while (owner === null) await new Promise<void>((resolve) => waiting.push(resolve));
  opened ??= openDB<DeviceDb>(`rpm-devices:${owner}`, 1, {
    upgrade(db) {
      db.createObjectStore('readings', { keyPath: 'key' }).createIndex('bySeq', 'seq');
      db.createObjectStore('meta');
      db.createObjectStore('log', { autoIncrement: true });
    },
  });
  return opened;
}

let sequence = 0;
const nextSeq = () => Date.now() * 1000 + (sequence++ % 1000);
const strip = ({ batchId: _batchId, seq: _seq, ...reading }: QueuedReading & { batchId: string; seq: number }): QueuedReading => reading;

/** The sync queue in IndexedDB: it outlives reloads, restarts and offline hours. */
export function indexedDbQueueStorage(): QueueStorage {
  return {
    async add(incoming) {
      const tx = (await deviceDb()).transaction('readings', 'readwrite');
      let added = 0;
      for (const reading of incoming) {
        if ((await tx.store.getKey(reading.key)) !== undefined) continue;
        await tx.store.put({ ...reading, batchId: '', seq: nextSeq() });
        added += 1;
      }
      await tx.done;
      return added;
    },
    async pending() {
      const db = await deviceDb();
      const batchId = (await db.get('meta', 'pendingBatch')) as string | undefined;
      if (batchId === undefined) return null;
      const all = await db.getAllFromIndex('readings', 'bySeq');
      return { batchId, readings: all.filter((reading) => reading.batchId === batchId).map(strip) };
    },
    async claim(batchId, limit) {
      const tx = (await deviceDb()).transaction(['readings', 'meta'], 'readwrite');
      const claimed: ClaimedBatch = { batchId, readings: [] };
      let cursor = await tx.objectStore('readings').index('bySeq').openCursor();
      while (cursor && claimed.readings.length < limit) {
        if (cursor.value.batchId === '') {
          await cursor.update({ ...cursor.value, batchId });
          claimed.readings.push(strip(cursor.value));
        }
        cursor = await cursor.continue();
      }
      if (claimed.readings.length > 0) await tx.objectStore('meta').put(batchId, 'pendingBatch');
      await tx.done;
      return claimed.readings.length === 0 ? null : claimed;
    },
    async complete(batchId, at) {
      const tx = (await deviceDb()).transaction(['readings', 'meta'], 'readwrite');
      let cursor = await tx.objectStore('readings').openCursor();
      while (cursor) {
        if (cursor.value.batchId === batchId) await cursor.delete();
        cursor = await cursor.continue();
      }
      const meta = tx.objectStore('meta');
      if ((await meta.get('pendingBatch')) === batchId) await meta.delete('pendingBatch');
      await meta.put(at, 'lastSync');
      await tx.done;
    },
    async size() {
      return (await deviceDb()).count('readings');
    },
    async lastSync() {
      return ((await (await deviceDb()).get('meta', 'lastSync')) as string | undefined) ?? null;
    },
  };
}

export async function readMeta<T>(key: string): Promise<T | undefined> {
  return (await (await deviceDb()).get('meta', key)) as T | undefined;
}

export async function writeMeta(key: string, value: unknown): Promise<void> {
  const db = await deviceDb();
  if (value === undefined) await db.delete('meta', key);
  else await db.put('meta', value, key);
}

/** The most recent entries kept in the device log. */
const LOG_LIMIT = 2000;

export async function appendLog(message: string, at = new Date().toISOString()): Promise<void> {
  const db = await deviceDb();
  await db.add('log', { at, message });
  const count = await db.count('log');
  if (count > LOG_LIMIT) {
    const tx = db.transaction('log', 'readwrite');
    let cursor = await tx.store.openCursor();
    for (let extra = count - LOG_LIMIT; cursor && extra > 0; extra -= 1) {
      await cursor.delete();
      cursor = await cursor.continue();
    }
    await tx.done;
  }
}

export async function readLog(): Promise<{ at: string; message: string }[]> {
  return (await deviceDb()).getAll('log');
}
