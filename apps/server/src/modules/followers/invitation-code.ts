import { timingSafeEqual } from 'node:crypto';
import { INVITATION_CODE_DAYS, OTP_RULES, type ErrorCode } from '@rpm/contracts';
import { DAY } from '../../lib/clock.js';
import { hashOtpCode, newOtpCode } from '../verification/otp.js';

/**
 * The one-time code of a follower invitation: only the holder of the invited phone reads the SMS
 * that carries it, so only they can confirm (an account registered with someone else's phone
 * number cannot). Drawn and hashed like the sign-in codes (verification/otp.ts), salted with the
 * contact id; every send replaces it. It holds until the next send and INVITATION_CODE_DAYS at
 * most; OTP_RULES.maxAttempts wrong codes refuse it, even the right one, until a resend.
 */

export interface IssuedInvitationCode {
  /** Goes into the SMS only: never into an API answer, a log or an audit row. */
  code: string;
  hash: Buffer;
}

export function issueInvitationCode(secretsKey: Buffer, contactId: string): IssuedInvitationCode {
  const code = newOtpCode();
  return { code, hash: hashOtpCode(secretsKey, contactId, code) };
}

export interface StoredInvitationCode {
  contactId: string;
  hash: Buffer | null;
  attempts: number;
  lastSentAt: Date;
}

/** RIGHT, or the refusal; WRONG is a wrong code the caller counts (then refused as wrongCode or tooManyAttempts). */
export type InvitationCodeCheck = { kind: 'RIGHT' } | { kind: 'WRONG' } | { kind: 'REFUSED'; code: ErrorCode };

export function checkInvitationCode(
  secretsKey: Buffer,
  stored: StoredInvitationCode,
  presented: string,
  now: Date,
): InvitationCodeCheck {
  if (stored.hash === null) return { kind: 'REFUSED', code: 'invitation.codeExpired' };
  if (stored.attempts >= OTP_RULES.maxAttempts) return { kind: 'REFUSED', code: 'invitation.tooManyAttempts' };
  if (now.getTime() >= stored.lastSentAt.getTime() + INVITATION_CODE_DAYS * DAY) return { kind: 'REFUSED', code: 'invitation.codeExpired' };
  const hash = hashOtpCode(secretsKey, stored.contactId, presented);
  return hash.length === stored.hash.length && timingSafeEqual(hash, stored.hash) ? { kind: 'RIGHT' } : { kind: 'WRONG' };
}

/** The refusal for a wrong code, once counted: the try that uses up the attempts says so. */
export function wrongCodeError(attempts: number): ErrorCode {
  return attempts >= OTP_RULES.maxAttempts ? 'invitation.tooManyAttempts' : 'invitation.wrongCode';
}
