import { OTP_RULES, type ClientApp, type emailRegisterSchema, type registerSchema } from '@rpm/contracts';
import pg from 'pg';
import type { z } from 'zod';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { hashPassword } from '../auth/passwords.js';
import { assertAcceptablePassword, passwordRuleFor } from '../auth/password-policy.js';
import { assertNotThrottled, findTenantForLogin } from '../auth/service.js';
import type { UserRow } from '../auth/store.js';
import { assertSendQuota } from '../send-quota/service.js';
import type { TenantRow } from '../tenants/store.js';
import {
  activateUser,
  findUserByEmail,
  insertRegisteredUser,
  isPhoneTaken,
  replaceRegistration,
  type RegistrationValues,
} from './account-store.js';
import { OTP_SENT, sendCode, verifyCodeThen, type VerificationEnvironment } from './challenges.js';
import { attachChallengeToUser, registrationProgressOf, type OtpAddress } from './otp-store.js';

export type Registration = z.output<typeof registerSchema>;
export type OneStepRegistration = z.output<typeof emailRegisterSchema>;
export interface VerifiedRegistration {
  status: 'ACTIVE' | 'UNACTIVATED';
  awaitingApproval: boolean;
}

const registerAddress = (email: string): OtpAddress => ({ purpose: 'REGISTER', channel: 'EMAIL', destination: email.toLowerCase() });

/** People register into a customer tenant; the platform tenant holds platform staff only. */
async function findRegistrationTenant(environment: VerificationEnvironment, code: string | undefined): Promise<TenantRow> {
  if (code === undefined) throw new AppError('tenant.notFound');
  const tenant = await findTenantForLogin(environment, code);
  if (tenant.isPlatform) throw new AppError('tenant.notFound');
  return tenant;
}

/** An account that registered itself and has not proven its email yet (so it may be re-sent a code). */
async function isUnverifiedRegistration(tx: TenantTransaction, user: UserRow, now: Date): Promise<boolean> {
  if (user.status !== 'UNACTIVATED') return false;
  const progress = await registrationProgressOf(tx, user, { now, maxAttempts: OTP_RULES.maxAttempts });
  return progress === 'codeLive' || progress === 'abandoned';
}

/** A race between two registrations lands on the unique indexes; answer it like the checks do. */
function rethrowDuplicate(error: unknown): never {
  let current: unknown = error;
  while (current instanceof Error) {
    if (current instanceof pg.DatabaseError && current.code === '23505') {
      if (current.constraint === 'users_email_key') throw new AppError('account.emailExists', { cause: error });
      if (current.constraint === 'users_phone_key') throw new AppError('account.phoneExists', { cause: error });
    }
    current = current.cause;
  }
  throw error;
}

async function acceptablePasswordHash(
  environment: VerificationEnvironment,
  tenantId: string,
  input: { password: string; app?: ClientApp | undefined },
): Promise<string> {
  const { password } = input;
  assertAcceptablePassword(password, await passwordRuleFor(environment.database.system, tenantId, input.app), 'body.password');
  return hashPassword(password);
}

function valuesOf(
  input: Registration | OneStepRegistration,
  options: { passwordHash: string; language: string; role: 'PATIENT' | 'DOCTOR'; status: 'ACTIVE' | 'UNACTIVATED' },
): RegistrationValues {
  return {
    email: input.email,
    phone: input.phone ?? null,
    firstName: input.firstName,
    lastName: input.lastName,
    birthday: input.birthday,
    ...options,
  };
}

/**
 * POST /account/register: creates an UNACTIVATED account and emails it a code. An email already
 * in use is refused (account.emailExists: the spec's "offers to go to login"), except a
 * registration that was abandoned (never verified, its codes ran out), which the new one
 * replaces, so nobody can hold someone else's email by registering it and walking away.
 */
export async function register(environment: VerificationEnvironment, input: Registration) {
  const tenant = await findRegistrationTenant(environment, input.tenant);
  // Before "email already exists": the quota must not let anyone probe emails past it.
  await assertSendQuota(environment, { tenantId: tenant.id, channel: 'EMAIL', destination: input.email });
  const passwordHash = await acceptablePasswordHash(environment, tenant.id, input);
  const now = environment.clock.now();
  const values = valuesOf(input, { passwordHash, language: environment.language, role: input.role, status: 'UNACTIVATED' });
  await environment.database
    .withTenant(tenant.id, async (tx) => {
      const existing = await findUserByEmail(tx, input.email);
      const isAbandoned =
        existing?.status === 'UNACTIVATED' &&
        (await registrationProgressOf(tx, existing, { now, maxAttempts: OTP_RULES.maxAttempts })) === 'abandoned';
      if (existing !== undefined && !isAbandoned) throw new AppError('account.emailExists');
      if (input.phone !== undefined && (await isPhoneTaken(tx, input.phone, existing?.id ?? null))) throw new AppError('account.phoneExists');
      const user = existing === undefined ? await insertRegisteredUser(tx, tenant.id, values, now) : await replaceRegistration(tx, existing.id, values, now);
      await recordAudit(tx, tenant.id, { ...environment.audit, actorUserId: user.id, actorTenantId: tenant.id }, {
        action: 'ACCOUNT_REGISTERED',
        subjectUserId: user.id,
        details: { role: user.role, purpose: input.purpose, acceptedTerms: true, acceptedPrivacy: true, replacedAbandoned: isAbandoned },
        at: now,
      });
      await sendCode(tx, environment, {
        tenantId: tenant.id,
        address: registerAddress(input.email),
        userId: user.id,
        language: user.language,
        organization: tenant.name,
      });
    })
    .catch(rethrowDuplicate);
  return { ...OTP_SENT, status: 'UNACTIVATED' as const };
}

/**
 * POST /auth/create-verification-token: a code for an email that is not registered yet (for the
 * one-step registration), or a new code for a registration still waiting for its code.
 */
export async function sendRegistrationCode(environment: VerificationEnvironment, request: { tenant: string; email: string }) {
  const tenant = await findRegistrationTenant(environment, request.tenant);
  await assertSendQuota(environment, { tenantId: tenant.id, channel: 'EMAIL', destination: request.email });
  const now = environment.clock.now();
  await environment.database.withTenant(tenant.id, async (tx) => {
    const existing = await findUserByEmail(tx, request.email);
    if (existing !== undefined && !(await isUnverifiedRegistration(tx, existing, now))) throw new AppError('account.emailExists');
    await sendCode(tx, environment, {
      tenantId: tenant.id,
      address: registerAddress(request.email),
      userId: existing?.id ?? null,
      language: existing?.language ?? environment.language,
      organization: tenant.name,
    });
  });
  return OTP_SENT;
}

/**
 * POST /auth/verifyRegisterByEmailOTP: the emailed code proves the address. A patient becomes
 * ACTIVE; a doctor stays UNACTIVATED with the email proven, until a health-center admin approves
 * (spec §5), which the audit row records.
 */
export async function verifyRegistration(
  environment: VerificationEnvironment,
  request: { tenant: string; email: string; token: string },
): Promise<VerifiedRegistration> {
  await assertNotThrottled(environment);
  const tenant = await findRegistrationTenant(environment, request.tenant);
  const now = environment.clock.now();
  return verifyCodeThen(environment, {
    tenantId: tenant.id,
    address: registerAddress(request.email),
    code: request.token,
    // The code went to this email; which account it may activate is decided below.
    isIntendedFor: () => true,
    onAccepted: async (tx, challenge) => {
      const user = await findUserByEmail(tx, request.email);
      // Only the registration the code was sent for (a code for a new email serves email-register).
      if (user?.status !== 'UNACTIVATED' || user.deletedAt !== null || challenge.userId !== user.id) throw new AppError('account.notFound');
      const awaitingApproval = user.role === 'DOCTOR';
      if (!awaitingApproval) await activateUser(tx, user.id, now);
      const status = awaitingApproval ? ('UNACTIVATED' as const) : ('ACTIVE' as const);
      await recordAudit(tx, tenant.id, { ...environment.audit, actorUserId: user.id, actorTenantId: tenant.id }, {
        action: 'ACCOUNT_VERIFIED',
        subjectUserId: user.id,
        targetType: 'otp_challenge',
        targetId: challenge.id,
        details: { emailVerified: true, role: user.role, status, awaitingApproval: awaitingApproval ? 'HEALTH_CENTER_ADMIN' : null },
        at: now,
      });
      return { status, awaitingApproval };
    },
  });
}

/**
 * POST /auth/email-register: the registration form with the code from create-verification-token,
 * in one step. The email is proven, so the PATIENT account is ACTIVE at once (a doctor registers
 * through /account/register, whose approval step this call cannot skip).
 */
export async function registerWithCode(environment: VerificationEnvironment, input: OneStepRegistration): Promise<VerifiedRegistration> {
  await assertNotThrottled(environment);
  const tenant = await findRegistrationTenant(environment, input.tenant);
  const passwordHash = await acceptablePasswordHash(environment, tenant.id, input);
  const now = environment.clock.now();
  const values = valuesOf(input, { passwordHash, language: environment.language, role: 'PATIENT', status: 'ACTIVE' });
  return verifyCodeThen(environment, {
    tenantId: tenant.id,
    address: registerAddress(input.email),
    code: input.token,
    isIntendedFor: () => true,
    onAccepted: async (tx, challenge) => {
      const existing = await findUserByEmail(tx, input.email);
      // A waiting registration the code was sent to may be completed here; any other account owns the email.
      if (existing !== undefined && (existing.status !== 'UNACTIVATED' || challenge.userId !== existing.id)) {
        throw new AppError('account.emailExists');
      }
      if (input.phone !== undefined && (await isPhoneTaken(tx, input.phone, existing?.id ?? null))) throw new AppError('account.phoneExists');
      const user = existing === undefined ? await insertRegisteredUser(tx, tenant.id, values, now) : await replaceRegistration(tx, existing.id, values, now);
      if (challenge.userId === null) await attachChallengeToUser(tx, challenge.id, user.id);
      const context = { ...environment.audit, actorUserId: user.id, actorTenantId: tenant.id };
      await recordAudit(tx, tenant.id, context, {
        action: 'ACCOUNT_REGISTERED',
        subjectUserId: user.id,
        details: { role: 'PATIENT', purpose: input.purpose, acceptedTerms: true, acceptedPrivacy: true, oneStep: true },
        at: now,
      });
      await recordAudit(tx, tenant.id, context, {
        action: 'ACCOUNT_VERIFIED',
        subjectUserId: user.id,
        targetType: 'otp_challenge',
        targetId: challenge.id,
        details: { emailVerified: true, role: 'PATIENT', status: 'ACTIVE', awaitingApproval: null },
        at: now,
      });
      return { status: 'ACTIVE' as const, awaitingApproval: false };
    },
  }).catch(rethrowDuplicate);
}
