import type { CenterDetail, CenterSummary, OrgUser, Scope, ScopeNode } from '@rpm/contracts';
import type { TenantTransaction } from '../../db/database.js';
import { centerUsage, listCenterAdmins, type CenterRow } from './center-store.js';
import { distinct, toOrgUser } from './environment.js';
import { findScopesByIds, type ScopeRow } from './scope-store.js';

/** How rows become API answers (shared by the sadmin, smadmin, user and manage calls). */

export function toScope(row: ScopeRow): Scope {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    level: row.level,
    parentId: row.parentId,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Trees of the given scopes: a scope whose parent is not among them is a root. */
export function toForest(rows: readonly ScopeRow[]): ScopeNode[] {
  const nodes = new Map(rows.map((row) => [row.id, { ...toScope(row), children: [] as ScopeNode[] }]));
  const roots: ScopeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id);
    if (node === undefined) continue;
    const parent = row.parentId === null ? undefined : nodes.get(row.parentId);
    if (parent === undefined) roots.push(node);
    else parent.children.push(node);
  }
  return roots;
}

type AdminRows = Awaited<ReturnType<typeof listCenterAdmins>>;

/** Summaries of centers, with their scope and MAIN admin looked up in two queries. */
export async function toCenterSummaries(tx: TenantTransaction, rows: readonly CenterRow[]): Promise<CenterSummary[]> {
  const scopeIds = distinct(rows.flatMap((row) => (row.scopeId === null ? [] : [row.scopeId])));
  const scopeRows = await findScopesByIds(tx, scopeIds);
  const adminRows = await listCenterAdmins(tx, rows.map((row) => row.id));
  const scopesById = new Map(scopeRows.map((scope) => [scope.id, scope]));
  return rows.map((row) => summaryOf(row, scopesById, adminRows));
}

function summaryOf(row: CenterRow, scopesById: ReadonlyMap<string, ScopeRow>, adminRows: AdminRows): CenterSummary {
  const scope = row.scopeId === null ? undefined : scopesById.get(row.scopeId);
  const main = adminRows.find((admin) => admin.centerId === row.id && admin.kind === 'MAIN');
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    scope: scope === undefined ? null : { id: scope.id, name: scope.name, level: scope.level },
    phonePrefix: row.phonePrefix,
    phoneNumber: row.phoneNumber,
    hotline: row.hotline,
    email: row.email,
    address: row.address,
    hasLogo: row.logoFile !== null,
    mainAdmin: main === undefined ? null : toOrgUser(main.user),
  };
}

/** Every field of spec §3, the scope, the admins, and how many staff and patients it has. */
export async function toCenterDetail(tx: TenantTransaction, row: CenterRow): Promise<CenterDetail> {
  const scopeRows = await findScopesByIds(tx, row.scopeId === null ? [] : [row.scopeId]);
  const adminRows = await listCenterAdmins(tx, [row.id]);
  const usage = await centerUsage(tx, row.id);
  const supportAdmins: OrgUser[] = adminRows.filter((admin) => admin.kind === 'SUPPORT').map((admin) => toOrgUser(admin.user));
  return {
    ...summaryOf(row, new Map(scopeRows.map((scope) => [scope.id, scope])), adminRows),
    representative: row.representative,
    website: row.website,
    lat: row.lat,
    lng: row.lng,
    supportAdmins,
    staffCount: usage.staff,
    patientCount: usage.patients,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
