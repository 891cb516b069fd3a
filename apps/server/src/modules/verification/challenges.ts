import { OTP_RULES } from '@rpm/contracts';
import type { SupportedLanguage } from '@rpm/i18n';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { countFailure, type LoginEnvironment } from '../auth/service.js';
import type { UserRow } from '../auth/store.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { renderOtpMessage } from '../messaging/templates.js';
import { checkCode, issueChallenge } from './otp.js';
import type { OtpAddress, OtpChallengeRow, OtpChannel } from './otp-store.js';

export interface VerificationEnvironment extends LoginEnvironment {
  /** Keys the code hashes. */
  secretsKey: Buffer;
  /** The caller's language: for messages to someone who has no account yet. */
  language: SupportedLanguage;
}

/** The answer to every "send me a code" call, whether or not a code was sent. */
export const OTP_SENT = { resendAfterSeconds: OTP_RULES.resendCooldownSeconds, expiresInSeconds: OTP_RULES.ttlSeconds } as const;

export function normalizeDestination(channel: OtpChannel, value: string): string {
  return channel === 'EMAIL' ? value.trim().toLowerCase() : value.trim();
}

/**
 * Where a code for `account` on `channel` goes: the account's own email or phone. Without an
 * account (or without that contact) the typed username stands in, so that the cooldown and the
 * guess budget behave the same for accounts that do not exist.
 */
export function addressFor(purpose: OtpAddress['purpose'], channel: OtpChannel, account: UserRow | undefined, username: string): OtpAddress {
  const contact = account === undefined ? null : channel === 'EMAIL' ? account.email : account.phone;
  return { purpose, channel, destination: normalizeDestination(channel, contact ?? username) };
}

/**
 * Issues a code and queues the message carrying it, in the caller's transaction, with the audit
 * row. The caller kicks the messaging dispatcher once the transaction has committed.
 */
export async function sendCode(
  tx: TenantTransaction,
  environment: VerificationEnvironment,
  options: { tenantId: string; address: OtpAddress; userId: string | null; language: string; organization: string },
): Promise<void> {
  const { address } = options;
  const issued = await issueChallenge(tx, {
    tenantId: options.tenantId,
    address,
    userId: options.userId,
    now: environment.clock.now(),
    secretsKey: environment.secretsKey,
  });
  const message = renderOtpMessage({
    language: options.language,
    purpose: address.purpose,
    channel: address.channel,
    code: issued.code,
    minutes: OTP_RULES.ttlSeconds / 60,
    organization: options.organization,
  });
  await enqueueMessage(tx, options.tenantId, {
    channel: address.channel,
    recipient: address.destination,
    subject: message.subject,
    body: message.body,
    purpose: `OTP_${address.purpose}`,
  });
  await recordAudit(tx, options.tenantId, environment.audit, {
    action: 'ACCOUNT_OTP_SENT',
    subjectUserId: options.userId,
    targetType: 'otp_challenge',
    targetId: issued.challengeId,
    details: { purpose: address.purpose, channel: address.channel },
    at: environment.clock.now(),
  });
}

/**
 * The stand-in for sendCode when there is nobody to send to: it issues a challenge bound to no
 * account and sends nothing, so the caller sees the same answer, the same cooldown and about the
 * same response time as for a real account (no account enumeration).
 */
export async function issueUnsentCode(
  tx: TenantTransaction,
  environment: VerificationEnvironment,
  options: { tenantId: string; address: OtpAddress },
): Promise<void> {
  await issueChallenge(tx, { ...options, userId: null, now: environment.clock.now(), secretsKey: environment.secretsKey });
}

/**
 * Verifies a code, then runs `onAccepted` in the same transaction: if it throws, the code stays
 * unused and the change is not made. A refused code is recorded (attempt, audit, the caller's
 * address throttle) and committed before its error is thrown.
 */
export async function verifyCodeThen<T>(
  environment: VerificationEnvironment,
  options: {
    tenantId: string;
    address: OtpAddress;
    code: string;
    isIntendedFor: (challenge: OtpChallengeRow) => boolean;
    onAccepted: (tx: TenantTransaction, challenge: OtpChallengeRow) => Promise<T>;
  },
): Promise<T> {
  const now = environment.clock.now();
  const outcome = await environment.database.withTenant(options.tenantId, async (tx) => {
    const verdict = await checkCode(tx, { ...options, now, secretsKey: environment.secretsKey });
    if (!verdict.isAccepted) {
      await recordAudit(tx, options.tenantId, environment.audit, {
        action: 'ACCOUNT_OTP_FAILED',
        subjectUserId: verdict.challenge?.userId ?? null,
        ...(verdict.challenge ? { targetType: 'otp_challenge', targetId: verdict.challenge.id } : {}),
        details: { purpose: options.address.purpose, channel: options.address.channel, reason: verdict.code },
        at: now,
      });
      return { isAccepted: false as const, code: verdict.code };
    }
    return { isAccepted: true as const, value: await options.onAccepted(tx, verdict.challenge) };
  });
  if (!outcome.isAccepted) {
    await countFailure(environment);
    throw new AppError(outcome.code);
  }
  return outcome.value;
}
