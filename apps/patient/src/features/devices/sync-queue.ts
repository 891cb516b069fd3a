/**
 * The sync queue: readings from the watches wait here (IndexedDB in the app, memory in tests) until
 * the server has stored them. A batch is claimed with a fresh batchId and kept, with that id, until
 * the server answers; a failed send is retried later with the same id and the same readings, and
 * the collector answers a repeated batch with its first answer. So nothing is lost and nothing is
 * stored twice, however often the phone goes offline.
 */

/** One reading in the tenant's device units, as the collector takes it. */
export interface QueuedReading {
  /** source, measure and time: the same reading from the watch twice is queued once. */
  key: string;
  measure: string;
  value: number;
  measuredAt: string;
  /** The server device it came from (a bound watch); none for the virtual watch or a strap. */
  deviceId?: string | undefined;
}

export interface ClaimedBatch {
  batchId: string;
  readings: QueuedReading[];
}

/** Where the queue keeps its readings; each method is one atomic step. */
export interface QueueStorage {
  /** Adds readings not queued yet (by key); resolves to how many were added. */
  add(readings: readonly QueuedReading[]): Promise<number>;
  /** The batch claimed earlier and not yet confirmed, if any. */
  pending(): Promise<ClaimedBatch | null>;
  /** Claims up to `limit` of the oldest unclaimed readings as the batch `batchId` (null when none wait). */
  claim(batchId: string, limit: number): Promise<ClaimedBatch | null>;
  /** The server stored the batch: its readings leave the queue and the last sync time is set. */
  complete(batchId: string, at: string): Promise<void>;
  /** Readings waiting, claimed or not. */
  size(): Promise<number>;
  lastSync(): Promise<string | null>;
}

export const readingKey = (source: string, measure: string, measuredAt: string) => `${source}|${measure}|${measuredAt}`;

/** Readings per POST: well under the collector's 5,000 items. */
export const BATCH_LIMIT = 500;

export type SendOutcome = 'stored' | 'retryLater' | 'refused';

export interface SyncResult {
  /** Batches the server answered (stored, or refused as a whole). */
  sent: number;
  readings: number;
  /** The network or server failed: what was not sent waits for the next sync. */
  interrupted: boolean;
}

/**
 * Sends everything waiting, batch by batch: first the batch left over from an interrupted sync
 * (same id, same readings), then new ones. `send` says whether the server stored the batch, the
 * call should be retried later (offline, server error), or the server refused the batch as a whole
 * (it is dropped and reported through `onRefused`, so one bad batch cannot block the queue).
 */
export async function syncQueue(
  storage: QueueStorage,
  send: (batch: ClaimedBatch) => Promise<SendOutcome>,
  options: { newBatchId: () => string; now: () => string; onRefused?: (batch: ClaimedBatch) => void },
): Promise<SyncResult> {
  const result: SyncResult = { sent: 0, readings: 0, interrupted: false };
  for (;;) {
    const batch = (await storage.pending()) ?? (await storage.claim(options.newBatchId(), BATCH_LIMIT));
    if (batch === null || batch.readings.length === 0) return result;
    const outcome = await send(batch);
    if (outcome === 'retryLater') return { ...result, interrupted: true };
    if (outcome === 'refused') options.onRefused?.(batch);
    await storage.complete(batch.batchId, options.now());
    result.sent += 1;
    result.readings += batch.readings.length;
  }
}

/** The queue in memory: the same rules as the IndexedDB one (unit tests, and browsers without IndexedDB). */
export function memoryQueueStorage(): QueueStorage {
  const readings = new Map<string, QueuedReading & { batchId: string | null; order: number }>();
  let pendingId: string | null = null;
  let last: string | null = null;
  let order = 0;
  const ofBatch = (batchId: string) =>
    [...readings.values()].filter((reading) => reading.batchId === batchId).sort((a, b) => a.order - b.order);
  const strip = ({ batchId: _batchId, order: _order, ...reading }: QueuedReading & { batchId: string | null; order: number }) => reading;
  return {
    add: (incoming) => {
      let added = 0;
      for (const reading of incoming) {
        if (readings.has(reading.key)) continue;
        readings.set(reading.key, { ...reading, batchId: null, order: order++ });
        added += 1;
      }
      return Promise.resolve(added);
    },
    pending: () => Promise.resolve(pendingId === null ? null : { batchId: pendingId, readings: ofBatch(pendingId).map(strip) }),
    claim: (batchId, limit) => {
      const free = [...readings.values()].filter((reading) => reading.batchId === null).sort((a, b) => a.order - b.order).slice(0, limit);
      if (free.length === 0) return Promise.resolve(null);
      for (const reading of free) reading.batchId = batchId;
      pendingId = batchId;
      return Promise.resolve({ batchId, readings: free.map(strip) });
    },
    complete: (batchId, at) => {
      for (const reading of ofBatch(batchId)) readings.delete(reading.key);
      if (pendingId === batchId) pendingId = null;
      last = at;
      return Promise.resolve();
    },
    size: () => Promise.resolve(readings.size),
    lastSync: () => Promise.resolve(last),
  };
}
