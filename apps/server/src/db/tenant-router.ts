import { eq, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { SecretBox } from '../lib/secret-box.js';
import { assertSafeForTenant, DEDICATED_CONNECTION_LIFETIME_SECONDS, readConnectionFacts, type Queryable } from './connection-guard.js';
import { PreparingClient } from './preparing-client.js';
import { createReplicaFreshness } from './replica-freshness.js';
import * as schema from './schema.js';

type Drizzle = NodePgDatabase;

/** A pool on one of a DEDICATED tenant's databases. */
export interface PoolRoute {
  db: Drizzle;
  pool: pg.Pool;
  /** What the pool was built from: a change of any part builds a new pool. */
  fingerprint: string;
}

/**
 * Where a DEDICATED tenant's work goes. `replica` and `vitals` are null when that connection names
 * the primary's own target (same host, port, database, user and password): the primary pool then
 * serves that role too, and nothing is split.
 */
export interface DedicatedRoute {
  primary: PoolRoute;
  replica: PoolRoute | null;
  vitals: PoolRoute | null;
}

/** The three connection kinds (contracts TENANT_CONNECTION_KINDS), as the router uses them. */
type Kind = keyof DedicatedRoute;

/**
 * How long a process trusts what it learnt about a tenant's location. Another process that
 * changes a tenant's connections invalidates only its own cache; every other process follows
 * within this time.
 */
const ROUTE_TTL_MILLISECONDS = 30_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ignore = () => undefined;

/**
 * Sent with every connection of the application's pools: no JIT compilation. PostgreSQL compiles
 * a statement whose estimated cost passes jit_above_cost, and the row-level security subqueries
 * inflate the estimates of short statements on large tables: a page of a 1 M-patient list ran in
 * 11 ms behind 3.5 s of compiling (tools/bench/million-patients.ts).
 */
export const CONNECTION_OPTIONS = '-c jit=off';

/** Connection passwords are sealed for this purpose and bound to their tenant and kind. */
export const CONNECTION_PASSWORD_PURPOSE = 'tenant-connection/password';
export function connectionPasswordContext(tenantId: string, kind: string): string {
  return `tenant_connections:${tenantId}:${kind}`;
}

/** A database server as a tenant connection names it. */
export interface ConnectionTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  sslMode: 'disable' | 'require' | 'verify-full';
}

/**
 * The URL of a connection target. TLS modes map to node-postgres' own: `require` encrypts without
 * checking the certificate (no-verify), `verify-full` checks certificate and host name.
 */
export function connectionUrlOf(target: ConnectionTarget): string {
  const url = new URL('postgres://localhost');
  url.hostname = target.host;
  url.port = String(target.port);
  url.pathname = `/${encodeURIComponent(target.database)}`;
  url.username = encodeURIComponent(target.user);
  url.password = encodeURIComponent(target.password);
  if (target.sslMode !== 'disable') url.searchParams.set('sslmode', target.sslMode === 'require' ? 'no-verify' : 'verify-full');
  return url.toString();
}

/**
 * Tenant id -> where its data plane lives, learnt lazily from the control plane and cached: null
 * for the platform database, or pools on a DEDICATED tenant's databases. Those pools connect as
 * the connections' users, which own the tables there; FORCE ROW LEVEL SECURITY applies to a table
 * owner that is not a superuser, so isolation holds as for rpm_app.
 *
 * That holds only while the role stays unprivileged and the database is not the platform's, so
 * every new physical connection of such a pool is checked first (one query there, one on the
 * platform pool; connections live at most DEDICATED_CONNECTION_LIFETIME_SECONDS): a role that is
 * or became superuser, BYPASSRLS or CREATEROLE, or a connection that leads to the platform
 * database, fails the tenant's work instead of running it without row level security.
 */
export function createTenantRouter(system: Drizzle, secretBox: SecretBox | undefined, options: { replicaMaxLagMilliseconds: number }) {
  const cache = new Map<string, { route: Promise<DedicatedRoute | null>; loadedAt: number }>();
  const pools = new Map<string, PoolRoute>();
  const freshness = createReplicaFreshness({ maxLagMilliseconds: options.replicaMaxLagMilliseconds });
  const platform: Queryable = { query: (text) => system.execute(sql.raw(text)) };
  /** Refuses a new connection of a DEDICATED tenant's pool that could see past row level security. */
  const checkConnection = async (tenantId: string, client: Queryable) => {
    const [target, platformFacts] = await Promise.all([readConnectionFacts(client), readConnectionFacts(platform)]);
    try {
      assertSafeForTenant(target, platformFacts);
    } catch (error) {
      throw new Error(`tenant ${tenantId}: its database connection was refused and not used`, { cause: error });
    }
  };

  const retire = (tenantId: string) => {
    freshness.forget(tenantId);
    for (const [key, current] of pools) {
      if (!key.startsWith(`${tenantId}:`)) continue;
      pools.delete(key);
      // Transactions in flight finish: a pool that is ending still serves its checked-out clients.
      current.pool.end().catch(ignore);
    }
  };

  type StoredConnection = typeof schema.tenantConnections.$inferSelect;
  const targetFingerprint = (row: StoredConnection) => [row.host, row.port, row.databaseName, row.username, row.sslMode].join('\n');

  /** The pool of one stored connection, reused while the connection is unchanged. */
  function poolOf(tenantId: string, kind: Kind, row: StoredConnection, box: SecretBox): PoolRoute {
    const key = `${tenantId}:${kind}`;
    const fingerprint = `${targetFingerprint(row)}\n${row.passwordCiphertext}`;
    const current = pools.get(key);
    if (current?.fingerprint === fingerprint) return current;
    const password = box.open(row.passwordCiphertext, connectionPasswordContext(tenantId, kind));
    const sslMode = row.sslMode === 'require' || row.sslMode === 'verify-full' ? row.sslMode : 'disable';
    const pool = new pg.Pool({
      connectionString: connectionUrlOf({ host: row.host, port: row.port, database: row.databaseName, user: row.username, password, sslMode }),
      max: 5,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
      // A connection is checked once, when it is made; it is replaced after this long so that a
      // role changed later is checked again.
      maxLifetimeSeconds: DEDICATED_CONNECTION_LIFETIME_SECONDS,
      application_name: `rpm-server ${kind}`,
      options: CONNECTION_OPTIONS,
      Client: PreparingClient,
      // pg-pool awaits this hook and, when it rejects, ends the connection and fails the checkout;
      // its type declarations still say void.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      onConnect: (client) => checkConnection(tenantId, client),
    });
    pool.on('error', ignore);
    const route = { db: drizzle(pool), pool, fingerprint };
    if (current !== undefined) current.pool.end().catch(ignore);
    pools.set(key, route);
    return route;
  }

  async function load(tenantId: string): Promise<DedicatedRoute | null> {
    const [tenant] = await system
      .select({ connectionType: schema.tenants.connectionType, isPlatform: schema.tenants.isPlatform })
      .from(schema.tenants)
      .where(eq(schema.tenants.id, tenantId))
      .limit(1);
    // Unknown ids (a tenant being created) and SHARED tenants live in the platform database.
    if (tenant?.connectionType !== 'DEDICATED' || tenant.isPlatform) {
      retire(tenantId);
      return null;
    }
    const rows = await system.select().from(schema.tenantConnections).where(eq(schema.tenantConnections.tenantId, tenantId));
    const stored = (kind: Kind) => rows.find((row) => row.kind === kind);
    const primaryRow = stored('primary');
    // Never fall back to the platform database: that would write the tenant's data to the wrong place.
    if (primaryRow === undefined) throw new Error(`tenant ${tenantId} is DEDICATED but has no primary connection`);
    if (secretBox === undefined) throw new Error(`tenant ${tenantId} is DEDICATED but the database was connected without the secrets key`);
    const primary = poolOf(tenantId, 'primary', primaryRow, secretBox);
    // A role that names the primary's own target (or is missing, as before the three were used)
    // is served by the primary's pool: no second pool on the same database.
    const other = (kind: 'replica' | 'vitals') => {
      const row = stored(kind);
      if (row === undefined || targetFingerprint(row) === targetFingerprint(primaryRow)) {
        const key = `${tenantId}:${kind}`;
        pools.get(key)?.pool.end().catch(ignore);
        pools.delete(key);
        return null;
      }
      return poolOf(tenantId, kind, row, secretBox);
    };
    return { primary, replica: other('replica'), vitals: other('vitals') };
  }

  function routeOf(tenantId: string): Promise<DedicatedRoute | null> {
    // Not a tenant id at all: the platform database answers as before (RLS shows nothing).
    if (!UUID_PATTERN.test(tenantId)) return Promise.resolve(null);
    const now = Date.now();
    const cached = cache.get(tenantId);
    if (cached !== undefined && now - cached.loadedAt < ROUTE_TTL_MILLISECONDS) return cached.route;
    const route = load(tenantId);
    cache.set(tenantId, { route, loadedAt: now });
    // A failed lookup is not remembered: the next call tries again.
    route.catch(() => {
      if (cache.get(tenantId)?.route === route) cache.delete(tenantId);
    });
    return route;
  }

  return {
    routeOf,
    /**
     * Whether the tenant's replica may serve a read now: it replays within the allowed lag (see
     * replica-freshness.ts). False when the tenant has no replica of its own.
     */
    async isReplicaFresh(tenantId: string, route: DedicatedRoute): Promise<boolean> {
      if (route.replica === null) return false;
      return freshness.isFresh(tenantId, route.primary.pool, route.replica.pool);
    },
    /** A read on the replica failed: look again before the next one goes there. */
    distrustReplica(tenantId: string) {
      freshness.forget(tenantId);
    },
    invalidate(tenantId: string) {
      cache.delete(tenantId);
      retire(tenantId);
    },
    async close() {
      cache.clear();
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((route) => route.pool.end().catch(ignore)));
    },
  };
}
