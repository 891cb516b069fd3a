import { describe, expect, it } from 'vitest';
import { BATCH_LIMIT, memoryQueueStorage, readingKey, syncQueue, type ClaimedBatch, type QueuedReading, type SendOutcome } from './sync-queue';

const reading = (minute: number): QueuedReading => {
  const measuredAt = new Date(Date.UTC(2026, 10, 24, 8, minute)).toISOString();
  return { key: readingKey('WIRELESS_DEVICE', 'HEART_RATE', measuredAt), measure: 'HEART_RATE', value: 60 + (minute % 30), measuredAt };
};
const minutes = (count: number, from = 0) => Array.from({ length: count }, (_, index) => reading(from + index));

/** A collector that stores each batch id once (replays answer the first answer), like the server. */
function fakeCollector() {
  const stored = new Map<string, QueuedReading>();
  const batches = new Set<string>();
  const calls: ClaimedBatch[] = [];
  let online = true;
  return {
    stored,
    calls,
    setOnline: (value: boolean) => (online = value),
    send: (batch: ClaimedBatch): Promise<SendOutcome> => {
      calls.push(batch);
      if (!online) return Promise.resolve('retryLater');
      if (!batches.has(batch.batchId)) {
        batches.add(batch.batchId);
        for (const item of batch.readings) stored.set(item.key, item);
      }
      return Promise.resolve('stored');
    },
  };
}

let counter = 0;
const options = { newBatchId: () => `batch-${String(++counter)}`, now: () => '2026-11-24T09:00:00.000Z' };

describe('the sync queue', () => {
  it('queues a reading once, sends it, and empties only after the server answered', async () => {
    const storage = memoryQueueStorage();
    expect(await storage.add([...minutes(3), reading(1)])).toBe(3);
    const collector = fakeCollector();
    const result = await syncQueue(storage, collector.send, options);
    expect(result).toEqual({ sent: 1, readings: 3, interrupted: false });
    expect(collector.stored.size).toBe(3);
    expect(await storage.size()).toBe(0);
    expect(await storage.lastSync()).toBe('2026-11-24T09:00:00.000Z');
  });

  it('keeps everything while offline and resends the same batch id with the same readings', async () => {
    const storage = memoryQueueStorage();
    const collector = fakeCollector();
    collector.setOnline(false);
    await storage.add(minutes(10));
    expect((await syncQueue(storage, collector.send, options)).interrupted).toBe(true);
    await storage.add(minutes(5, 10));
    expect((await syncQueue(storage, collector.send, options)).interrupted).toBe(true);
    expect(await storage.size()).toBe(15);
    expect(await storage.lastSync()).toBeNull();
    // Both offline attempts carried the same batch: the ten readings claimed first.
    expect(collector.calls.map((call) => call.batchId)).toEqual([collector.calls[0]?.batchId, collector.calls[0]?.batchId]);
    expect(collector.calls[1]?.readings).toEqual(collector.calls[0]?.readings);

    collector.setOnline(true);
    const result = await syncQueue(storage, collector.send, options);
    expect(result).toEqual({ sent: 2, readings: 15, interrupted: false });
    expect([...collector.stored.keys()].sort()).toEqual(minutes(15).map((item) => item.key).sort());
    expect(await storage.size()).toBe(0);
  });

  it('loses nothing and doubles nothing when the answer is lost after the server stored the batch', async () => {
    const storage = memoryQueueStorage();
    const collector = fakeCollector();
    await storage.add(minutes(4));
    // The server stores the batch but the answer never arrives.
    const lostAnswer = async (batch: ClaimedBatch): Promise<SendOutcome> => {
      await collector.send(batch);
      return 'retryLater';
    };
    await syncQueue(storage, lostAnswer, options);
    expect(await storage.size()).toBe(4);
    await syncQueue(storage, collector.send, options);
    expect(collector.calls).toHaveLength(2);
    expect(collector.calls[1]?.batchId).toBe(collector.calls[0]?.batchId);
    expect(collector.stored.size).toBe(4);
    expect(await storage.size()).toBe(0);
  });

  it('sends a long backlog in batches of at most the limit', async () => {
    const storage = memoryQueueStorage();
    const collector = fakeCollector();
    await storage.add(minutes(BATCH_LIMIT + 20));
    const result = await syncQueue(storage, collector.send, options);
    expect(collector.calls.map((call) => call.readings.length)).toEqual([BATCH_LIMIT, 20]);
    expect(result.readings).toBe(BATCH_LIMIT + 20);
  });

  it('drops a batch the server refuses as a whole, reporting it, and goes on', async () => {
    const storage = memoryQueueStorage();
    await storage.add(minutes(2));
    const refused: ClaimedBatch[] = [];
    const result = await syncQueue(storage, () => Promise.resolve('refused'), { ...options, onRefused: (batch) => refused.push(batch) });
    expect(result.sent).toBe(1);
    expect(refused[0]?.readings).toHaveLength(2);
    expect(await storage.size()).toBe(0);
  });
});
