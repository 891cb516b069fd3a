import { describe, expect, it } from 'vitest';
import {
  basisPointsToPercent,
  couponDays,
  couponInputOf,
  emptyCouponValues,
  percentToBasisPoints,
  type CouponFormValues,
} from './coupon-form-values';

const ZONE = 'Asia/Ho_Chi_Minh';
const percentCoupon: CouponFormValues = {
  ...emptyCouponValues(),
  code: ' welcome15 ',
  percent: '12.5',
  validFrom: '01/01/2026',
  validTo: '31/01/2026',
};

describe('coupon values', () => {
  it('turns a percentage into basis points and back', () => {
    expect(percentToBasisPoints('15')).toBe(1500);
    expect(percentToBasisPoints('12.5')).toBe(1250);
    expect(percentToBasisPoints('12,25')).toBe(1225);
    expect(percentToBasisPoints('0.01')).toBe(1);
    expect(percentToBasisPoints('100')).toBe(10_000);
    expect(percentToBasisPoints('12.345')).toBeNull();
    expect(percentToBasisPoints('-5')).toBeNull();
    expect(percentToBasisPoints('')).toBeNull();
    expect(basisPointsToPercent(1500)).toBe('15');
    expect(basisPointsToPercent(1250)).toBe('12.5');
    expect(basisPointsToPercent(1225)).toBe('12.25');
    expect(basisPointsToPercent(1)).toBe('0.01');
    expect(basisPointsToPercent(10_000)).toBe('100');
  });
});

describe('coupon form payload', () => {
  it('sends a percentage in basis points, whole days in the zone, unlimited uses as -1', () => {
    expect(couponInputOf(percentCoupon, ZONE).input).toEqual({
      code: 'WELCOME15',
      kind: 'PERCENT',
      value: 1250,
      currency: null,
      // Midnight in Ho Chi Minh City (UTC+7), and the midnight after the last day.
      validFrom: '2025-12-31T17:00:00.000Z',
      validTo: '2026-01-31T17:00:00.000Z',
      maxUses: -1,
      enabled: true,
    });
  });

  it('sends an amount in minor units of its currency, and a number of uses', () => {
    const dollars = couponInputOf(
      {
        ...percentCoupon,
        kind: 'AMOUNT',
        amount: '9.99',
        currency: 'USD',
        isUnlimited: false,
        maxUses: '20',
      },
      'UTC',
    );
    expect(dollars.input).toMatchObject({
      kind: 'AMOUNT',
      value: 999,
      currency: 'USD',
      maxUses: 20,
      validFrom: '2026-01-01T00:00:00.000Z',
    });
    const dong = couponInputOf({ ...percentCoupon, kind: 'AMOUNT', amount: '20000', currency: 'VND' }, ZONE);
    expect(dong.input).toMatchObject({ value: 20_000, currency: 'VND' });
  });

  it('names every broken rule by its field', () => {
    const result = couponInputOf(
      {
        ...emptyCouponValues(),
        code: 'a!',
        percent: '120',
        validFrom: '30/02/2026',
        isUnlimited: false,
        maxUses: '0',
      },
      ZONE,
    );
    expect(result.messages).toEqual({
      code: { key: 'payments:transactions.coupons.form.problems.code' },
      percent: { key: 'payments:transactions.coupons.form.problems.percent' },
      validFrom: { key: 'payments:transactions.coupons.form.problems.dateInvalid' },
      validTo: { key: 'payments:transactions.coupons.form.problems.date' },
      maxUses: { key: 'payments:transactions.coupons.form.problems.maxUses' },
    });
    expect(couponInputOf({ ...percentCoupon, percent: '0' }, ZONE).messages).toHaveProperty('percent');
    expect(couponInputOf({ ...percentCoupon, validTo: '31/12/2025' }, ZONE).messages).toEqual({
      validTo: { key: 'payments:transactions.coupons.form.problems.order' },
    });
  });

  it('says how many decimals an amount may have in its currency', () => {
    expect(
      couponInputOf({ ...percentCoupon, kind: 'AMOUNT', amount: '9.999', currency: 'USD' }, ZONE).messages,
    ).toEqual({
      amount: { key: 'payments:transactions.coupons.form.problems.amount', values: { decimals: 2 } },
    });
    expect(
      couponInputOf({ ...percentCoupon, kind: 'AMOUNT', amount: '1.5', currency: 'VND' }, ZONE).messages,
    ).toEqual({
      amount: { key: 'payments:transactions.coupons.form.problems.amountWhole' },
    });
  });

  it('shows a coupon’s validity as the whole days it covers', () => {
    const input = couponInputOf(percentCoupon, ZONE).input;
    if (input === undefined) throw new Error('refused');
    expect(couponDays(input, ZONE)).toEqual({ first: '2026-01-01', last: '2026-01-31' });
  });
});
