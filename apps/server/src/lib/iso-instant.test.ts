import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from './iso-instant.js';

describe('isoInstant', () => {
  it('writes what toISOString writes, for any valid instant (property)', () => {
    const instant = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: 1.6e12, max: 2.0e12 }),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
      fc.constantFrom(0, -1, 1, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001, 86_399_999, 86_400_000),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 5 }), (instants) => {
        // Several in a row: the day written last must not leak into the next.
        for (const ms of instants) expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('throws for an invalid instant, as toISOString does', () => {
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
    expect(() => isoInstant(8.64e15 + 1)).toThrow(RangeError);
  });
});
