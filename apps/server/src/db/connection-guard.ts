/**
 * What a database connection really leads to, read from inside the session: which server and
 * database it reached and whether its login role could escape row level security. A DEDICATED
 * tenant's connections are checked with these facts when they are tested or saved and again by
 * the router for each new physical connection, so a tenant can never be served from the platform
 * database or by a role that bypasses row level security.
 *
 * Every name is qualified with pg_catalog: the role's own search_path must not change the answer.
 */

/**
 * How long a DEDICATED tenant's pooled connection lives: it is checked when it is made, so a role
 * changed afterwards is noticed at the latest when its connections are replaced.
 */
export const DEDICATED_CONNECTION_LIFETIME_SECONDS = 300;

/** Anything that runs a query: a pg Client, a pg Pool. */
export interface Queryable {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
}

export interface ConnectionFacts {
  databaseName: string;
  /** The database's oid: unique within its server (and the same on its physical replicas). */
  databaseOid: string;
  /** The server's start time (epoch seconds with microseconds): tells servers apart right now. */
  serverStartedAt: string;
  /**
   * The cluster's system identifier (pg_control_system()): stable across restarts, shared by
   * physical replicas. Null when the role may not read it.
   */
  systemIdentifier: string | null;
  /**
   * The login role (session or current user) is, or is a member of, a role that is superuser,
   * has BYPASSRLS or CREATEROLE: such a role can bypass row level security or make one that can.
   */
  isPrivileged: boolean;
}

const FACTS_QUERY = `SELECT pg_catalog.current_database()::text AS "databaseName",
  (SELECT d.oid::text FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()) AS "databaseOid",
  EXTRACT(epoch FROM pg_catalog.pg_postmaster_start_time())::text AS "serverStartedAt",
  EXISTS (
    SELECT 1 FROM pg_catalog.pg_roles r
    WHERE (r.rolsuper OR r.rolbypassrls OR r.rolcreaterole)
      AND (pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER') OR pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER'))
  ) AS "isPrivileged",
  pg_catalog.has_function_privilege('pg_catalog.pg_control_system()', 'EXECUTE') AS "canReadSystem"`;

interface FactsRow {
  databaseName: string;
  databaseOid: string | null;
  serverStartedAt: string | null;
  isPrivileged: boolean;
  canReadSystem: boolean;
}

/**
 * Reads the facts in one statement; with `withSystemIdentifier`, a second one for the system
 * identifier when the role may read it. A fact that cannot be read fails the read.
 */
export async function readConnectionFacts(connection: Queryable, options: { withSystemIdentifier?: boolean } = {}): Promise<ConnectionFacts> {
  const [row] = (await connection.query(FACTS_QUERY)).rows as FactsRow[];
  if (row?.databaseOid == null || row.serverStartedAt == null) throw new Error('the connection did not say which database it reached');
  let systemIdentifier: string | null = null;
  if (options.withSystemIdentifier === true && row.canReadSystem) {
    const [system] = (await connection.query('SELECT system_identifier::text AS id FROM pg_catalog.pg_control_system()')).rows as { id: string | null }[];
    systemIdentifier = system?.id ?? null;
  }
  return { databaseName: row.databaseName, databaseOid: row.databaseOid, serverStartedAt: row.serverStartedAt, systemIdentifier, isPrivileged: row.isPrivileged };
}

/**
 * Whether two connections reached the same database of the same server (or of a physical copy of
 * it), whatever host names they used: same database oid on the same running server, or on a
 * cluster with the same system identifier.
 */
export function isSameDatabase(a: ConnectionFacts, b: ConnectionFacts): boolean {
  if (a.databaseOid !== b.databaseOid) return false;
  if (a.serverStartedAt === b.serverStartedAt) return true;
  return a.systemIdentifier !== null && a.systemIdentifier === b.systemIdentifier;
}

/** A stable name of the database a connection reached (null when the server cannot be named). */
export function databaseIdentityOf(facts: ConnectionFacts): string | null {
  return facts.systemIdentifier === null ? null : `${facts.systemIdentifier}:${facts.databaseOid}`;
}

/** Why a connection must not serve a tenant. Never shown to the caller: it would help probing. */
export type UnsafeReason = 'privileged-role' | 'platform-database' | 'other-tenant';

export class UnsafeConnectionError extends Error {
  constructor(readonly reason: UnsafeReason) {
    super(`tenant connection refused: ${reason}`);
    this.name = 'UnsafeConnectionError';
  }
}

/**
 * The checks every use of a tenant connection needs: a role that cannot bypass row level
 * security, on a database that is not the platform's.
 */
export function assertSafeForTenant(target: ConnectionFacts, platform: ConnectionFacts): void {
  if (target.isPrivileged) throw new UnsafeConnectionError('privileged-role');
  if (isSameDatabase(target, platform)) throw new UnsafeConnectionError('platform-database');
}

/** Where a tenant's stored connection leads, as `tenant_connections` records it. */
export interface StoredConnectionTarget {
  host: string;
  port: number;
  databaseName: string;
  targetIdentity: string | null;
}

/** Host names that all mean "this machine" are one target. */
export function normalHost(host: string): string {
  const value = host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (value === 'localhost' || value === '::1' || value === '0:0:0:0:0:0:0:1' || /^127\.\d+\.\d+\.\d+$/.test(value) || value === '::ffff:127.0.0.1') return 'loopback';
  return value;
}

/** Whether another tenant's stored connection leads where `target` leads. */
export function leadsToSameDatabase(other: StoredConnectionTarget, target: { host: string; port: number; database: string }, identity: string | null): boolean {
  if (identity !== null && other.targetIdentity === identity) return true;
  return normalHost(other.host) === normalHost(target.host) && other.port === target.port && other.databaseName === target.database;
}

/**
 * Whether the database holds another tenant: it was prepared for one (its `tenants` table names
 * a customer tenant other than this one; data-plane rows always reference their tenant's row).
 */
export async function holdsOtherTenant(connection: Queryable, tenantId: string): Promise<boolean> {
  const [found] = (await connection.query(`SELECT pg_catalog.to_regclass('public.tenants') IS NOT NULL AS present`)).rows as { present: boolean }[];
  if (found?.present !== true) return false;
  const [others] = (
    await connection.query(
      'SELECT EXISTS (SELECT 1 FROM public.tenants t WHERE t.id OPERATOR(pg_catalog.<>) $1::pg_catalog.uuid AND NOT t.is_platform) AS "exists"',
      [tenantId],
    )
  ).rows as { exists: boolean }[];
  return others?.exists !== false;
}

/** What a tenant's connection is judged against. */
export interface TenantTargetContext {
  tenantId: string;
  /** The platform database as the app's own connection sees it. */
  platform: ConnectionFacts;
  /** Every other tenant's stored connections. */
  others: readonly StoredConnectionTarget[];
  /**
   * The tenant's own stored connection checked again (at start), not a new one: a database prepared
   * for this tenant (it holds this tenant's row and no other customer tenant's) stays its own even
   * when another tenant's stored connection names it too; that other tenant is the one refused, by
   * the tenant its database holds.
   */
  isStored?: boolean;
}

/** Whether the database was prepared for this tenant: its `tenants` table holds the tenant's row. */
async function holdsTenant(connection: Queryable, tenantId: string): Promise<boolean> {
  const [found] = (await connection.query(`SELECT pg_catalog.to_regclass('public.tenants') IS NOT NULL AS present`)).rows as { present: boolean }[];
  if (found?.present !== true) return false;
  const [own] = (await connection.query('SELECT EXISTS (SELECT 1 FROM public.tenants t WHERE t.id OPERATOR(pg_catalog.=) $1::pg_catalog.uuid) AS "exists"', [tenantId])).rows as {
    exists: boolean;
  }[];
  return own?.exists === true;
}

/**
 * Every target check on one open connection of a tenant, read inside that session: a login role
 * that cannot bypass row level security, not the platform database, not another tenant's database
 * (by the tenants it holds, or by another tenant's stored connection; see `isStored`). Throws
 * UnsafeConnectionError when refused; returns the database's identity (see databaseIdentityOf).
 */
export async function assertTenantTarget(
  connection: Queryable,
  target: { host: string; port: number; database: string },
  context: TenantTargetContext,
): Promise<string | null> {
  const facts = await readConnectionFacts(connection, { withSystemIdentifier: true });
  assertSafeForTenant(facts, context.platform);
  const identity = databaseIdentityOf(facts);
  if (await holdsOtherTenant(connection, context.tenantId)) throw new UnsafeConnectionError('other-tenant');
  if (context.others.some((other) => leadsToSameDatabase(other, target, identity)) && !(context.isStored === true && (await holdsTenant(connection, context.tenantId)))) {
    throw new UnsafeConnectionError('other-tenant');
  }
  return identity;
}
