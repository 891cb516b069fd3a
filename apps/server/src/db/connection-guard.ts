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
