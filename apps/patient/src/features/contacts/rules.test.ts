import { describe, expect, it } from 'vitest';
import { checkForm, countdownText, fieldOfError, type InviteForm } from './rules';

const valid: InviteForm = { phone: '0902000001', name: 'Mai', relationship: 'WIFE', contactType: 'EMERGENCY', favourite: true };

describe('the follower form, checked with the contract schema', () => {
  it('passes a complete invitation with the trimmed values to send', () => {
    expect(checkForm({ ...valid, phone: ' 0902000001 ' })).toEqual({ problems: {}, valid: { ...valid, phone: '0902000001' } });
  });

  it('names each field that is wrong, once', () => {
    const { problems, valid: sent } = checkForm({ phone: '12', name: '', relationship: '', contactType: '', favourite: false });
    expect(sent).toBeUndefined();
    expect(problems).toEqual({
      phone: 'form.problems.phone',
      name: 'form.problems.nameMissing',
      relationship: 'form.problems.choose',
      contactType: 'form.problems.choose',
    });
  });

  it('refuses digits in the alias name (spec §5)', () => {
    expect(checkForm({ ...valid, name: 'Mai 2' }).problems).toEqual({ name: 'form.problems.name' });
  });

  it('does not check the phone of an edit', () => {
    expect(checkForm({ ...valid, phone: '' }, false).problems).toEqual({});
  });
});

describe('server refusals by field (spec §8)', () => {
  it('puts duplicates and self-requests on the phone, limits on the contact type', () => {
    expect(fieldOfError('contact.exists')?.field).toBe('phone');
    expect(fieldOfError('request.toSelf')?.field).toBe('phone');
    expect(fieldOfError('careTeam.limitReached')?.field).toBe('contactType');
    expect(fieldOfError('common.default')).toBeUndefined();
    expect(fieldOfError(undefined)).toBeUndefined();
  });
});

describe('resend countdown', () => {
  it.each([
    [300_000, '5:00'],
    [299_001, '5:00'],
    [61_000, '1:01'],
    [9_500, '0:10'],
    [1, '0:01'],
    [0, '0:00'],
    [-5_000, '0:00'],
  ])('%i ms -> %s', (milliseconds, text) => {
    expect(countdownText(milliseconds)).toBe(text);
  });
});
