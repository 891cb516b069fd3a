import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minorToDecimal, priceCart, type CartCoupon, type CartLine } from './orders.js';

const lineArbitrary: fc.Arbitrary<CartLine> = fc.record({ unitMinor: fc.integer({ min: 0, max: 50_000_000 }), quantity: fc.integer({ min: 1, max: 12 }) });
const couponArbitrary: fc.Arbitrary<CartCoupon | null> = fc.option(
  fc.oneof(
    fc.record({ kind: fc.constant('PERCENT' as const), value: fc.integer({ min: 1, max: 10_000 }) }),
    fc.record({ kind: fc.constant('AMOUNT' as const), value: fc.integer({ min: 1, max: 900_000_000 }) }),
  ),
  { nil: null },
);
const taxArbitrary = fc.integer({ min: 0, max: 10_000 });
const big = (value: number) => BigInt(value);
const abs = (value: bigint) => (value < 0n ? -value : value);

describe('priceCart', () => {
  it('never loses or invents a minor unit, for any cart, coupon and tax rate', () => {
    fc.assert(
      fc.property(fc.array(lineArbitrary, { minLength: 1, maxLength: 5 }), couponArbitrary, taxArbitrary, (lines, coupon, tax) => {
        const priced = priceCart(lines, coupon, tax);
        const all = [priced.subtotalMinor, priced.discountMinor, priced.taxMinor, priced.totalMinor, ...priced.lines.flatMap((line) => [line.grossMinor, line.discountMinor, line.amountMinor])];
        for (const value of all) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        // The lines add up to the order, exactly.
        expect(priced.lines.reduce((sum, line) => sum + line.grossMinor, 0)).toBe(priced.subtotalMinor);
        expect(priced.lines.reduce((sum, line) => sum + line.discountMinor, 0)).toBe(priced.discountMinor);
        for (const line of priced.lines) {
          expect(line.discountMinor).toBeLessThanOrEqual(line.grossMinor);
          expect(line.amountMinor).toBe(line.grossMinor - line.discountMinor);
        }
        expect(priced.totalMinor).toBe(priced.subtotalMinor - priced.discountMinor + priced.taxMinor);
        // The discount is the coupon's, rounded to the nearest unit, and never more than the subtotal.
        expect(priced.discountMinor).toBeLessThanOrEqual(priced.subtotalMinor);
        if (coupon === null) expect(priced.discountMinor).toBe(0);
        else if (coupon.kind === 'AMOUNT') expect(priced.discountMinor).toBe(Math.min(coupon.value, priced.subtotalMinor));
        else expect(abs(big(priced.discountMinor) * 10_000n - big(priced.subtotalMinor) * big(coupon.value))).toBeLessThanOrEqual(5_000n);
        // The tax is the rate on what is left, to the nearest unit.
        const taxable = priced.subtotalMinor - priced.discountMinor;
        expect(abs(big(priced.taxMinor) * 10_000n - big(taxable) * big(tax))).toBeLessThanOrEqual(5_000n);
        // A line's share of the discount is its proportion, within one unit.
        if (priced.subtotalMinor > 0)
          for (const line of priced.lines)
            expect(abs(big(line.discountMinor) * big(priced.subtotalMinor) - big(line.grossMinor) * big(priced.discountMinor))).toBeLessThan(big(priced.subtotalMinor));
      }),
      { numRuns: 2000 },
    );
  });

  it('prices the spec’s Basic 6 months with 10 % tax and a 15 % coupon', () => {
    // 6 × 14 000 ₫ = 84 000; 15 % off = 12 600; 10 % tax on 71 400 = 7 140.
    const priced = priceCart([{ unitMinor: 84_000, quantity: 1 }], { kind: 'PERCENT', value: 1_500 }, 1_000);
    expect(priced).toEqual({ lines: [{ grossMinor: 84_000, discountMinor: 12_600, amountMinor: 71_400 }], subtotalMinor: 84_000, discountMinor: 12_600, taxMinor: 7_140, totalMinor: 78_540 });
  });

  it('splits a discount that does not divide evenly, remainders to the largest fractions', () => {
    const priced = priceCart(
      [
        { unitMinor: 1, quantity: 1 },
        { unitMinor: 1, quantity: 1 },
        { unitMinor: 1, quantity: 1 },
      ],
      { kind: 'AMOUNT', value: 2 },
      0,
    );
    expect(priced.lines.map((line) => line.discountMinor)).toEqual([1, 1, 0]);
    expect(priced.totalMinor).toBe(1);
  });

  it('rounds halves up', () => {
    expect(priceCart([{ unitMinor: 5, quantity: 1 }], null, 1_000).taxMinor).toBe(1); // 0.5 → 1
    expect(priceCart([{ unitMinor: 999, quantity: 1 }], { kind: 'PERCENT', value: 5_000 }, 0).discountMinor).toBe(500); // 499.5 → 500
  });
});

describe('minorToDecimal', () => {
  it('writes minor units with the currency’s decimals', () => {
    expect(minorToDecimal(84_000, 'VND')).toBe('84000');
    expect(minorToDecimal(999, 'USD')).toBe('9.99');
    expect(minorToDecimal(5, 'CAD')).toBe('0.05');
    expect(minorToDecimal(-1_250, 'USD')).toBe('-12.50');
  });
});
