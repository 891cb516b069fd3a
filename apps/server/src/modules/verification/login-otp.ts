import {
  assertNotThrottled,
  completeLogin,
  findLoginAccount,
  findTenantForLogin,
  type ClientApp,
} from '../auth/service.js';
import type { IssuedSession } from '../auth/sessions.js';
import { assertSendQuota } from '../send-quota/service.js';
import { addressFor, issueUnsentCode, OTP_SENT, sendCode, verifyCodeThen, type VerificationEnvironment } from './challenges.js';
import type { OtpChannel } from './otp-store.js';

/**
 * Sends a login code to an account's phone (SMS) or email. The answer is the same whether or not
 * such an account exists; only active accounts get a message (others could not log in anyway).
 */
export async function sendLoginCode(
  environment: VerificationEnvironment,
  request: { tenant: string; channel: OtpChannel; destination: string },
): Promise<typeof OTP_SENT> {
  const tenant = await findTenantForLogin(environment, request.tenant);
  const account = await findLoginAccount(environment.database, tenant, request.destination);
  const address = addressFor('LOGIN', request.channel, account, request.destination);
  await assertSendQuota(environment, { tenantId: tenant.id, channel: request.channel, destination: address.destination });
  const recipient = account?.status === 'ACTIVE' ? account : undefined;
  // A platform staff member's codes live with their account, in the platform tenant.
  const tenantId = account?.tenantId ?? tenant.id;
  await environment.database.withTenant(tenantId, (tx) =>
    recipient === undefined
      ? issueUnsentCode(tx, environment, { tenantId, address })
      : sendCode(tx, environment, { tenantId, address, userId: recipient.id, language: recipient.language, organization: tenant.name }),
  );
  return OTP_SENT;
}

export interface OtpLogin {
  tenant: string;
  channel: OtpChannel;
  code: string;
  username: string;
  rememberMe: boolean;
  app: ClientApp;
}

/**
 * The OTP grant: the code proves the person holds the account's phone or email; the rest of the
 * login (account state, doctor-app rule, session, audit) is the password grant's.
 */
export async function loginWithCode(environment: VerificationEnvironment, login: OtpLogin): Promise<IssuedSession> {
  await assertNotThrottled(environment);
  const tenant = await findTenantForLogin(environment, login.tenant);
  const account = await findLoginAccount(environment.database, tenant, login.username);
  const address = addressFor('LOGIN', login.channel, account, login.username);
  await verifyCodeThen(environment, {
    tenantId: account?.tenantId ?? tenant.id,
    address,
    code: login.code,
    // A code proves nothing about an account it was not sent to (or when it was sent to nobody).
    isIntendedFor: (challenge) => challenge.userId === account?.id,
    onAccepted: async () => undefined,
  });
  if (account === undefined) throw new Error('unreachable: a code was accepted without an account');
  return completeLogin(environment, { tenant, user: account, app: login.app, rememberMe: login.rememberMe, action: 'ACCOUNT_OTP_LOGIN' });
}
