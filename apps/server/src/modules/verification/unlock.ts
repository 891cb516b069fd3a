import { recordAudit } from '../audit/store.js';
import { assertNotThrottled, findLoginAccount, findTenantForLogin } from '../auth/service.js';
import { clearFailedLogins, findUserById, type UserRow } from '../auth/store.js';
import { assertSendQuota } from '../send-quota/service.js';
import { addressFor, issueUnsentCode, OTP_SENT, sendCode, verifyCodeThen, type VerificationEnvironment } from './challenges.js';
import type { OtpChannel } from './otp-store.js';

/**
 * Whether a code may go to the account to lift its lock: an active account that failed logins
 * have locked right now, with a contact on that channel. An administrative lock (status LOCKED)
 * and a disabled account are not lifted this way.
 */
function canUnlock(account: UserRow | undefined, channel: OtpChannel, now: Date): account is UserRow {
  if (account?.status !== 'ACTIVE' || account.lockedUntil === null || account.lockedUntil.getTime() <= now.getTime()) return false;
  return (channel === 'EMAIL' ? account.email : account.phone) !== null;
}

/**
 * Sends a code that lifts a lockout to the locked account's own email or phone (`channel`), so
 * that someone who locks an account with wrong passwords cannot keep its owner out. The answer is
 * the same for an unknown account, one that is not locked and one without that contact: nothing
 * is sent to them, and a stand-in code keeps the cooldown alike (no enumeration).
 */
export async function sendUnlockCode(
  environment: VerificationEnvironment,
  request: { tenant: string; channel: OtpChannel; username: string },
): Promise<typeof OTP_SENT> {
  const tenant = await findTenantForLogin(environment, request.tenant);
  const account = await findLoginAccount(environment.database, tenant, request.username);
  const address = addressFor('UNLOCK', request.channel, account, request.username);
  await assertSendQuota(environment, { tenantId: tenant.id, channel: request.channel, destination: address.destination });
  // A platform staff member's codes live with their account, in the platform tenant.
  const tenantId = account?.tenantId ?? tenant.id;
  await environment.database.withTenant(tenantId, (tx) =>
    canUnlock(account, request.channel, environment.clock.now())
      ? sendCode(tx, environment, { tenantId, address, userId: account.id, language: account.language, organization: tenant.name })
      : issueUnsentCode(tx, environment, { tenantId, address }),
  );
  return OTP_SENT;
}

export interface Unlock {
  tenant: string;
  channel: OtpChannel;
  username: string;
  code: string;
}

/**
 * Lifts a lockout with an unlock code: the failed-login count and the lock end (audited as
 * ACCOUNT_UNLOCKED by the account itself); the password stays, and the user then signs in with it.
 * A wrong code costs an attempt of the code and counts against the caller's address, like every
 * other code.
 */
export async function unlockWithCode(environment: VerificationEnvironment, unlock: Unlock): Promise<void> {
  const { database, clock } = environment;
  await assertNotThrottled(environment);
  const tenant = await findTenantForLogin(environment, unlock.tenant);
  const account = await findLoginAccount(database, tenant, unlock.username);
  const now = clock.now();
  await verifyCodeThen(environment, {
    tenantId: account?.tenantId ?? tenant.id,
    address: addressFor('UNLOCK', unlock.channel, account, unlock.username),
    code: unlock.code,
    // A code proves nothing about an account it was not sent to (or when it was sent to nobody).
    isIntendedFor: (challenge) => challenge.userId === account?.id,
    onAccepted: async (tx, challenge) => {
      const user = account === undefined ? undefined : await findUserById(tx, account.id);
      if (user === undefined) throw new Error('unreachable: an unlock code was accepted without an account');
      await clearFailedLogins(tx, user.id);
      await recordAudit(tx, user.tenantId, { ...environment.audit, actorUserId: user.id, actorTenantId: user.tenantId }, {
        action: 'ACCOUNT_UNLOCKED',
        subjectUserId: user.id,
        targetType: 'otp_challenge',
        targetId: challenge.id,
        details: { method: 'otp', channel: unlock.channel, failedLogins: user.failedLogins, lockedUntil: user.lockedUntil?.toISOString() ?? null },
        at: now,
      });
    },
  });
}
