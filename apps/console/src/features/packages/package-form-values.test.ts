import { describe, expect, it } from 'vitest';
import { emptyPackageValues, fromMinorUnits, packageInputOf, toMinorUnits } from './package-form-values';

describe('package prices', () => {
  it('converts the major unit to integer minor units by the currency', () => {
    expect(toMinorUnits('9.99', 'USD')).toBe(999);
    expect(toMinorUnits('0.29', 'CAD')).toBe(29);
    expect(toMinorUnits('12,5', 'USD')).toBe(1250);
    expect(toMinorUnits('14000', 'VND')).toBe(14000);
    expect(toMinorUnits('1.5', 'VND')).toBeNull();
    expect(toMinorUnits('9.999', 'USD')).toBeNull();
    expect(toMinorUnits('-1', 'USD')).toBeNull();
    expect(toMinorUnits('', 'USD')).toBeNull();
  });

  it('writes minor units back in the major unit', () => {
    expect(fromMinorUnits(999, 'USD')).toBe('9.99');
    expect(fromMinorUnits(5, 'CAD')).toBe('0.05');
    expect(fromMinorUnits(14000, 'VND')).toBe('14000');
  });
});

describe('package form payload', () => {
  it('sends -1 for unlimited and integer prices', () => {
    const result = packageInputOf({
      ...emptyPackageValues(),
      code: 'GOLD_12',
      name: 'Gold',
      price: '19.99',
      currency: 'USD',
      userFeatures: ['VIDEO_CONSULTATION'],
      followerLimit: { value: '3', isUnlimited: false },
    });
    expect(result.input).toMatchObject({ priceMinor: 1999, durationMonths: 12, useLimit: -1, followerLimit: 3 });
  });

  it('names the broken rules by form field', () => {
    const result = packageInputOf({
      ...emptyPackageValues(),
      code: 'bad code!',
      name: 'X',
      price: '10',
      durationMonths: { value: '0', isUnlimited: false },
    });
    expect(result.messages).toMatchObject({
      code: { key: 'packages:form.problems.code' },
      durationMonths: { key: 'packages:form.problems.duration' },
      userFeatures: { key: 'packages:form.problems.features' },
    });
  });
});
