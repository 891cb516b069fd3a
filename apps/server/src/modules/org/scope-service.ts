import {
  LIMITS,
  SCOPE_ADMIN_ROLES,
  type Scope,
  type ScopeAdmin,
  type ScopeDetail,
  type ScopeInput,
  type ScopeNode,
  type ScopeUpdate,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { findActiveUsers, listCentersOfScope } from './center-store.js';
import {
  distinct,
  inCallerTransaction,
  mappingDatabaseErrors,
  requireWholeTenant,
  seesWholeTenant,
  toOrgUser,
  type OrgEnvironment,
} from './environment.js';
import * as store from './scope-store.js';
import { toForest, toScope } from './views.js';

/** Scope hierarchy rules (spec §3, §4, §5): levels 1 to 5, names unique per level, in-use refusals. */

const toAdmin = (row: { kind: string; user: Parameters<typeof toOrgUser>[0] }): ScopeAdmin => ({
  ...toOrgUser(row.user),
  kind: row.kind === 'ADMIN' ? 'ADMIN' : 'SUPPORT',
});

async function requireScope(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}) {
  const scope = options.lock === true ? await store.lockScope(tx, id) : await store.findScope(tx, id);
  if (scope === undefined) throw new AppError('scope.notFound');
  return scope;
}

/**
 * The scopes a caller's `smadmin` calls reach: those they administer or act at (their level's
 * scope) and everything below them; null for a caller who sees the whole tenant.
 */
async function callerSubtree(tx: TenantTransaction, environment: OrgEnvironment): Promise<string[] | null> {
  const { auth } = environment;
  if (seesWholeTenant(auth)) return null;
  const administered = await store.scopeIdsAdministeredBy(tx, auth.userId);
  return store.subtreeIds(tx, distinct([...(auth.scopeId === null ? [] : [auth.scopeId]), ...administered]));
}

/** The level a scope gets under `parentId`: 1 for a root, else the parent's + 1 (at most 5). */
async function levelUnder(tx: TenantTransaction, parentId: string | null, requested: number | undefined, depthBelow = 0): Promise<number> {
  const level = parentId === null ? LIMITS.scopeLevelMin : (await requireScope(tx, parentId)).level + 1;
  if (level + depthBelow > LIMITS.scopeLevelMax || (requested !== undefined && requested !== level)) throw new AppError('scope.invalidLevel');
  return level;
}

async function detailOf(tx: TenantTransaction, scope: store.ScopeRow): Promise<ScopeDetail> {
  const parent = scope.parentId === null ? undefined : await store.findScope(tx, scope.parentId);
  const children = await store.listChildren(tx, scope.id);
  const centers = await listCentersOfScope(tx, scope.id);
  const admins = await store.listScopeAdmins(tx, scope.id);
  return {
    ...toScope(scope),
    parent: parent === undefined ? null : { id: parent.id, name: parent.name, level: parent.level },
    childrenCount: children.length,
    centers: centers.map((center) => ({ id: center.id, name: center.name, enabled: center.enabled })),
    admins: admins.items.map(toAdmin),
  };
}

export interface ScopeListQuery {
  page: number;
  size: number;
  searchValue?: string | undefined;
  type?: string | undefined;
  parentId?: string | undefined;
}

async function listWithin(environment: OrgEnvironment, query: ScopeListQuery, isCallerLimited: boolean) {
  return inCallerTransaction(environment, async (tx) => {
    const within = isCallerLimited ? await callerSubtree(tx, environment) : null;
    const { items, total } = await store.listScopes(tx, { ...query, within });
    return { items: items.map(toScope), page: query.page, size: query.size, total };
  });
}

/** GET /sadmin/mhsc/scope: every scope of the acting tenant. */
export function listScopes(environment: OrgEnvironment, query: ScopeListQuery) {
  requireWholeTenant(environment.auth);
  return listWithin(environment, query, false);
}

/** GET /smadmin/scope: the scopes of the caller's subtree. */
export function listCallerScopes(environment: OrgEnvironment, query: ScopeListQuery) {
  return listWithin(environment, query, true);
}

/** GET /sadmin/mhsc/scope/children: the direct children of a scope, or the roots. */
export async function listChildScopes(environment: OrgEnvironment, scopeId: string | undefined): Promise<Scope[]> {
  requireWholeTenant(environment.auth);
  return inCallerTransaction(environment, async (tx) => {
    if (scopeId !== undefined) await requireScope(tx, scopeId);
    return (await store.listChildren(tx, scopeId ?? null)).map(toScope);
  });
}

/** GET /manage/scope/all: every scope of the acting tenant, flat. */
export async function listAllScopes(environment: OrgEnvironment): Promise<Scope[]> {
  return inCallerTransaction(environment, async (tx) => (await store.listAllScopes(tx)).map(toScope));
}

export async function getScope(environment: OrgEnvironment, id: string): Promise<ScopeDetail> {
  requireWholeTenant(environment.auth);
  return inCallerTransaction(environment, async (tx) => detailOf(tx, await requireScope(tx, id)));
}

export interface HierarchyQuery {
  scopeId?: string | undefined;
  isFetchParent: boolean;
  isFetchChildren: boolean;
}

async function hierarchyWithin(tx: TenantTransaction, query: HierarchyQuery, within: readonly string[] | null): Promise<ScopeNode[]> {
  const isReachable = (id: string) => within === null || within.includes(id);
  if (query.scopeId === undefined) {
    const rows = within === null ? await store.listAllScopes(tx) : await store.findScopesByIds(tx, within);
    const forest = toForest(rows);
    return query.isFetchChildren ? forest : forest.map((root) => ({ ...root, children: [] }));
  }
  if (!isReachable(query.scopeId)) throw new AppError('scope.notFound');
  const scope = await requireScope(tx, query.scopeId);
  const below = query.isFetchChildren ? await store.findScopesByIds(tx, await store.subtreeIds(tx, [scope.id])) : [scope];
  let node = toForest(below).find((root) => root.id === scope.id);
  if (node === undefined) throw new AppError('scope.notFound');
  if (query.isFetchParent) {
    // Ancestors nearest first; a caller limited to a subtree sees them only up to its top.
    const ancestors = await store.findScopesByIds(tx, await store.ancestorIds(tx, scope.id));
    const byId = new Map(ancestors.map((row) => [row.id, row]));
    for (let parentId = scope.parentId; parentId !== null; ) {
      const parent = byId.get(parentId);
      if (parent === undefined || !isReachable(parent.id)) break;
      node = { ...toScope(parent), children: [node] };
      parentId = parent.parentId;
    }
  }
  return [node];
}

/** GET /sadmin/mhsc/scope/hierarchy. */
export function scopeHierarchy(environment: OrgEnvironment, query: HierarchyQuery): Promise<ScopeNode[]> {
  requireWholeTenant(environment.auth);
  return inCallerTransaction(environment, (tx) => hierarchyWithin(tx, query, null));
}

/** GET /smadmin/scope/hierarchy: the same, limited to the caller's subtree (others: not found). */
export function callerScopeHierarchy(environment: OrgEnvironment, query: HierarchyQuery): Promise<ScopeNode[]> {
  return inCallerTransaction(environment, async (tx) => hierarchyWithin(tx, query, await callerSubtree(tx, environment)));
}

/** GET /smadmin/scope/me: the scopes the caller administers or acts at. */
export async function listMyScopes(environment: OrgEnvironment): Promise<Scope[]> {
  const { auth } = environment;
  return inCallerTransaction(environment, async (tx) => {
    const administered = await store.scopeIdsAdministeredBy(tx, auth.userId);
    const ids = distinct([...(auth.scopeId === null ? [] : [auth.scopeId]), ...administered]);
    return (await store.findScopesByIds(tx, ids)).map(toScope);
  });
}

export async function createScope(environment: OrgEnvironment, input: ScopeInput): Promise<ScopeDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return mappingDatabaseErrors({ duplicate: 'scope.nameExists' }, () =>
    inCallerTransaction(environment, async (tx) => {
      const level = await levelUnder(tx, input.parentId, input.level);
      const now = clock.now();
      const scope = await store.insertScope(tx, {
        tenantId: auth.tenantId,
        id: uuidv7(),
        name: input.name,
        type: input.type,
        level,
        parentId: input.parentId,
        createdAt: now,
        updatedAt: now,
      });
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'SCOPE_CREATED',
        targetType: 'scope',
        targetId: scope.id,
        details: { name: scope.name, type: scope.type, level, parentId: scope.parentId },
        at: now,
      });
      return detailOf(tx, scope);
    }),
  );
}

/** PUT /sadmin/mhsc/scope/{id}: name, type and parent; a move takes the whole subtree along. */
export async function updateScope(environment: OrgEnvironment, id: string, input: ScopeUpdate): Promise<ScopeDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return mappingDatabaseErrors({ duplicate: 'scope.nameExists' }, () =>
    inCallerTransaction(environment, async (tx) => {
      const before = await requireScope(tx, id, { lock: true });
      const parentId = input.parentId === undefined ? before.parentId : input.parentId;
      const subtree = await store.findScopesByIds(tx, await store.subtreeIds(tx, [id]));
      if (parentId !== null && subtree.some((row) => row.id === parentId)) throw new AppError('scope.invalidParent');
      const depthBelow = Math.max(...subtree.map((row) => row.level)) - before.level;
      const level = await levelUnder(tx, parentId, input.level, depthBelow);
      const now = clock.now();
      await store.shiftLevels(tx, subtree.filter((row) => row.id !== id).map((row) => row.id), level - before.level, now);
      const scope = await store.updateScope(tx, id, { name: input.name, type: input.type ?? before.type, parentId, level, updatedAt: now });
      if (scope === undefined) throw new AppError('scope.notFound');
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'SCOPE_UPDATED',
        targetType: 'scope',
        targetId: id,
        details: {
          before: { name: before.name, type: before.type, parentId: before.parentId, level: before.level },
          after: { name: scope.name, type: scope.type, parentId: scope.parentId, level: scope.level },
        },
        at: now,
      });
      return detailOf(tx, scope);
    }),
  );
}

/**
 * PUT /sadmin/mhsc/scope/name-and-status/{id}. Deactivation is refused while enabled centers,
 * enabled child scopes or admins still depend on the scope (spec §4).
 */
export async function updateScopeNameAndStatus(environment: OrgEnvironment, id: string, input: { name: string; enabled: boolean }): Promise<ScopeDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return mappingDatabaseErrors({ duplicate: 'scope.nameExists' }, () =>
    inCallerTransaction(environment, async (tx) => {
      const before = await requireScope(tx, id, { lock: true });
      if (before.enabled && !input.enabled) {
        const usage = await store.scopeUsage(tx, id);
        if (usage.enabledCenters > 0 || usage.enabledChildren > 0 || usage.admins > 0) throw new AppError('scope.inUse');
      }
      const now = clock.now();
      const scope = await store.updateScope(tx, id, { name: input.name, enabled: input.enabled, updatedAt: now });
      if (scope === undefined) throw new AppError('scope.notFound');
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'SCOPE_UPDATED',
        targetType: 'scope',
        targetId: id,
        details: { before: { name: before.name, enabled: before.enabled }, after: { name: scope.name, enabled: scope.enabled } },
        at: now,
      });
      return detailOf(tx, scope);
    }),
  );
}

/** DELETE /sadmin/mhsc/scope/{id}: only a leaf with no centers and no admins. */
export async function deleteScope(environment: OrgEnvironment, id: string): Promise<void> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  await mappingDatabaseErrors({ duplicate: 'scope.nameExists', inUse: 'scope.inUse' }, () =>
    inCallerTransaction(environment, async (tx) => {
      const scope = await requireScope(tx, id, { lock: true });
      const usage = await store.scopeUsage(tx, id);
      if (usage.children > 0) throw new AppError('scope.hasChildren');
      if (usage.centers > 0 || usage.admins > 0) throw new AppError('scope.inUse');
      await store.deleteScope(tx, id);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'SCOPE_DELETED',
        targetType: 'scope',
        targetId: id,
        details: { name: scope.name, level: scope.level, parentId: scope.parentId },
        at: clock.now(),
      });
    }),
  );
}

/** GET /sadmin/mhsc/scope/support-admin: a scope's admins and support admins, paged. */
export async function listScopeAdmins(environment: OrgEnvironment, query: { page: number; size: number; scopeId: string }) {
  requireWholeTenant(environment.auth);
  return inCallerTransaction(environment, async (tx) => {
    await requireScope(tx, query.scopeId);
    const { items, total } = await store.listScopeAdmins(tx, query.scopeId, query);
    return { items: items.map(toAdmin), page: query.page, size: query.size, total };
  });
}

/** PUT /sadmin/mhsc/scope/{id}/admins: replaces the scope's admins (active admin accounts only). */
export async function setScopeAdmins(environment: OrgEnvironment, id: string, input: { adminIds: string[]; supportAdminIds: string[] }): Promise<ScopeDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return inCallerTransaction(environment, async (tx) => {
    const scope = await requireScope(tx, id, { lock: true });
    const adminIds = distinct(input.adminIds);
    const supportAdminIds = distinct(input.supportAdminIds);
    const wanted = [...adminIds, ...supportAdminIds];
    const found = await findActiveUsers(tx, wanted);
    if (found.length !== wanted.length || found.some((user) => !(SCOPE_ADMIN_ROLES as readonly string[]).includes(user.role))) {
      throw new AppError('scope.invalidAdmin');
    }
    const before = await store.listScopeAdmins(tx, id);
    await store.replaceScopeAdmins(tx, auth.tenantId, id, [
      ...adminIds.map((userId) => ({ userId, kind: 'ADMIN' as const })),
      ...supportAdminIds.map((userId) => ({ userId, kind: 'SUPPORT' as const })),
    ]);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'SCOPE_ADMINS_UPDATED',
      targetType: 'scope',
      targetId: id,
      details: { before: before.items.map((row) => ({ userId: row.user.id, kind: row.kind })), adminIds, supportAdminIds },
      at: clock.now(),
    });
    return detailOf(tx, scope);
  });
}
