import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { loginThrottle, platformStaffTenants, tenantConnections, tenantEmailTemplates, tenants, tenantSettings } from '../../db/schema.js';

export type TenantRow = typeof tenants.$inferSelect;
export type TenantConnectionRow = typeof tenantConnections.$inferSelect;
export type EmailTemplateRow = typeof tenantEmailTemplates.$inferSelect;

/**
 * Where control-plane rows are written: the system store, or a tenant transaction that runs in
 * the platform database (a SHARED tenant's), so that a control-plane change and its audit row
 * commit together. Never a DEDICATED tenant's transaction: its database is not the control plane.
 */
export type ControlPlane = PgDatabase<NodePgQueryResultHKT>;

/** Customer tenants people log in to (the platform tenant is not offered in pickers). */
export function listActiveTenants(system: SystemStore): Promise<TenantRow[]> {
  return system
    .select()
    .from(tenants)
    .where(and(eq(tenants.status, 'ACTIVE'), eq(tenants.isPlatform, false)))
    .orderBy(asc(tenants.name));
}

/**
 * Active customer tenants whose public URL has this host (lower case, with the port when the URL
 * names one), e.g. "clinic.example" for https://clinic.example/console.
 */
export function findActiveTenantsByPublicHost(system: SystemStore, host: string): Promise<TenantRow[]> {
  return system
    .select()
    .from(tenants)
    .where(
      and(
        eq(tenants.status, 'ACTIVE'),
        eq(tenants.isPlatform, false),
        sql`lower(substring(${tenants.publicUrl} from '^https?://([^/?#]+)')) = ${host}`,
      ),
    )
    .limit(2);
}

export async function findPlatformTenant(system: SystemStore): Promise<TenantRow> {
  const rows = await system.select().from(tenants).where(eq(tenants.isPlatform, true)).limit(1);
  const platform = rows[0];
  if (platform === undefined) throw new Error('the platform tenant is missing: migrations were not applied');
  return platform;
}

export async function findActiveTenantByCode(system: SystemStore, code: string): Promise<TenantRow | undefined> {
  const rows = await system
    .select()
    .from(tenants)
    .where(and(eq(tenants.code, code.trim().toLowerCase()), eq(tenants.status, 'ACTIVE')))
    .limit(1);
  return rows[0];
}

export async function findTenantById(system: ControlPlane, id: string): Promise<TenantRow | undefined> {
  const rows = await system.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  return rows[0];
}

/** The tenant row, locked until the transaction ends (changes of one tenant are serialised). */
export async function lockTenant(controlPlane: ControlPlane, id: string): Promise<TenantRow | undefined> {
  const rows = await controlPlane.select().from(tenants).where(eq(tenants.id, id)).limit(1).for('update');
  return rows[0];
}

export async function readTenantSettings(system: ControlPlane, tenantId: string): Promise<Map<string, string>> {
  const rows = await system.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId));
  return new Map(rows.map((row) => [row.key, row.value]));
}

export function findTenantsByIds(system: SystemStore, ids: string[]): Promise<TenantRow[]> {
  return system.select().from(tenants).where(inArray(tenants.id, [...new Set(ids)]));
}

// Super admin -------------------------------------------------------------------------------------

export interface TenantListQuery {
  page: number;
  size: number;
  search?: string | undefined;
  sort: 'name' | 'created';
  order: 'asc' | 'desc';
  /** A system admin's tenants; undefined for everyone who sees all. */
  onlyIds?: string[] | undefined;
}

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

export async function listCustomerTenants(system: SystemStore, query: TenantListQuery) {
  const conditions: SQL[] = [eq(tenants.isPlatform, false)];
  if (query.onlyIds !== undefined) conditions.push(query.onlyIds.length === 0 ? sql`false` : inArray(tenants.id, query.onlyIds));
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    const match = or(ilike(tenants.name, pattern), ilike(tenants.officialName, pattern), ilike(tenants.code, pattern));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const direction = query.order === 'asc' ? asc : desc;
  const order = query.sort === 'name' ? [direction(sql`lower(${tenants.name})`), direction(tenants.id)] : [direction(tenants.createdAt), direction(tenants.id)];
  const [items, totals] = await Promise.all([
    system.select().from(tenants).where(where).orderBy(...order).limit(query.size).offset(query.page * query.size),
    system.select({ total: count() }).from(tenants).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}

/** The tenants a platform staff member is assigned to (spec §6: "System admin is assigned to tenants"). */
export async function assignedTenantIds(system: SystemStore, userId: string): Promise<string[]> {
  const rows = await system.select({ tenantId: platformStaffTenants.tenantId }).from(platformStaffTenants).where(eq(platformStaffTenants.userId, userId));
  return rows.map((row) => row.tenantId);
}

/** Another tenant (not `exceptId`) already using the name (any case) or the code. */
export async function findIdentityClash(controlPlane: ControlPlane, identity: { name: string; code?: string }, exceptId?: string) {
  const sameName = sql`lower(${tenants.name}) = lower(${identity.name})`;
  const clash = identity.code === undefined ? sameName : or(sameName, eq(tenants.code, identity.code));
  const rows = await controlPlane
    .select({ name: tenants.name, code: tenants.code })
    .from(tenants)
    .where(exceptId === undefined ? clash : and(clash, ne(tenants.id, exceptId)));
  return {
    isNameTaken: rows.some((row) => row.name.toLowerCase() === identity.name.toLowerCase()),
    isCodeTaken: identity.code !== undefined && rows.some((row) => row.code === identity.code),
  };
}

export async function insertTenant(controlPlane: ControlPlane, tenant: typeof tenants.$inferInsert): Promise<TenantRow> {
  const [created] = await controlPlane.insert(tenants).values(tenant).returning();
  if (!created) throw new Error('tenant insert returned no row');
  return created;
}

export async function updateTenant(controlPlane: ControlPlane, id: string, changes: Partial<typeof tenants.$inferInsert>): Promise<TenantRow> {
  const [updated] = await controlPlane.update(tenants).set(changes).where(eq(tenants.id, id)).returning();
  if (!updated) throw new Error(`tenant ${id} vanished during an update`);
  return updated;
}

/** Sets the given keys (null: back to the default, i.e. no row). */
/** Whether the database knows an IANA time zone (its rollups and local days use it). */
export async function isDatabaseTimeZone(system: SystemStore, name: string): Promise<boolean> {
  const result = await system.execute<{ known: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${name}) AS known`);
  return result.rows[0]?.known === true;
}

export async function writeTenantSettings(controlPlane: ControlPlane, tenantId: string, values: Record<string, string | null>, now: Date) {
  const removed = Object.entries(values).filter(([, value]) => value === null).map(([key]) => key);
  const set = Object.entries(values).flatMap(([key, value]) => (value === null ? [] : [{ tenantId, key, value, updatedAt: now }]));
  if (removed.length > 0) await controlPlane.delete(tenantSettings).where(and(eq(tenantSettings.tenantId, tenantId), inArray(tenantSettings.key, removed)));
  if (set.length > 0) {
    await controlPlane
      .insert(tenantSettings)
      .values(set)
      .onConflictDoUpdate({ target: [tenantSettings.tenantId, tenantSettings.key], set: { value: sql`excluded.value`, updatedAt: now } });
  }
}

/** Branches, admins, doctors and patients of the transaction's tenant (its own data plane). */
export async function countTenantRecords(tx: TenantTransaction) {
  const result = await tx.execute<{ healthCenters: number; admins: number; doctors: number; patients: number }>(sql`
    SELECT (SELECT count(*)::int FROM health_centers) AS "healthCenters",
           (SELECT count(*)::int FROM users WHERE deleted_at IS NULL
              AND role IN ('ADMIN', 'MAIN_ADMIN', 'SUPPORT_ADMIN', 'SCOPE_ADMIN', 'MHSC_ADMIN')) AS admins,
           (SELECT count(*)::int FROM users WHERE deleted_at IS NULL AND role = 'DOCTOR') AS doctors,
           (SELECT count(*)::int FROM patients) AS patients`);
  const row = result.rows[0];
  if (row === undefined) throw new Error('no counts');
  return row;
}

/**
 * Whether the transaction's tenant has any of the records its people work with. Audit rows and
 * outbox messages do not count: they are history, and stay where they were written.
 */
export async function hasTenantRecords(tx: TenantTransaction): Promise<boolean> {
  const result = await tx.execute<{ found: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM scopes) OR EXISTS (SELECT 1 FROM health_centers)
        OR EXISTS (SELECT 1 FROM patients) OR EXISTS (SELECT 1 FROM devices) OR EXISTS (SELECT 1 FROM roles) AS found`);
  return result.rows[0]?.found === true;
}

/** Whether any of the transaction's tenant's patients has a reading stored (wherever readings live). */
export async function hasTenantReadings(tx: TenantTransaction): Promise<boolean> {
  const result = await tx.execute<{ found: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM patients WHERE last_reading_at IS NOT NULL) AS found`);
  return result.rows[0]?.found === true;
}

// Connections -------------------------------------------------------------------------------------

export function listConnections(system: SystemStore, tenantId: string): Promise<TenantConnectionRow[]> {
  return system.select().from(tenantConnections).where(eq(tenantConnections.tenantId, tenantId)).orderBy(asc(tenantConnections.kind));
}

/** The stored connections of these kinds of every DEDICATED tenant, tenant by tenant (oldest first), kinds in name order. */
export async function listDedicatedConnections(system: SystemStore, kinds: readonly string[]): Promise<TenantConnectionRow[]> {
  const rows = await system
    .select({ connection: tenantConnections })
    .from(tenantConnections)
    .innerJoin(tenants, eq(tenants.id, tenantConnections.tenantId))
    .where(and(eq(tenants.connectionType, 'DEDICATED'), inArray(tenantConnections.kind, [...kinds])))
    .orderBy(asc(tenants.createdAt), asc(tenants.id), asc(tenantConnections.kind));
  return rows.map((row) => row.connection);
}

/** Where every other tenant's stored connections lead (only DEDICATED tenants have any). */
export function listOtherTenantsConnections(controlPlane: ControlPlane, tenantId: string) {
  return controlPlane
    .select({ tenantId: tenantConnections.tenantId, host: tenantConnections.host, port: tenantConnections.port, databaseName: tenantConnections.databaseName, targetIdentity: tenantConnections.targetIdentity })
    .from(tenantConnections)
    .where(ne(tenantConnections.tenantId, tenantId));
}
export type OtherTenantConnection = Awaited<ReturnType<typeof listOtherTenantsConnections>>[number];

/** Serialises connection changes of all tenants (a transaction-scoped advisory lock). */
export async function lockConnectionChanges(controlPlane: ControlPlane) {
  await controlPlane.execute(sql`SELECT pg_advisory_xact_lock(727019)`);
}

/**
 * Counts one attempt under `key` in the shared throttle table (a window that restarts once it is
 * over) and says when the window ends.
 */
export async function countAttempt(system: SystemStore, key: string, now: Date, windowMilliseconds: number): Promise<{ attempts: number; windowEndsAt: Date }> {
  const windowStart = new Date(now.getTime() - windowMilliseconds);
  const [row] = await system
    .insert(loginThrottle)
    .values({ key, windowStartedAt: now, failures: 1 })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`CASE WHEN ${loginThrottle.windowStartedAt} < ${windowStart} THEN 1 ELSE ${loginThrottle.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${loginThrottle.windowStartedAt} < ${windowStart} THEN ${now}::timestamptz ELSE ${loginThrottle.windowStartedAt} END`,
      },
    })
    .returning({ failures: loginThrottle.failures, windowStartedAt: loginThrottle.windowStartedAt });
  return { attempts: row?.failures ?? 1, windowEndsAt: new Date((row?.windowStartedAt ?? now).getTime() + windowMilliseconds) };
}

export async function replaceConnections(controlPlane: ControlPlane, tenantId: string, rows: (typeof tenantConnections.$inferInsert)[]) {
  await controlPlane.delete(tenantConnections).where(eq(tenantConnections.tenantId, tenantId));
  if (rows.length > 0) await controlPlane.insert(tenantConnections).values(rows);
}

// Email templates ---------------------------------------------------------------------------------

export async function findEmailTemplate(controlPlane: ControlPlane, tenantId: string, key: string, language: string): Promise<EmailTemplateRow | undefined> {
  const rows = await controlPlane
    .select()
    .from(tenantEmailTemplates)
    .where(and(eq(tenantEmailTemplates.tenantId, tenantId), eq(tenantEmailTemplates.key, key), eq(tenantEmailTemplates.language, language)))
    .limit(1);
  return rows[0];
}

export async function upsertEmailTemplate(controlPlane: ControlPlane, row: typeof tenantEmailTemplates.$inferInsert & { updatedAt: Date }) {
  await controlPlane
    .insert(tenantEmailTemplates)
    .values(row)
    .onConflictDoUpdate({
      target: [tenantEmailTemplates.tenantId, tenantEmailTemplates.key, tenantEmailTemplates.language],
      set: { subject: row.subject, body: row.body, updatedAt: row.updatedAt },
    });
}
