import { DEFAULT_ROLE_PERMISSIONS, PLATFORM_ROLES, ROLE_CODES, type CheckTokenResponse, type RoleCode } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { findActiveTenantByCode, findPlatformTenant, findTenantById } from '../tenants/store.js';
import { verifyPassword } from './passwords.js';
import {
  findSessionByTokenHash,
  findTenantUserById,
  findTenantUserByLogin,
  replaceSessions,
  type LoginCandidate,
} from './store.js';
import { hashToken, newSessionToken } from './tokens.js';

const REMEMBER_ME_HOURS = 24 * 30;

function asRole(role: string): RoleCode {
  const found = ROLE_CODES.find((code) => code === role);
  if (found === undefined) throw new Error(`unknown role ${role} in the database`);
  return found;
}

export function toCheckTokenResponse(auth: AuthContext): CheckTokenResponse {
  return {
    userId: auth.userId,
    tenantId: auth.tenantId,
    role: auth.role,
    fullName: auth.fullName,
    expiresAt: auth.expiresAt.toISOString(),
  };
}

/** Turns a presented token into the caller's context, or the error the console reacts to. */
export async function resolveSession(database: Database, token: string): Promise<AuthContext> {
  const session = await findSessionByTokenHash(database.system, hashToken(token));
  if (session === undefined) throw new AppError('auth.unauthorized');
  if (session.revokedAt !== null) {
    throw new AppError(session.revokedReason === 'replaced' ? 'auth.loggedInElsewhere' : 'auth.unauthorized');
  }
  if (session.expiresAt.getTime() <= Date.now()) throw new AppError('auth.sessionExpired');

  const [actingTenant, accountTenant] = await Promise.all([
    findTenantById(database.system, session.tenantId),
    findTenantById(database.system, session.accountTenantId),
  ]);
  if (actingTenant?.status !== 'ACTIVE' || accountTenant?.status !== 'ACTIVE') throw new AppError('auth.unauthorized');
  const user = await database.withTenant(session.accountTenantId, (tx) => findTenantUserById(tx, session.userId));
  if (user?.status !== 'ACTIVE') throw new AppError('auth.unauthorized');
  const role = asRole(session.role);
  return {
    sessionId: session.id,
    userId: session.userId,
    accountTenantId: session.accountTenantId,
    tenantId: session.tenantId,
    role,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    expiresAt: session.expiresAt,
    permissions: new Set(DEFAULT_ROLE_PERMISSIONS[role]),
  };
}

export interface PasswordLogin {
  tenant: string;
  username: string;
  password: string;
  rememberMe: boolean;
  app: 'console' | 'patient' | 'doctor';
}

/**
 * Password grant. A user of the chosen tenant is looked up first, then platform staff (users of
 * the platform tenant, who act inside the tenant they chose). Unknown user and wrong password
 * answer the same, after the same work.
 */
export async function loginWithPassword(
  database: Database,
  login: PasswordLogin,
  sessionHours: number,
): Promise<{ token: string; auth: AuthContext; rememberMe: boolean }> {
  const tenant = await findActiveTenantByCode(database.system, login.tenant);
  if (tenant === undefined) {
    await verifyPassword(undefined, login.password);
    throw new AppError('tenant.notFound');
  }
  const username = login.username.trim();
  const candidate: LoginCandidate | undefined =
    (await database.withTenant(tenant.id, (tx) => findTenantUserByLogin(tx, username))) ??
    (await findPlatformStaffByLogin(database, username));
  const isPasswordRight = await verifyPassword(candidate?.passwordHash, login.password);
  if (candidate === undefined || !isPasswordRight) throw new AppError('auth.wrongCredentials');
  if (candidate.status === 'LOCKED') throw new AppError('auth.accountLocked');
  if (candidate.status !== 'ACTIVE') throw new AppError('auth.accountDisabled');

  const token = newSessionToken();
  const hours = login.rememberMe ? REMEMBER_ME_HOURS : sessionHours;
  await replaceSessions(database.system, {
    tokenHash: hashToken(token),
    userId: candidate.id,
    accountTenantId: candidate.tenantId,
    tenantId: tenant.id,
    role: candidate.role,
    app: login.app,
    expiresAt: new Date(Date.now() + hours * 3_600_000),
  });
  return { token, auth: await resolveSession(database, token), rememberMe: login.rememberMe };
}


async function findPlatformStaffByLogin(database: Database, username: string): Promise<LoginCandidate | undefined> {
  const platform = await findPlatformTenant(database.system);
  const staff = await database.withTenant(platform.id, (tx) => findTenantUserByLogin(tx, username));
  return staff && (PLATFORM_ROLES as readonly string[]).includes(staff.role) ? staff : undefined;
}
