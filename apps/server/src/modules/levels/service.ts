import type { LevelOptions, LevelSwitch } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { levelOf, type ActiveLevel } from '../auth/levels.js';
import { findUserById } from '../auth/store.js';
import { findTenantById, findTenantsByIds, listActiveTenants } from '../tenants/store.js';
import { allLevelsOf } from '../staff/detail.js';
import { isPlatformRole, isSuperRole } from '../staff/placement.js';
import { findAccount, findCenter, findScope } from '../staff/store.js';
import { assignedActiveTenants, centerOptions, scopeOptions, updateSessionLevel, type CenterOption, type ScopeOption } from './store.js';

export interface LevelEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

interface TenantOption {
  id: string;
  code: string;
  name: string;
}

/**
 * The tenants a caller may act in: ROOT and SUPER_ADMIN every active customer tenant, a
 * SYSTEM_ADMIN the active tenants assigned to them, everyone else their own. The tenant they act in
 * now and the one holding their account are always among them.
 */
async function tenantOptions(database: Database, auth: AuthContext): Promise<TenantOption[]> {
  const { system } = database;
  const offered = isSuperRole(auth.role)
    ? await listActiveTenants(system)
    : auth.role === 'SYSTEM_ADMIN'
      ? await assignedActiveTenants(system, auth.userId)
      : [];
  const missing = [auth.tenantId, auth.accountTenantId].filter((id) => !offered.some((tenant) => tenant.id === id));
  const always = missing.length === 0 ? [] : (await findTenantsByIds(system, missing)).filter((tenant) => tenant.status === 'ACTIVE');
  return [...always, ...offered].map(({ id, code, name }) => ({ id, code, name }));
}

/**
 * What a level may narrow to, in the tenant the session acts in: a tenant-wide level (platform
 * staff included) every scope and center, a scope level its subtree, a center level its center.
 * Read from the level itself, not from the session's current narrowing, which only shrinks it.
 */
async function narrowingOptions(database: Database, tenantId: string, level: ActiveLevel): Promise<{ scopes: ScopeOption[]; centers: CenterOption[] }> {
  return database.withTenant(tenantId, async (tx) => {
    if (isPlatformRole(level.role) || (level.scopeId === null && level.centerId === null)) {
      return { scopes: await scopeOptions(tx), centers: await centerOptions(tx) };
    }
    if (level.centerId !== null) return { scopes: [], centers: await centerOptions(tx, { centerIds: [level.centerId] }) };
    const scopeId = level.scopeId ?? '';
    return { scopes: await scopeOptions(tx, scopeId), centers: await centerOptions(tx, { scopeId }) };
  });
}

/** The caller's own account and one of its levels (their own record, in their account tenant). */
async function ownLevel(database: Database, auth: AuthContext, levelId: string | null): Promise<ActiveLevel> {
  const level = await database.withTenant(auth.accountTenantId, async (tx) => {
    const user = await findUserById(tx, auth.userId);
    return user === undefined ? undefined : levelOf(tx, user, levelId);
  });
  if (level === undefined) throw new AppError('level.notFound');
  return level;
}

/** GET /account/level/options: the levels, tenants, scopes and centers the switcher offers. */
export async function readLevelOptions(environment: LevelEnvironment): Promise<LevelOptions> {
  const { database, auth } = environment;
  const levels = await database.withTenant(auth.accountTenantId, async (tx) => {
    const own = await findAccount(tx, auth.userId);
    if (own === undefined) throw new AppError('account.notFound');
    return allLevelsOf(tx, own);
  });
  const [tenants, narrowing] = await Promise.all([
    tenantOptions(database, auth),
    ownLevel(database, auth, auth.levelId).then((level) => narrowingOptions(database, auth.tenantId, level)),
  ]);
  return {
    current: { levelId: auth.levelId, tenantId: auth.tenantId, scopeId: auth.scopeId, centerId: auth.centerId },
    levels,
    tenants,
    ...narrowing,
  };
}

/**
 * PUT /account/level: the session acts at another level, in another tenant (platform staff) or
 * narrowed to one scope or health center. Each choice must be among the options: an id that does
 * not exist is level.notFound, one that exists but is not offered is auth.permissionDenied.
 */
export async function switchLevel(environment: LevelEnvironment, input: LevelSwitch): Promise<void> {
  const { database, auth, clock } = environment;
  const tenantId = input.tenantId ?? auth.tenantId;
  if (tenantId !== auth.tenantId) {
    if ((await findTenantById(database.system, tenantId)) === undefined) throw new AppError('level.notFound');
    if (!(await tenantOptions(database, auth)).some((tenant) => tenant.id === tenantId)) throw new AppError('auth.permissionDenied');
  }
  const level = await ownLevel(database, auth, input.levelId);
  // Only platform roles act outside the tenant holding the account.
  if (tenantId !== auth.accountTenantId && !isPlatformRole(level.role)) throw new AppError('auth.permissionDenied');

  const allowed = await narrowingOptions(database, tenantId, level);
  await database.withTenant(tenantId, async (tx) => {
    if (input.scopeId !== null) {
      if ((await findScope(tx, input.scopeId)) === undefined) throw new AppError('level.notFound');
      if (!allowed.scopes.some((scope) => scope.id === input.scopeId)) throw new AppError('auth.permissionDenied');
    }
    if (input.centerId !== null) {
      const center = await findCenter(tx, input.centerId);
      if (center === undefined) throw new AppError('level.notFound');
      if (!allowed.centers.some((option) => option.id === input.centerId)) throw new AppError('auth.permissionDenied');
      // A center and a scope together: the center must lie in that scope.
      if (input.scopeId !== null && !(await centerOptions(tx, { scopeId: input.scopeId })).some((option) => option.id === center.id)) {
        throw new AppError('auth.permissionDenied');
      }
    }
  });

  const now = clock.now();
  const isUpdated = await updateSessionLevel(
    database.system,
    auth.sessionId,
    { levelId: level.levelId, filterScopeId: input.scopeId, filterCenterId: input.centerId, tenantId, role: level.role },
    now,
  );
  if (!isUpdated) throw new AppError('auth.unauthorized');
  await database.withTenant(auth.accountTenantId, (tx) =>
    recordAudit(tx, auth.accountTenantId, environment.audit, {
      action: 'LEVEL_SWITCHED',
      subjectUserId: auth.userId,
      details: {
        from: { levelId: auth.levelId, tenantId: auth.tenantId, scopeId: auth.scopeId, centerId: auth.centerId },
        to: { levelId: level.levelId, tenantId, scopeId: input.scopeId, centerId: input.centerId },
        sessionFamily: auth.familyId,
      },
      at: now,
    }),
  );
}
