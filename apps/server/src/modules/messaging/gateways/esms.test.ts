import { describe, expect, it } from 'vitest';
import { esmsOutcomeOf, esmsPhone } from './esms.js';

describe('eSMS', () => {
  it('sends Vietnamese numbers in their national form', () => {
    expect(esmsPhone('+84901888484')).toBe('0901888484');
    expect(esmsPhone('0901 888 484')).toBe('0901888484');
    expect(esmsPhone('+15005550006')).toBe('15005550006');
  });

  it('reads the documented delivery callbacks', () => {
    // The callback samples of eSMS's documentation (customer-care messages, SmsType 2).
    expect(esmsOutcomeOf({ SMSID: 'dc71', SendFailed: '2', SendStatus: '5', SendSuccess: '0', TotalReceiver: '2' })).toBe('UNDELIVERED');
    expect(esmsOutcomeOf({ SMSID: '849f', SendFailed: '0', SendStatus: '5', SendSuccess: '1', TotalReceiver: '1' })).toBe('DELIVERED');
    expect(esmsOutcomeOf({ SMSID: '849f', SendFailed: '0', SendStatus: '4', SendSuccess: '0' })).toBe('UNDELIVERED');
    // Pending approval, waiting, sent to the telco without a report yet: nothing to record.
    for (const status of ['1', '2', '7']) expect(esmsOutcomeOf({ SMSID: 'x', SendFailed: '0', SendStatus: status, SendSuccess: '0' })).toBeUndefined();
    expect(esmsOutcomeOf({ SendSuccess: 'many' })).toBeUndefined();
  });
});
