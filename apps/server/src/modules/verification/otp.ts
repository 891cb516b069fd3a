import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_RULES, type ErrorCode } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { DAY } from '../../lib/clock.js';
import {
  consumeChallenge,
  countWrongCode,
  countWrongCodesSince,
  findLatestChallenge,
  insertChallenge,
  lockAddress,
  type OtpAddress,
  type OtpChallengeRow,
} from './otp-store.js';

/**
 * Beyond the per-code limit: wrong codes one address may collect in a day, over all its codes.
 * Without it, asking for a new code every minute would allow 7,200 guesses a day at a 6-digit
 * code; with it an attacker gets 15 in a million.
 */
export const OTP_DAILY_WRONG_CODES = 3 * OTP_RULES.maxAttempts;

export function newOtpCode(): string {
  return randomInt(0, 10 ** OTP_RULES.digits)
    .toString()
    .padStart(OTP_RULES.digits, '0');
}

/**
 * The stored form of a code: an HMAC keyed by a secret derived from SECRETS_KEY, salted with the
 * challenge id. A plain hash of a 6-digit code would be reversed in a millisecond by anyone who
 * reads the table; this one needs the server's key.
 */
export function hashOtpCode(secretsKey: Buffer, challengeId: string, code: string): Buffer {
  const otpKey = createHmac('sha256', secretsKey).update('rpm/otp-code/v1').digest();
  return createHmac('sha256', otpKey).update(`${challengeId}:${code}`).digest();
}

export interface IssuedCode {
  challengeId: string;
  code: string;
}

/**
 * Creates a new code for an address, which replaces the earlier ones. Refused with 429 within the
 * resend cooldown, or when the address used up its daily budget of wrong codes.
 */
export async function issueChallenge(
  tx: TenantTransaction,
  options: { tenantId: string; address: OtpAddress; userId: string | null; now: Date; secretsKey: Buffer },
): Promise<IssuedCode> {
  const { tenantId, address, now } = options;
  await lockAddress(tx, tenantId, address);
  const latest = await findLatestChallenge(tx, address, { forUpdate: false });
  if (latest !== undefined && now.getTime() - latest.createdAt.getTime() < OTP_RULES.resendCooldownSeconds * 1000) {
    throw new AppError('otp.resendTooSoon');
  }
  if ((await countWrongCodesSince(tx, address, new Date(now.getTime() - DAY))) >= OTP_DAILY_WRONG_CODES) {
    throw new AppError('otp.resendTooSoon');
  }
  const challengeId = uuidv7();
  const code = newOtpCode();
  await insertChallenge(tx, {
    tenantId,
    id: challengeId,
    purpose: address.purpose,
    channel: address.channel,
    destination: address.destination,
    userId: options.userId,
    codeHash: hashOtpCode(options.secretsKey, challengeId, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + OTP_RULES.ttlSeconds * 1000),
  });
  return { challengeId, code };
}

export type OtpVerdict =
  | { isAccepted: true; challenge: OtpChallengeRow }
  | { isAccepted: false; code: ErrorCode; challenge: OtpChallengeRow | undefined };

/**
 * Checks a code against the address's latest challenge and records the outcome: a wrong code
 * counts an attempt (the last allowed one kills the challenge), a right one consumes it. The
 * caller commits both outcomes; it must not roll a wrong attempt back.
 *
 * `isIntendedFor` says whether the challenge may prove anything for this request (the code was
 * sent to the account being acted on). A challenge sent to nobody never passes.
 */
export async function checkCode(
  tx: TenantTransaction,
  options: {
    address: OtpAddress;
    code: string;
    now: Date;
    secretsKey: Buffer;
    isIntendedFor: (challenge: OtpChallengeRow) => boolean;
  },
): Promise<OtpVerdict> {
  const challenge = await findLatestChallenge(tx, options.address, { forUpdate: true });
  if (challenge?.consumedAt !== null) return { isAccepted: false, code: 'otp.unverifiable', challenge };
  if (challenge.attempts >= OTP_RULES.maxAttempts) return { isAccepted: false, code: 'otp.tooManyAttempts', challenge };
  if (challenge.expiresAt.getTime() <= options.now.getTime()) return { isAccepted: false, code: 'otp.expired', challenge };

  const presented = hashOtpCode(options.secretsKey, challenge.id, options.code);
  const isRight = presented.length === challenge.codeHash.length && timingSafeEqual(presented, challenge.codeHash);
  if (!isRight || !options.isIntendedFor(challenge)) {
    const attempts = await countWrongCode(tx, challenge.id);
    return { isAccepted: false, code: attempts >= OTP_RULES.maxAttempts ? 'otp.tooManyAttempts' : 'otp.wrong', challenge };
  }
  // The row is locked, so this cannot lose a race; the check keeps the rule local.
  if (!(await consumeChallenge(tx, challenge.id, options.now))) return { isAccepted: false, code: 'otp.unverifiable', challenge };
  return { isAccepted: true, challenge };
}
