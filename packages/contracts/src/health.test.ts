import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectorBatchSchema,
  DEFAULT_LATE_DATA_HORIZON_MINUTES,
  FUTURE_SKEW_MS,
  isLateReading,
  itemTimeProblem,
  READING_MAX_AGE_MS,
  type CollectorBatch,
} from './health.js';
import { normalizedBatchText } from './batch-text.js';

const now = new Date('2026-06-01T12:00:00Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

describe('the time rule of every item', () => {
  const account = at(-30 * 24 * 3_600_000);
  it.each<[string, Date, Date | null, string | null]>([
    ['now', now, account, null],
    ['within the clock skew', at(FUTURE_SKEW_MS), account, null],
    ['beyond the clock skew', at(FUTURE_SKEW_MS + 1), account, 'health.futureDate'],
    ['exactly a year old', at(-READING_MAX_AGE_MS), null, null],
    ['a year and a millisecond old', at(-READING_MAX_AGE_MS - 1), null, 'health.tooOld'],
    ['1900-01-01', new Date('1900-01-01T00:00:00Z'), account, 'health.tooOld'],
    ['at the account creation', account, account, null],
    ['a millisecond before the account', new Date(account.getTime() - 1), account, 'health.beforeMonitoring'],
  ])('%s', (_, time, monitoredSince, expected) => {
    expect(itemTimeProblem(time, { now, monitoredSince })).toBe(expected);
  });
});

describe('the late-data rule', () => {
  it('is late strictly beyond the horizon (default 2 hours)', () => {
    expect(DEFAULT_LATE_DATA_HORIZON_MINUTES).toBe(120);
    expect(isLateReading(at(-120 * 60_000), now, 120)).toBe(false);
    expect(isLateReading(at(-120 * 60_000 - 1), now, 120)).toBe(true);
    expect(isLateReading(at(-45 * 60_000), now, 30)).toBe(true);
    expect(isLateReading(at(60_000), now, 30)).toBe(false);
  });
});

describe('the normalized content of a batch', () => {
  const parse = (body: unknown) => collectorBatchSchema.parse(body);
  const base = {
    batchId: '01a20ee6-29b2-7cfd-8808-c4fcc53a3bac',
    readings: [{ measure: 'HEART_RATE', value: 70, measuredAt: '2026-06-01T10:00:00Z' }],
  };
  it('ignores the spelling of instants, key order, defaults, nulls, the id and the patient', () => {
    const same = parse({
      patientId: '01a20ee6-29ae-7e99-90c2-e9948af518df',
      batchId: '01a20ee6-29b1-78f9-bd1c-d12375dd4499',
      readings: [{ source: 'WIRELESS_DEVICE', measuredAt: '2026-06-01T17:00:00.000+07:00', value: 70, measure: 'HEART_RATE' }],
      ecg: [],
    });
    expect(normalizedBatchText(same)).toBe(normalizedBatchText(parse(base)));
  });
  it('differs for another value, time, measure, source or item', () => {
    const text = normalizedBatchText(parse(base));
    const variants = [
      { readings: [{ ...base.readings[0], value: 71 }] },
      { readings: [{ ...base.readings[0], measuredAt: '2026-06-01T10:00:01Z' }] },
      { readings: [{ ...base.readings[0], measure: 'SPO2' }] },
      { readings: [{ ...base.readings[0], source: 'MANUAL' }] },
      { readings: [...base.readings, ...base.readings] },
      { events: [{ type: 'FALL', at: '2026-06-01T10:00:00Z' }] },
    ];
    for (const variant of variants) expect(normalizedBatchText(parse({ ...base, ...variant }))).not.toBe(text);
  });
});

/** The normalized copy that the stored content hashes of earlier deliveries were made from (JSON.stringify of it). */
const INSTANT_KEYS = new Set(['measuredAt', 'startAt', 'endAt', 'at', 'from', 'to']);
function normalizedCopy(key: string, value: unknown): unknown {
  if (typeof value === 'string' && INSTANT_KEYS.has(key)) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : new Date(time).toISOString();
  }
  if (Array.isArray(value)) return value.map((item) => normalizedCopy('', item));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined && inner !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([inner, innerValue]) => [inner, normalizedCopy(inner, innerValue)]);
    return Object.fromEntries(entries);
  }
  return value;
}

describe('the normalized text, written in one pass', () => {
  it('is byte for byte the JSON of the normalized copy, so earlier deliveries still compare equal (property)', () => {
    const instant = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .chain((date) => fc.constantFrom(date.toISOString(), date.toISOString().replace('Z', '+07:00'), String(date.getTime())));
    // Texts in the canonical form that the parse moves or refuses: a day past the month's end,
    // hour 24, minute 60, a leap day of a common year, month 13.
    const rolled = fc.constantFrom(
      '2026-02-30T00:00:00.000Z',
      '2026-02-29T10:00:00.000Z',
      '2024-02-29T10:00:00.000Z',
      '2026-04-31T23:59:59.999Z',
      '2026-01-31T12:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T23:60:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
    );
    const leaf = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), instant, rolled);
    // Keys include instants' names and array-index-like keys, which JSON.stringify orders first.
    const key = fc.oneof(fc.constantFrom('measuredAt', 'at', 'startAt', 'value', '0', '2', '10', '01', 'b', 'a'), fc.string());
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node')), fc.dictionary(key, tie('node'))),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, node), (content) => {
        const batch = { batchId: '01a20ee6-29b2-7cfd-8808-c4fcc53a3bac', ...content } as unknown as CollectorBatch;
        const { batchId: _batchId, patientId: _patientId, ...rest } = batch;
        expect(normalizedBatchText(batch)).toBe(JSON.stringify(normalizedCopy('', rest)));
      }),
      { numRuns: 500 },
    );
  }, 30_000);
});
