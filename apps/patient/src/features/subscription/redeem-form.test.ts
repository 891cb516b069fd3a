import type { PatientSubscriptionsView, Subscription } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { normalised, redeemedPackage, redeemInputOf, typedUpper } from './redeem-form';

describe('scratch-card form', () => {
  it('sends the series and code in capitals without spaces or dashes', () => {
    expect(redeemInputOf({ series: ' hp000001 ', code: 'acde-fghj kmnp' })).toEqual({ input: { series: 'HP000001', code: 'ACDEFGHJKMNP' } });
    expect(redeemInputOf({ series: 'HP000001', code: 'ACDEFGHJKMNP' }).input?.code).toBe('ACDEFGHJKMNP');
    expect(normalised(' a-b c ')).toBe('ABC');
    expect(typedUpper('hp-0001 x')).toBe('HP-0001 X');
  });

  it('says what is missing', () => {
    expect(redeemInputOf({ series: '  ', code: ' - ' })).toEqual({ problems: { series: 'seriesRequired', code: 'codeRequired' } });
  });

  it('catches a code of the wrong length or with characters no card has, before it counts as a wrong code', () => {
    expect(redeemInputOf({ series: 'HP000001', code: 'ACDE-FGHJ-KMN' }).problems).toEqual({ code: 'codeLength' });
    expect(redeemInputOf({ series: 'HP000001', code: 'ACDE-FGHJ-KMNPQ' }).problems).toEqual({ code: 'codeLength' });
    // O, 0, I, 1, S, 5, B, 8, Z and 2 are not on the cards (look-alikes).
    expect(redeemInputOf({ series: 'HP000001', code: 'ACDE-FGHJ-KMN0' }).problems).toEqual({ code: 'codeCharacters' });
  });
});

describe('what an accepted code gave', () => {
  const ref = (name: string) => ({ id: '01890000-0000-7000-8000-00000000000a', code: name, name, level: null, priceMinor: 0, currency: 'VND' as const });
  const subscription = (name: string, change: Partial<Subscription> = {}): Subscription => ({
    id: '01890000-0000-7000-8000-000000000001',
    package: ref(name),
    kind: 'PACKAGE',
    status: 'ACTIVE',
    source: 'CODE',
    startsAt: '2026-03-01T00:00:00.000Z',
    endsAt: '2027-03-01T00:00:00.000Z',
    nextExtendAt: null,
    remainingTurns: null,
    receiptId: 'HP000001',
    endedAt: null,
    ...change,
  });
  const view = (current: Subscription | null, history: Subscription[]): PatientSubscriptionsView => ({
    entitlements: {
      packagesEnabled: true,
      package: current?.package ?? null,
      subscription: current,
      addons: [],
      features: [],
      relativeFeatures: [],
      followerLimit: -1,
      subUserLimit: -1,
      storageCount: -1,
      hasWearable: true,
    },
    history,
  });

  it('names the subscription the card started, a package or an add-on', () => {
    const gold = subscription('Gold');
    expect(redeemedPackage(view(gold, [gold]), 'HP000001')).toEqual({ name: 'Gold', endsAt: '2027-03-01T00:00:00.000Z' });
    const addon = subscription('Extra storage', { kind: 'ADDON', receiptId: 'AD000001', endsAt: null });
    expect(redeemedPackage(view(gold, [addon, gold]), 'AD000001')).toEqual({ name: 'Extra storage', endsAt: null });
  });

  it('names the current package when the card extended it', () => {
    const extended = subscription('Gold', { receiptId: 'R-1', source: 'STAFF', endsAt: '2028-03-01T00:00:00.000Z' });
    const old = subscription('Gold', { receiptId: 'HP000001', status: 'REPLACED' });
    expect(redeemedPackage(view(extended, [extended, old]), 'HP000001')).toEqual({ name: 'Gold', endsAt: '2028-03-01T00:00:00.000Z' });
    expect(redeemedPackage(view(null, []), 'HP000001')).toBeNull();
  });
});
