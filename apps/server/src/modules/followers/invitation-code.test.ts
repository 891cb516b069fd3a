import { describe, expect, it } from 'vitest';
import { checkInvitationCode, issueInvitationCode, wrongCodeError } from './invitation-code.js';

const key = Buffer.alloc(32, 7);
const contactId = '01930000-0000-7000-8000-000000000001';
const sentAt = new Date('2025-03-01T08:00:00Z');
const DAY = 24 * 60 * 60_000;

describe('the one-time code of a follower invitation', () => {
  const issued = issueInvitationCode(key, contactId);
  const stored = { contactId, hash: issued.hash, attempts: 0, lastSentAt: sentAt };

  it('draws 6 digits and keeps only a keyed hash, salted with the contact', () => {
    expect(issued.code).toMatch(/^\d{6}$/);
    expect(issued.hash.toString('hex')).not.toContain(issued.code);
    expect(checkInvitationCode(Buffer.alloc(32, 8), stored, issued.code, sentAt)).toEqual({ kind: 'WRONG' });
    expect(checkInvitationCode(key, { ...stored, contactId: '01930000-0000-7000-8000-000000000002' }, issued.code, sentAt)).toEqual({ kind: 'WRONG' });
  });

  it('accepts the right code until 7 days after the send, and refuses it from then on', () => {
    expect(checkInvitationCode(key, stored, issued.code, new Date(sentAt.getTime() + 7 * DAY - 1))).toEqual({ kind: 'RIGHT' });
    expect(checkInvitationCode(key, stored, issued.code, new Date(sentAt.getTime() + 7 * DAY))).toEqual({
      kind: 'REFUSED',
      code: 'invitation.codeExpired',
    });
  });

  it('refuses every code once 5 wrong ones were tried, and without a code at all', () => {
    expect(checkInvitationCode(key, { ...stored, attempts: 4 }, issued.code, sentAt)).toEqual({ kind: 'RIGHT' });
    expect(checkInvitationCode(key, { ...stored, attempts: 5 }, issued.code, sentAt)).toEqual({ kind: 'REFUSED', code: 'invitation.tooManyAttempts' });
    expect(checkInvitationCode(key, { ...stored, hash: null }, issued.code, sentAt)).toEqual({ kind: 'REFUSED', code: 'invitation.codeExpired' });
  });

  it('says wrongCode for the first 4 wrong codes and tooManyAttempts for the fifth', () => {
    expect([1, 2, 3, 4, 5].map(wrongCodeError)).toEqual([
      'invitation.wrongCode',
      'invitation.wrongCode',
      'invitation.wrongCode',
      'invitation.wrongCode',
      'invitation.tooManyAttempts',
    ]);
  });
});
