import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { boolArray, float8Array, int4Array, textArray, timestamptzArray } from './binary-array.js';

// Each array sent in binary must be read by PostgreSQL as the same values sent as text (pg's own
// array literal), element for element.
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

async function sameAsText(type: string, binary: Buffer, text: unknown[]): Promise<{ same: boolean; read: string }> {
  const result = await client.query<{ same: boolean; read: string }>(
    `SELECT $1::${type}[] IS NOT DISTINCT FROM $2::${type}[] AS same, $1::${type}[]::text AS read`,
    [binary, text],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('no row');
  return row;
}

const RUNS = { numRuns: 60 };

describe('binary arrays', () => {
  it('float8[]: every double, NaN and the infinities read as their text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double(), { maxLength: 40 }), async (values) => {
        const text = values.map((value) => (Number.isNaN(value) ? 'NaN' : Object.is(value, -0) ? '-0' : String(value)));
        expect((await sameAsText('float8', float8Array(values), text)).same).toBe(true);
      }),
      RUNS,
    );
    expect((await sameAsText('float8', float8Array([36.6, -0.5, 1e-300]), ['36.6', '-0.5', '1e-300'])).read).toBe(
      '{36.6,-0.5,1e-300}',
    );
  });

  it('timestamptz[]: instants in milliseconds, before 1970 and 2000 too, read as their ISO text', async () => {
    const instant = fc.integer({ min: Date.UTC(-4000, 0, 1), max: Date.UTC(9999, 11, 31) });
    // Instants past 2285 are past 2^53 microseconds from 2000: the halves must still be exact.
    await fc.assert(
      fc.asyncProperty(fc.array(instant, { maxLength: 40 }), async (instants) => {
        const text = instants.map((ms) => {
          const iso = new Date(ms).toISOString();
          // Years before 1 AD: PostgreSQL reads "BC" (year 0 is 1 BC), not ISO's signed years.
          if (!iso.startsWith('-') && !iso.startsWith('0000')) return iso;
          const year = Number(iso.slice(0, iso.indexOf('-', 1)));
          return `${String(1 - year).padStart(4, '0')}${iso.slice(iso.indexOf('-', 1))} BC`;
        });
        expect((await sameAsText('timestamptz', timestamptzArray(instants), text)).same).toBe(true);
      }),
      RUNS,
    );
    const epochs = await client.query<{ ms: string[] }>(
      `SELECT ARRAY(SELECT (extract(epoch FROM at) * 1000)::bigint::text FROM unnest($1::timestamptz[]) at) AS ms`,
      [timestamptzArray([0, 946_684_800_000, 1_764_479_106_007, -1, 9_953_884_054_741, Date.UTC(200_000, 0, 1)])],
    );
    expect(epochs.rows[0]?.ms).toEqual(['0', '946684800000', '1764479106007', '-1', '9953884054741', String(Date.UTC(200_000, 0, 1))]);
    expect(() => timestamptzArray([1.5])).toThrow(RangeError);
    expect(() => timestamptzArray([8.64e15 + 1])).toThrow(RangeError);
    expect(() => timestamptzArray([Number.NaN])).toThrow(RangeError);
  });

  it('text[]: any text, Vietnamese and emoji included, read as itself', async () => {
    const noNul = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(fc.array(noNul, { maxLength: 30 }), async (values) => {
        expect((await sameAsText('text', textArray(values), values)).same).toBe(true);
      }),
      RUNS,
    );
    const read = await client.query<{ values: string[] }>('SELECT $1::text[] AS values', [
      textArray(['HEART_RATE', 'Nguyễn Thị', '🫀', '', 'a,b"{c}']),
    ]);
    expect(read.rows[0]?.values).toEqual(['HEART_RATE', 'Nguyễn Thị', '🫀', '', 'a,b"{c}']);
  });

  it('int4[] and boolean[], and empty arrays of every type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 })), fc.array(fc.boolean()), async (numbers, flags) => {
        expect((await sameAsText('int4', int4Array(numbers), numbers)).same).toBe(true);
        expect((await sameAsText('boolean', boolArray(flags), flags)).same).toBe(true);
      }),
      RUNS,
    );
    const empty = await client.query<Record<string, number | null>>(
      `SELECT cardinality($1::float8[]) AS f, cardinality($2::int4[]) AS i, cardinality($3::boolean[]) AS b,
              cardinality($4::timestamptz[]) AS t, cardinality($5::text[]) AS x`,
      [float8Array([]), int4Array([]), boolArray([]), timestamptzArray([]), textArray([])],
    );
    expect(empty.rows[0]).toEqual({ f: 0, i: 0, b: 0, t: 0, x: 0 });
  });

  it('is refused when cast to another element type than its header names', async () => {
    await expect(client.query('SELECT $1::float8[]', [int4Array([1])])).rejects.toThrow(/element type 23 \(integer\) instead of expected 701/);
  });
});
