import { BATCH_MINUTES, createProfile, createRandom, generateBatch, type SimulatedReading } from '@rpm/vitals-sim';
import { readingKey, type QueuedReading } from './sync-queue';

/** The virtual watch's readings are sent with this source (a watch's data, spec §3 data source). */
export const VIRTUAL_SOURCE = 'WIRELESS_DEVICE';
const WINDOW_MS = BATCH_MINUTES * 60_000;

export interface VirtualWatchState {
  seed: number;
  /** Readings measured up to (and at) this instant were handed out already (ms since the epoch). */
  emittedUntil: number;
}

/** A new virtual watch starting now: its first reading is the current minute's. */
export function newVirtualWatch(seed: number, now: number): VirtualWatchState {
  return { seed, emittedUntil: Math.floor(now / 60_000) * 60_000 - 1 };
}

/** The simulator's readings of one 15-minute window: the same seed and window give the same values. */
function windowReadings(seed: number, windowStart: number, utcOffsetMinutes: number): SimulatedReading[] {
  const profile = createProfile(seed, utcOffsetMinutes);
  const random = createRandom((seed * 7919 + windowStart / WINDOW_MS) >>> 0);
  return generateBatch(profile, random, new Date(windowStart)).readings;
}

/**
 * The readings the watch measured after `emittedUntil` and up to `now` (the simulator's vitals,
 * window by window), and the watch's new state. Ticking often or rarely gives the same readings.
 */
export function readingsUntil(
  watch: VirtualWatchState,
  now: number,
  utcOffsetMinutes = 420,
): { readings: QueuedReading[]; watch: VirtualWatchState } {
  if (now <= watch.emittedUntil) return { readings: [], watch };
  const readings: QueuedReading[] = [];
  for (let start = Math.floor((watch.emittedUntil + 1) / WINDOW_MS) * WINDOW_MS; start <= now; start += WINDOW_MS) {
    for (const reading of windowReadings(watch.seed, start, utcOffsetMinutes)) {
      const at = reading.measuredAt.getTime();
      if (at <= watch.emittedUntil || at > now) continue;
      const measuredAt = reading.measuredAt.toISOString();
      readings.push({ key: readingKey(VIRTUAL_SOURCE, reading.measure, measuredAt), measure: reading.measure, value: reading.value, measuredAt });
    }
  }
  readings.sort((a, b) => a.measuredAt.localeCompare(b.measuredAt));
  return { readings, watch: { ...watch, emittedUntil: now } };
}
