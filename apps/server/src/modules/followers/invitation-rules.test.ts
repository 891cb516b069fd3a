import { describe, expect, it } from 'vitest';
import { decideInvitationMove, phoneDigits, phoneForms } from './invitation-rules.js';

const sentAt = new Date('2025-03-01T08:00:00Z');
const after = (milliseconds: number) => new Date(sentAt.getTime() + milliseconds);

describe('the invitation machine with its resend delay', () => {
  it('refuses a resend at 4:59 after the last send, with the seconds left', () => {
    expect(decideInvitationMove({ status: 'SENT', lastSentAt: sentAt }, 'resend', after(4 * 60_000 + 59_000))).toEqual({
      kind: 'REFUSED',
      code: 'contact.resendTooSoon',
      retryAfterSeconds: 1,
    });
  });

  it('allows a resend at 5:00, from sent and from resent', () => {
    expect(decideInvitationMove({ status: 'SENT', lastSentAt: sentAt }, 'resend', after(5 * 60_000))).toEqual({ kind: 'MOVE', next: 'RESENT' });
    expect(decideInvitationMove({ status: 'RESENT', lastSentAt: sentAt }, 'resend', after(6 * 60_000))).toEqual({ kind: 'MOVE', next: 'RESENT' });
  });

  it('never resends a confirmed or deleted invitation, whatever the time', () => {
    for (const status of ['CONFIRMED', 'DELETED'] as const) {
      expect(decideInvitationMove({ status, lastSentAt: sentAt }, 'resend', after(60 * 60_000))).toEqual({
        kind: 'REFUSED',
        code: 'contact.invalidTransition',
      });
    }
  });

  it('confirms only a pending invitation and deletes anything not yet deleted', () => {
    const now = after(1000);
    expect(decideInvitationMove({ status: 'RESENT', lastSentAt: sentAt }, 'confirm', now)).toEqual({ kind: 'MOVE', next: 'CONFIRMED' });
    expect(decideInvitationMove({ status: 'CONFIRMED', lastSentAt: sentAt }, 'confirm', now).kind).toBe('REFUSED');
    expect(decideInvitationMove({ status: 'CONFIRMED', lastSentAt: sentAt }, 'delete', now)).toEqual({ kind: 'MOVE', next: 'DELETED' });
    expect(decideInvitationMove({ status: 'DELETED', lastSentAt: sentAt }, 'delete', now)).toEqual({
      kind: 'REFUSED',
      code: 'contact.invalidTransition',
    });
  });
});

describe('phones compared by their digits', () => {
  it('reads +84 and 84 as the same phone', () => {
    expect(phoneDigits('+84901000001')).toBe(phoneDigits('84901000001'));
    expect(phoneForms('+0901')).toEqual(['0901', '+0901']);
  });
});
