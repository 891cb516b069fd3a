import {
  DEFAULT_ROLE_PERMISSIONS,
  PERMISSIONS,
  ROLE_CODES,
  SESSION_RULES,
  type CheckTokenResponse,
  type Permission,
  type RoleCode,
} from '@rpm/contracts';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { DAY, HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import {
  findCustomRolePermissions,
  findSessionAndTenantsByTokenHash,
  findSessionByRefreshHash,
  findUserById,
  replaceSessions,
  revokeFamily,
  rotateSession,
  sessionTenantsActive,
  type SessionAccount,
  type SessionRow,
  type UserRow,
} from './store.js';
import { levelOf, mainLevelOf, visibilityOf, visibilityWithoutReads } from './levels.js';
import { hashToken, newSessionToken } from './tokens.js';

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  session: SessionRow;
  auth: AuthContext;
}

export function asRole(role: string): RoleCode {
  const found = ROLE_CODES.find((code) => code === role);
  if (found === undefined) throw new Error(`unknown role ${role} in the database`);
  return found;
}

/** The permissions of a role without a custom role. */
const defaultPermissionsOf = (role: string): Set<Permission> => new Set(DEFAULT_ROLE_PERMISSIONS[asRole(role)]);

/** The permissions of a level: its custom role's when it has one, else its role's defaults. */
export async function permissionsOf(tx: TenantTransaction, user: Pick<UserRow, 'role' | 'customRoleId'>): Promise<Set<Permission>> {
  if (user.customRoleId !== null) {
    const custom = await findCustomRolePermissions(tx, user.customRoleId);
    if (custom !== undefined) return new Set(PERMISSIONS.filter((permission) => custom.includes(permission)));
  }
  return defaultPermissionsOf(user.role);
}

export function toCheckTokenResponse(auth: AuthContext): CheckTokenResponse {
  return {
    userId: auth.userId,
    tenantId: auth.tenantId,
    role: auth.role,
    fullName: auth.fullName,
    expiresAt: auth.sessionExpiresAt.toISOString(),
  };
}

function errorForRevoked(session: SessionRow): AppError {
  switch (session.revokedReason) {
    case 'replaced':
      return new AppError('auth.loggedInElsewhere');
    case 'permission_changed':
      return new AppError('auth.permissionChanged');
    case 'expired':
      return new AppError('auth.sessionExpired');
    default:
      return new AppError('auth.unauthorized');
  }
}

const isUsable = (user: Pick<SessionAccount, 'status' | 'deletedAt'> | undefined) => user?.status === 'ACTIVE' && user.deletedAt === null;

/**
 * The caller's context. `known` holds what the session's statement read with it: whether its
 * tenants are active, and the account as the platform database holds it. That account is used
 * only for a tenant whose data lives there; when the session acts in its own tenant at its main
 * level, with its role's own permissions and a visibility that needs no reads (a patient, a
 * tenant-wide level not narrowed), the context then takes no further statement.
 */
async function contextOf(
  database: Database,
  session: SessionRow,
  known: { tenantsActive?: boolean; account?: SessionAccount | null } = {},
): Promise<AuthContext> {
  if (!(known.tenantsActive ?? (await sessionTenantsActive(database.system, session)))) throw new AppError('auth.unauthorized');
  const narrowing = { scopeId: session.filterScopeId, centerId: session.filterCenterId };
  const inOwnTenant = session.tenantId === session.accountTenantId;
  const account =
    known.account != null && (await database.isOnPlatform(session.accountTenantId)) ? known.account : undefined;
  const direct =
    account !== undefined && isUsable(account) && inOwnTenant && session.levelId === null && account.customRoleId === null
      ? visibilityWithoutReads(mainLevelOf(account), narrowing, account.id)
      : undefined;
  const found =
    account !== undefined && direct !== undefined
      ? { user: account, level: mainLevelOf(account), permissions: defaultPermissionsOf(account.role), ownSeen: direct }
      : await database.withTenant(session.accountTenantId, async (tx) => {
          const user = account ?? (await findUserById(tx, session.userId));
          if (user === undefined || !isUsable(user)) return undefined;
          const level = await levelOf(tx, user, session.levelId);
          if (level === undefined) return undefined;
          // Acting in their own tenant (nearly every request): the visibility in the same transaction.
          const ownSeen = inOwnTenant ? await visibilityOf(tx, level, narrowing, user.id) : undefined;
          return { user, level, permissions: await permissionsOf(tx, level), ownSeen };
        });
  if (found === undefined) throw new AppError('auth.unauthorized');
  const seen = found.ownSeen ?? (await database.withTenant(session.tenantId, (tx) => visibilityOf(tx, found.level, narrowing, undefined)));
  return {
    sessionId: session.id,
    familyId: session.familyId,
    userId: session.userId,
    accountTenantId: session.accountTenantId,
    tenantId: session.tenantId,
    role: asRole(found.level.role),
    fullName: `${found.user.firstName} ${found.user.lastName}`.trim(),
    accessExpiresAt: session.expiresAt,
    sessionExpiresAt: session.refreshExpiresAt ?? session.expiresAt,
    permissions: found.permissions,
    levelId: found.level.levelId,
    scopeId: seen.scopeId,
    centerId: seen.centerId,
    visibility: seen.visibility,
    unitChoices: {
      unitSystem: found.user.unitSystem,
      thermalUnit: found.user.thermalUnit,
      bloodGlucoseUnit: found.user.bloodGlucoseUnit,
      uricAcidUnit: found.user.uricAcidUnit,
    },
  };
}

/** Turns a presented access token into the caller's context, or the error the client reacts to. */
export async function resolveSession(database: Database, clock: Clock, token: string): Promise<AuthContext> {
  const found = await findSessionAndTenantsByTokenHash(database.system, hashToken(token));
  if (found === undefined) throw new AppError('auth.unauthorized');
  const { session } = found;
  // A rotated access token is simply old: the client refreshes (it holds the newer pair).
  if (session.revokedAt !== null && session.revokedReason !== 'rotated') throw errorForRevoked(session);
  if (session.revokedAt !== null || session.expiresAt.getTime() <= clock.now().getTime()) {
    throw new AppError('auth.sessionExpired');
  }
  return contextOf(database, session, { tenantsActive: found.tenantsActive, account: found.account });
}

/** Starts a session for a user who has proven who they are (password or OTP). */
export async function issueSession(
  database: Database,
  clock: Clock,
  options: { user: UserRow; actingTenantId: string; app: 'console' | 'patient' | 'doctor'; rememberMe: boolean; sessionHours: number },
): Promise<IssuedSession> {
  const now = clock.now();
  const accessToken = newSessionToken();
  const refreshToken = newSessionToken();
  const sessionLength = options.rememberMe ? SESSION_RULES.rememberMeDays * DAY : options.sessionHours * HOUR;
  const session = await replaceSessions(
    database.system,
    {
      tokenHash: hashToken(accessToken),
      refreshHash: hashToken(refreshToken),
      userId: options.user.id,
      accountTenantId: options.user.tenantId,
      tenantId: options.actingTenantId,
      role: options.user.role,
      app: options.app,
      rememberMe: options.rememberMe,
      expiresAt: new Date(now.getTime() + Math.min(SESSION_RULES.accessTokenMinutes * MINUTE, sessionLength)),
      refreshExpiresAt: new Date(now.getTime() + sessionLength),
    },
    now,
  );
  return { accessToken, refreshToken, session, auth: await contextOf(database, session) };
}

/**
 * Exchanges a refresh token for a new pair. A refresh token works once: presenting a retired one
 * means it was stolen or replayed, so the whole session family ends.
 */
export async function refreshSession(
  database: Database,
  clock: Clock,
  refreshToken: string,
  onReuse: (session: SessionRow) => Promise<void>,
): Promise<IssuedSession> {
  const now = clock.now();
  const session = await findSessionByRefreshHash(database.system, hashToken(refreshToken));
  if (session === undefined) throw new AppError('auth.refreshInvalid');
  if (session.revokedReason === 'rotated') {
    await revokeFamily(database.system, session.familyId, 'refresh_reused', now);
    await onReuse(session);
    throw new AppError('auth.refreshInvalid');
  }
  if (session.revokedAt !== null) throw errorForRevoked(session);
  if ((session.refreshExpiresAt ?? session.expiresAt).getTime() <= now.getTime()) throw new AppError('auth.sessionExpired');

  const accessToken = newSessionToken();
  const nextRefreshToken = newSessionToken();
  const sessionEnd = session.refreshExpiresAt ?? session.expiresAt;
  const rotated = await rotateSession(
    database.system,
    session,
    {
      tokenHash: hashToken(accessToken),
      refreshHash: hashToken(nextRefreshToken),
      expiresAt: new Date(Math.min(now.getTime() + SESSION_RULES.accessTokenMinutes * MINUTE, sessionEnd.getTime())),
    },
    now,
  );
  if (rotated === undefined) {
    // Lost a race with another use of the same refresh token: treat it as reuse.
    await revokeFamily(database.system, session.familyId, 'refresh_reused', now);
    await onReuse(session);
    throw new AppError('auth.refreshInvalid');
  }
  return { accessToken, refreshToken: nextRefreshToken, session: rotated, auth: await contextOf(database, rotated) };
}
