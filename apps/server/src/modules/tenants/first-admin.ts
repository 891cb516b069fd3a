import { OTP_RULES } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { users } from '../../db/schema.js';
import type { AuditContext } from '../audit/store.js';
import { recordAudit } from '../audit/store.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { issueChallenge } from '../verification/otp.js';
import { loadEmailTemplate, renderEmail } from './email-templates.js';

export interface FirstAdmin {
  email: string;
  firstName: string;
  lastName: string;
  language: string;
}

/**
 * Creates a new tenant's first ADMIN in the tenant's transaction: ACTIVE, without a password, with
 * a password-reset code (the verification module's own flow: POST /account/forgot-password/reset
 * sets the password with it) sent in the WELCOME email through the outbox. If the code expires
 * before it is used, "forgot password" sends a new one. The caller kicks the messaging
 * dispatcher after the commit.
 */
export async function createFirstAdmin(
  tx: TenantTransaction,
  environment: { now: Date; secretsKey: Buffer; audit: AuditContext },
  options: { tenant: { id: string; code: string; name: string }; admin: FirstAdmin; consoleUrl: string },
): Promise<{ userId: string }> {
  const { tenant, admin, consoleUrl } = options;
  const email = admin.email.trim().toLowerCase();
  const userId = uuidv7();
  await tx.insert(users).values({
    tenantId: tenant.id,
    id: userId,
    email,
    firstName: admin.firstName,
    lastName: admin.lastName,
    role: 'ADMIN',
    status: 'ACTIVE',
    passwordHash: null,
    language: admin.language,
    createdAt: environment.now,
    updatedAt: environment.now,
  });
  const issued = await issueChallenge(tx, {
    tenantId: tenant.id,
    address: { purpose: 'RESET_PASSWORD', channel: 'EMAIL', destination: email },
    userId,
    now: environment.now,
    secretsKey: environment.secretsKey,
  });
  const template = await loadEmailTemplate(tx, tenant.id, 'WELCOME', admin.language);
  const message = renderEmail(template, {
    name: `${admin.firstName} ${admin.lastName}`.trim(),
    email,
    tenant: tenant.name,
    tenantCode: tenant.code,
    // The fragment opens the page at the code step; it is never sent to a server (no logs).
    link: `${consoleUrl.replace(/\/+$/, '')}/forgot-password#${new URLSearchParams({ tenant: tenant.code, email }).toString()}`,
    code: issued.code,
    minutes: String(OTP_RULES.ttlSeconds / 60),
  });
  await enqueueMessage(tx, tenant.id, { channel: 'EMAIL', recipient: email, subject: message.subject, body: message.text, purpose: 'TENANT_WELCOME' });
  await recordAudit(tx, tenant.id, environment.audit, {
    action: 'USER_CREATED',
    subjectUserId: userId,
    targetType: 'user',
    targetId: userId,
    details: { role: 'ADMIN', email, firstAdmin: true, challengeId: issued.challengeId },
    at: environment.now,
  });
  return { userId };
}
