import { translateError } from '@rpm/i18n';
import type { ClientApp } from '@rpm/contracts';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { assertAcceptablePassword, passwordRuleFor } from '../auth/password-policy.js';
import { assertNotThrottled, findLoginAccount, findTenantForLogin } from '../auth/service.js';
import { findUserById, revokeUserSessions, type UserRow } from '../auth/store.js';
import { assertSendQuota } from '../send-quota/service.js';
import { setPasswordAfterReset } from './account-store.js';
import { addressFor, issueUnsentCode, OTP_SENT, sendCode, verifyCodeThen, type VerificationEnvironment } from './challenges.js';
import type { OtpChannel } from './otp-store.js';

/** Account states in which "forgot password" works; a disabled account stays disabled. */
const RESETTABLE_STATUSES: readonly string[] = ['ACTIVE', 'LOCKED', 'UNACTIVATED'];

function canReset(account: UserRow | undefined, channel: OtpChannel): account is UserRow {
  if (account === undefined || !RESETTABLE_STATUSES.includes(account.status)) return false;
  return (channel === 'EMAIL' ? account.email : account.phone) !== null;
}

/**
 * Sends a password reset code to the account's email or phone (`channel`). The answer is the same
 * for an unknown account, a disabled one and one without that contact: saying "no email or phone
 * on file" (password.noContact) would tell a stranger the account exists, so nothing is sent.
 */
export async function sendResetCode(
  environment: VerificationEnvironment,
  request: { tenant: string; channel: OtpChannel; username: string },
): Promise<typeof OTP_SENT> {
  const tenant = await findTenantForLogin(environment, request.tenant);
  const account = await findLoginAccount(environment.database, tenant, request.username);
  const address = addressFor('RESET_PASSWORD', request.channel, account, request.username);
  await assertSendQuota(environment, { tenantId: tenant.id, channel: request.channel, destination: address.destination });
  const tenantId = account?.tenantId ?? tenant.id;
  await environment.database.withTenant(tenantId, (tx) =>
    canReset(account, request.channel)
      ? sendCode(tx, environment, { tenantId, address, userId: account.id, language: account.language, organization: tenant.name })
      : issueUnsentCode(tx, environment, { tenantId, address }),
  );
  return OTP_SENT;
}

export interface PasswordReset {
  tenant: string;
  channel: OtpChannel;
  username: string;
  code: string;
  newPassword: string;
  /** The client setting it: the patient app's password rule applies to `patient`. */
  app?: ClientApp | undefined;
}

/**
 * Sets a new password with a reset code: the tenant's password rule applies, the new password
 * must differ from the old one, a lockout ends, and every session of the account ends (whoever
 * knew the old password is out).
 */
export async function resetPassword(environment: VerificationEnvironment, reset: PasswordReset): Promise<void> {
  const { database, clock } = environment;
  await assertNotThrottled(environment);
  const tenant = await findTenantForLogin(environment, reset.tenant);
  const account = await findLoginAccount(database, tenant, reset.username);
  const tenantId = account?.tenantId ?? tenant.id;
  // The rule is checked before the code so a weak password does not cost an attempt.
  assertAcceptablePassword(reset.newPassword, await passwordRuleFor(database.system, tenantId, reset.app), 'body.newPassword');
  const passwordHash = await hashPassword(reset.newPassword);
  const now = clock.now();
  await verifyCodeThen(environment, {
    tenantId,
    address: addressFor('RESET_PASSWORD', reset.channel, account, reset.username),
    code: reset.code,
    // A code proves nothing about an account it was not sent to (or when it was sent to nobody).
    isIntendedFor: (challenge) => challenge.userId === account?.id,
    onAccepted: async (tx, challenge) => {
      const user = account === undefined ? undefined : await findUserById(tx, account.id);
      if (user?.deletedAt !== null) throw new AppError('account.notFound');
      // Only after the code is proven: otherwise this would be an oracle for the current password.
      if (await verifyPassword(user.passwordHash, reset.newPassword)) {
        const message = translateError('password.sameAsOld', environment.language);
        throw new AppError('password.sameAsOld', { fieldErrors: [{ field: 'body.newPassword', code: 'sameAsOld', message }] });
      }
      await setPasswordAfterReset(tx, user.id, passwordHash, now);
      await recordAudit(tx, user.tenantId, { ...environment.audit, actorUserId: user.id, actorTenantId: user.tenantId }, {
        action: 'ACCOUNT_PASSWORD_RESET',
        subjectUserId: user.id,
        targetType: 'otp_challenge',
        targetId: challenge.id,
        details: { channel: reset.channel, unlocked: user.lockedUntil !== null || user.failedLogins > 0 },
        at: now,
      });
      // Before commit: if this failed after the new password landed, old sessions would survive it.
      await revokeUserSessions(database.system, [user.id], 'password_changed', now);
    },
  });
}
