import { createHmac } from 'node:crypto';
import { LIMITS, PLATFORM_ROLES, type AuditAction } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { findActiveTenantByCode, findPlatformTenant, type TenantRow } from '../tenants/store.js';
import { verifyPassword } from './passwords.js';
import { issueSession, type IssuedSession } from './sessions.js';
import {
  clearFailedLogins,
  countThrottleFailure,
  findUnknownLoginFailures,
  findUserByLogin,
  isAssignedToTenant,
  reactivateUser,
  readThrottle,
  recordFailedLogin,
  recordUnknownFailedLogin,
  revokeUserSessions,
  type UserRow,
} from './store.js';

/** Failed logins from one address before it must wait (shared by every process). */
export const THROTTLE = { failures: 20, windowMilliseconds: 15 * MINUTE } as const;

export type ClientApp = 'console' | 'patient' | 'doctor';

export interface LoginEnvironment {
  database: Database;
  clock: Clock;
  sessionHours: number;
  audit: AuditContext;
  /** Keys the stored hashes of login names that match no account (and of one-time codes). */
  secretsKey: Buffer;
}

const throttleKey = (audit: AuditContext) => `ip:${audit.ip ?? 'unknown'}`;

export async function assertNotThrottled(environment: LoginEnvironment): Promise<void> {
  const failures = await readThrottle(environment.database.system, throttleKey(environment.audit), environment.clock.now(), THROTTLE.windowMilliseconds);
  if (failures >= THROTTLE.failures) throw new AppError('auth.throttled');
}

export async function countFailure(environment: LoginEnvironment): Promise<void> {
  await countThrottleFailure(environment.database.system, throttleKey(environment.audit), environment.clock.now(), THROTTLE.windowMilliseconds);
}

export async function findTenantForLogin(environment: LoginEnvironment, code: string): Promise<TenantRow> {
  const tenant = await findActiveTenantByCode(environment.database.system, code);
  if (tenant === undefined) {
    await countFailure(environment);
    throw new AppError('tenant.notFound');
  }
  return tenant;
}

/**
 * The account a username (email or phone) names for a login into `tenant`: a user of that tenant,
 * else platform staff (users of the platform tenant with a platform role), who act inside it.
 */
export async function findLoginAccount(database: Database, tenant: TenantRow, username: string): Promise<UserRow | undefined> {
  const own = await database.withTenant(tenant.id, (tx) => findUserByLogin(tx, username.trim()));
  if (own !== undefined || tenant.isPlatform) return own;
  const platform = await findPlatformTenant(database.system);
  const staff = await database.withTenant(platform.id, (tx) => findUserByLogin(tx, username.trim()));
  if (staff === undefined || !(PLATFORM_ROLES as readonly string[]).includes(staff.role)) return undefined;
  // A system admin serves only the tenants assigned to them (spec §6).
  if (staff.role === 'SYSTEM_ADMIN' && !(await isAssignedToTenant(database.system, staff.id, tenant.id))) return undefined;
  return staff;
}

function isLocked(user: UserRow, now: Date): boolean {
  return user.status === 'LOCKED' || isLockedUntilLater(user.lockedUntil, now);
}

/** The lock that failed logins set (users.locked_until, or the same for an unknown login name). */
function isLockedUntilLater(lockedUntil: Date | null | undefined, now: Date): boolean {
  return lockedUntil !== null && lockedUntil !== undefined && lockedUntil.getTime() > now.getTime();
}

/**
 * The stored form of a login name that matches no account: an HMAC (keyed from SECRETS_KEY) of
 * the name as accounts are matched, trimmed and in lower case. People type passwords into the
 * login field by mistake; the table must not keep them readable.
 */
export function hashLoginIdentifier(secretsKey: Buffer, username: string): Buffer {
  const key = createHmac('sha256', secretsKey).update('rpm/login-identifier/v1').digest();
  return createHmac('sha256', key).update(username.trim().toLowerCase()).digest();
}

/**
 * Everything a login needs once the person has proven who they are, whichever the proof:
 * account state, the doctor-app and patient-app rules, clearing failures, the session and the audit row.
 */
export async function completeLogin(
  environment: LoginEnvironment,
  options: { tenant: TenantRow; user: UserRow; app: ClientApp; rememberMe: boolean; action: AuditAction },
): Promise<IssuedSession> {
  const { database, clock } = environment;
  const user = await reactivateIfDue(environment, options.user);
  if (isLocked(user, clock.now())) throw new AppError('auth.accountLocked');
  if (user.status !== 'ACTIVE') throw new AppError('auth.accountDisabled');
  if (options.app === 'doctor' && user.role !== 'DOCTOR') throw new AppError('auth.doctorOnly');
  // The patient app is for patient accounts (patients, and sub-user holders and followers, who
  // hold PATIENT-based accounts); staff get the spec's permission message.
  if (options.app === 'patient' && user.role !== 'PATIENT') throw new AppError('auth.patientOnly');
  const issued = await issueSession(database, clock, {
    user,
    actingTenantId: options.tenant.id,
    app: options.app,
    rememberMe: options.rememberMe,
    sessionHours: environment.sessionHours,
  });
  await database.withTenant(user.tenantId, async (tx) => {
    if (user.failedLogins > 0 || user.lockedUntil !== null) await clearFailedLogins(tx, user.id);
    await recordAudit(tx, user.tenantId, { ...environment.audit, actorUserId: user.id, actorTenantId: user.tenantId }, {
      action: options.action,
      subjectUserId: user.id,
      details: { app: options.app, actingTenantId: options.tenant.id, sessionFamily: issued.session.familyId },
      at: clock.now(),
    });
  });
  return issued;
}

/**
 * A temporary deactivation (3 days, 2 weeks, 1 month) ends by itself: the first login after it
 * turns the account back on. Indefinite ones (no end) stay until an admin restores the account.
 */
async function reactivateIfDue(environment: LoginEnvironment, user: UserRow): Promise<UserRow> {
  const now = environment.clock.now();
  if (user.status !== 'DISABLED' || user.disabledUntil === null || user.disabledUntil.getTime() > now.getTime()) return user;
  await environment.database.withTenant(user.tenantId, async (tx) => {
    await reactivateUser(tx, user.id, now);
    await recordAudit(tx, user.tenantId, environment.audit, {
      action: 'ACCOUNT_REACTIVATED',
      subjectUserId: user.id,
      details: { disabledUntil: user.disabledUntil?.toISOString() },
      at: now,
    });
  });
  return { ...user, status: 'ACTIVE', disabledUntil: null };
}

export interface PasswordLogin {
  tenant: string;
  username: string;
  password: string;
  rememberMe: boolean;
  app: ClientApp;
}

/**
 * Password grant. Unknown user and wrong password answer the same, after about the same work, at
 * every attempt: five failures in a row lock the account for 24 hours, and five failures for a
 * login name that matches no account "lock" that name the same way (login_failures_unknown), so
 * auth.accountLocked says nothing about whether an account exists. A locked account is refused
 * even with the right password (a LOCKED status only once the password is right: before that it
 * answers like any other account). Every failure also counts against the caller's address.
 */
export async function loginWithPassword(environment: LoginEnvironment, login: PasswordLogin): Promise<IssuedSession> {
  const { database, clock } = environment;
  await assertNotThrottled(environment);
  const tenant = await findTenantForLogin(environment, login.tenant);
  const user = await findLoginAccount(database, tenant, login.username);
  const isPasswordRight = await verifyPassword(user?.passwordHash, login.password);

  if (user === undefined) {
    const now = clock.now();
    const identifierHash = hashLoginIdentifier(environment.secretsKey, login.username);
    const isNowLocked = await database.withTenant(tenant.id, async (tx) => {
      // The same steps as for an account: a lock refuses at once, else the failure is counted.
      if (isLockedUntilLater((await findUnknownLoginFailures(tx, identifierHash))?.lockedUntil, now)) return true;
      const result = await recordUnknownFailedLogin(tx, tenant.id, identifierHash, now, {
        limit: LIMITS.failedLoginsBeforeLock,
        lockMilliseconds: LIMITS.lockHours * HOUR,
      });
      await recordAudit(tx, tenant.id, environment.audit, {
        action: 'ACCOUNT_LOGIN_FAILED',
        details: { reason: 'unknown_account', failedLogins: result.failedLogins },
        at: now,
      });
      return isLockedUntilLater(result.lockedUntil, now);
    });
    await countFailure(environment);
    throw new AppError(isNowLocked ? 'auth.accountLocked' : 'auth.wrongCredentials');
  }
  if (isLockedUntilLater(user.lockedUntil, clock.now())) {
    await countFailure(environment);
    throw new AppError('auth.accountLocked');
  }
  if (!isPasswordRight) {
    await countFailure(environment);
    const now = clock.now();
    const failure = await database.withTenant(user.tenantId, async (tx) => {
      const result = await recordFailedLogin(tx, user.id, now, { limit: LIMITS.failedLoginsBeforeLock, lockMilliseconds: LIMITS.lockHours * HOUR });
      await recordAudit(tx, user.tenantId, environment.audit, {
        action: 'ACCOUNT_LOGIN_FAILED',
        subjectUserId: user.id,
        details: { reason: 'wrong_password', failedLogins: result.failedLogins },
        at: now,
      });
      const justLocked = result.lockedUntil !== null && result.failedLogins >= LIMITS.failedLoginsBeforeLock;
      if (justLocked) {
        await recordAudit(tx, user.tenantId, environment.audit, {
          action: 'ACCOUNT_LOCKED',
          subjectUserId: user.id,
          details: { until: result.lockedUntil?.toISOString(), failedLogins: result.failedLogins },
          at: now,
        });
      }
      return { justLocked };
    });
    if (failure.justLocked) {
      await revokeUserSessions(database.system, [user.id], 'locked', now);
      throw new AppError('auth.accountLocked');
    }
    throw new AppError('auth.wrongCredentials');
  }
  return completeLogin(environment, { tenant, user, app: login.app, rememberMe: login.rememberMe, action: 'ACCOUNT_LOGIN' });
}
