import { and, eq, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { createSecretBox, type SecretBox } from '../lib/secret-box.js';
import { assertSafeForTenant, DEDICATED_CONNECTION_LIFETIME_SECONDS, readConnectionFacts, type Queryable } from './connection-guard.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
type Drizzle = NodePgDatabase<Schema>;
/** A transaction in which app.tenant_id is set: every data-plane query sees one tenant only. */
export type TenantTransaction = Parameters<Parameters<Drizzle['transaction']>[0]>[0];
/** Control-plane access (tenants, sessions, platform staff). Data-plane tables show no rows here. */
export type SystemStore = Drizzle;

/**
 * What a transaction may see of the tenant's patients and centers: every center, a list of
 * centers (possibly empty), or, for a patient account, only the patient records linked to that
 * account (`ownRecordsOf`: the user id). Enforced by the RESTRICTIVE center_visibility policies
 * (migrations 0004 and 0017); the rule itself is contracts' patient-access.ts.
 */
export type CenterVisibility = { all: true } | { centerIds: readonly string[] } | { ownRecordsOf: string };
export const ALL_CENTERS: CenterVisibility = { all: true };

export interface Database {
  /**
   * Runs `work` in one transaction that starts with set_config('app.tenant_id', tenantId, true),
   * so row level security limits every data-plane statement to that tenant. The setting is
   * transaction-local, which keeps pooled connections clean. With `visibility`, the transaction
   * also sees only those health centers (request handlers pass the caller's: see withCaller).
   *
   * The transaction runs where the tenant's data lives: the platform database (SHARED tenants,
   * the platform tenant), or the primary database of a DEDICATED tenant.
   */
  withTenant<T>(tenantId: string, work: (tx: TenantTransaction) => Promise<T>, visibility?: CenterVisibility): Promise<T>;
  /** The explicitly named store for control-plane work; it carries no tenant. */
  system: SystemStore;
  /** The platform database's pool. */
  pool: pg.Pool;
  isReachable(): Promise<boolean>;
  /** Forgets where a tenant's data lives (its connections changed); the next use looks again. */
  invalidateTenant(tenantId: string): void;
  /** False when connected without the secrets key: DEDICATED tenants' work would fail. */
  readonly canRouteDedicatedTenants: boolean;
  close(): Promise<void>;
}

// Dates stay strings; the API decides how to present them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

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

/** Connection passwords are sealed for this purpose and bound to their tenant and kind. */
export const CONNECTION_PASSWORD_PURPOSE = 'tenant-connection/password';
export function connectionPasswordContext(tenantId: string, kind: string): string {
  return `tenant_connections:${tenantId}:${kind}`;
}

/**
 * How long a process trusts what it learnt about a tenant's location. Another process that
 * changes a tenant's connections invalidates only its own cache; every other process follows
 * within this time.
 */
const ROUTE_TTL_MILLISECONDS = 30_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ignore = () => undefined;

interface DedicatedRoute {
  db: Drizzle;
  pool: pg.Pool;
  /** What the pool was built from: a change of any part builds a new pool. */
  fingerprint: string;
}

/**
 * Tenant id -> where its data plane lives, learnt lazily from the control plane and cached:
 * null for the platform database, or a pool on a DEDICATED tenant's primary database. That pool
 * connects as the primary user, which owns the tables there; FORCE ROW LEVEL SECURITY applies to
 * a table owner that is not a superuser, so isolation holds as for rpm_app.
 *
 * That holds only while the role stays unprivileged and the database is not the platform's, so
 * every new physical connection of such a pool is checked first (one query there, one on the
 * platform pool; connections live at most DEDICATED_CONNECTION_LIFETIME_SECONDS): a role that is
 * or became superuser, BYPASSRLS or CREATEROLE, or a connection that leads to the platform
 * database, fails the tenant's work instead of running it without row level security.
 */
function createTenantRouter(system: Drizzle, secretBox: SecretBox | undefined) {
  const cache = new Map<string, { route: Promise<DedicatedRoute | null>; loadedAt: number }>();
  const pools = new Map<string, DedicatedRoute>();
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
    const current = pools.get(tenantId);
    pools.delete(tenantId);
    // Transactions in flight finish: a pool that is ending still serves its checked-out clients.
    if (current) current.pool.end().catch(ignore);
  };

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
    const [primary] = await system
      .select()
      .from(schema.tenantConnections)
      .where(and(eq(schema.tenantConnections.tenantId, tenantId), eq(schema.tenantConnections.kind, 'primary')))
      .limit(1);
    // Never fall back to the platform database: that would write the tenant's data to the wrong place.
    if (primary === undefined) throw new Error(`tenant ${tenantId} is DEDICATED but has no primary connection`);
    if (secretBox === undefined) throw new Error(`tenant ${tenantId} is DEDICATED but the database was connected without the secrets key`);
    const fingerprint = [primary.host, primary.port, primary.databaseName, primary.username, primary.sslMode, primary.passwordCiphertext].join('\n');
    const current = pools.get(tenantId);
    if (current?.fingerprint === fingerprint) return current;
    const password = secretBox.open(primary.passwordCiphertext, connectionPasswordContext(tenantId, 'primary'));
    const sslMode = primary.sslMode === 'require' || primary.sslMode === 'verify-full' ? primary.sslMode : 'disable';
    const pool = new pg.Pool({
      connectionString: connectionUrlOf({ host: primary.host, port: primary.port, database: primary.databaseName, user: primary.username, password, sslMode }),
      max: 5,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
      // A connection is checked once, when it is made; it is replaced after this long so that a
      // role changed later is checked again.
      maxLifetimeSeconds: DEDICATED_CONNECTION_LIFETIME_SECONDS,
      application_name: 'rpm-server',
      // pg-pool awaits this hook and, when it rejects, ends the connection and fails the checkout;
      // its type declarations still say void.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      onConnect: (client) => checkConnection(tenantId, client),
    });
    pool.on('error', ignore);
    const route = { db: drizzle(pool, { schema }), pool, fingerprint };
    retire(tenantId);
    pools.set(tenantId, route);
    return route;
  }

  return {
    routeOf(tenantId: string): Promise<DedicatedRoute | null> {
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

function runInTenant<T>(db: Drizzle, tenantId: string, work: (tx: TenantTransaction) => Promise<T>, visibility?: CenterVisibility): Promise<T> {
  return db.transaction(async (tx) => {
    const centers =
      visibility === undefined || 'all' in visibility
        ? '*'
        : 'ownRecordsOf' in visibility || visibility.centerIds.length === 0
          ? 'none'
          : visibility.centerIds.join(',');
    const patientUserId = visibility !== undefined && 'ownRecordsOf' in visibility ? visibility.ownRecordsOf : '';
    await tx.execute(
      sql`SELECT set_config('app.tenant_id', ${tenantId}, true), set_config('app.center_ids', ${centers}, true),
                 set_config('app.subject', ${patientUserId === '' ? '' : 'patient'}, true), set_config('app.user_id', ${patientUserId}, true)`,
    );
    return work(tx);
  });
}

/**
 * Connects to the platform database as the app role. `secretsKey` opens the stored passwords of
 * DEDICATED tenants' connections; without it such a tenant's work fails rather than landing in
 * the platform database.
 */
export function connectDatabase(appUrl: string, options: { maxConnections?: number; secretsKey?: Buffer } = {}): Database {
  const pool = new pg.Pool({
    connectionString: appUrl,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'rpm-server',
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', ignore);
  const db = drizzle(pool, { schema });
  const router = createTenantRouter(db, options.secretsKey === undefined ? undefined : createSecretBox(options.secretsKey, CONNECTION_PASSWORD_PURPOSE));
  return {
    system: db,
    pool,
    withTenant: async (tenantId, work, visibility) => {
      const route = await router.routeOf(tenantId);
      return runInTenant(route?.db ?? db, tenantId, work, visibility);
    },
    isReachable: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    invalidateTenant: (tenantId) => {
      router.invalidate(tenantId);
    },
    canRouteDedicatedTenants: options.secretsKey !== undefined,
    close: async () => {
      await router.close();
      await pool.end();
    },
  };
}
