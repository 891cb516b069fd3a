import { sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { createSecretBox } from '../lib/secret-box.js';
import { PreparingClient } from './preparing-client.js';
import { DEFAULT_REPLICA_MAX_LAG_MILLISECONDS } from './replica-freshness.js';
import type * as schema from './schema.js';
import { CONNECTION_OPTIONS, CONNECTION_PASSWORD_PURPOSE, createTenantRouter } from './tenant-router.js';

const ignore = () => undefined;

export type Schema = typeof schema;
/**
 * Without the schema: drizzle builds a relational query builder for each table of the schema it is
 * given in every transaction it opens (about 40 µs for ours), and nothing here uses them.
 */
type Drizzle = NodePgDatabase;
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

/** Options of Database.readTenant. */
export interface TenantReadOptions<T> {
  visibility?: CenterVisibility | undefined;
  /** Writes what the read implies (an audit row), on the primary, after the read. */
  record?: ((tx: TenantTransaction, result: T) => Promise<void>) | undefined;
  /** The caller wrote moments ago (read-your-writes): read on the primary. */
  isFreshRequired?: boolean | undefined;
}

/** What a transaction on a vitals database may touch (see migration 0060). */
export interface VitalsScope {
  /**
   * The patients whose access the caller checked, or 'all': the whole tenant, for jobs that work
   * on its time series as a whole (partitions, compaction, retention), never for a request.
   */
  patientIds: readonly string[] | 'all';
  /** The patients' time zone as read on the primary (writes and rollup rebuilds; one patient). */
  timeZone?: string | undefined;
  /** Data kinds (contracts MEASURE_DATA_KIND) the caller may not read: a follower's hidden kinds. */
  hiddenKinds?: readonly string[] | undefined;
}

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
  /**
   * A read that a DEDICATED tenant's replica may serve (lists, dashboards, statistics, exports).
   * `read` runs in a READ ONLY transaction on the replica when the tenant has one of its own that
   * replays within the allowed lag (REPLICA_MAX_LAG_MS) and the caller did not just write
   * (`isFreshRequired`); `record` (the audit row of a PHI read) then runs in a transaction on the
   * primary, after the read succeeded. Otherwise — SHARED tenants, no replica, a lagging or
   * unreachable replica — both run in one transaction exactly as withTenant would run them.
   */
  readTenant<T>(tenantId: string, read: (tx: TenantTransaction) => Promise<T>, options?: TenantReadOptions<T>): Promise<T>;
  /**
   * Where the tenant's readings and rollups live: 'tenant' is where withTenant runs (SHARED
   * tenants, and DEDICATED tenants whose vitals connection names their primary), 'vitals' a
   * DEDICATED tenant's own vitals database, reached with withVitals. Cached with the route: no
   * round trip for SHARED tenants once known.
   */
  vitalsPlacement(tenantId: string): Promise<'tenant' | 'vitals'>;
  /**
   * Runs `work` in a transaction on the tenant's vitals database, limited by row level security to
   * the tenant and to `scope.patientIds` (whose access the caller has checked on the primary),
   * without `scope.hiddenKinds`, with `scope.timeZone` as those patients' zone (rollups). Fails
   * for a tenant whose vitalsPlacement is 'tenant'.
   */
  withVitals<T>(tenantId: string, scope: VitalsScope, work: (tx: TenantTransaction) => Promise<T>): Promise<T>;
  /**
   * Whether the tenant's data lives in the platform database (SHARED tenants and the platform
   * tenant), where withTenant runs on `system`'s pool. Cached with the route.
   */
  isOnPlatform(tenantId: string): Promise<boolean>;
  /** Whether the tenant's reads may go to a replica of its own (a response then sets the read-your-writes cookie). */
  hasReplica(tenantId: string): Promise<boolean>;
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

export {
  CONNECTION_OPTIONS,
  CONNECTION_PASSWORD_PURPOSE,
  connectionPasswordContext,
  connectionUrlOf,
  type ConnectionTarget,
} from './tenant-router.js';

/**
 * The statement that sets a transaction's settings (set_config(…, true): they end with it). The
 * values are written as quoted literals rather than sent as parameters, so the statement has none
 * and PreparingClient sends it in one text with the transaction's BEGIN: one round trip instead
 * of two for every transaction. escapeLiteral quotes any text safely (the values are ids, lists
 * of ids and zone names).
 */
function settingsStatement(settings: Record<`app.${string}`, string>): SQL {
  const calls = Object.entries(settings).map(([name, value]) => `set_config('${name}', ${pg.escapeLiteral(value)}, true)`);
  return sql.raw(`SELECT ${calls.join(', ')}`);
}

function runInTenant<T>(
  db: Drizzle,
  tenantId: string,
  work: (tx: TenantTransaction) => Promise<T>,
  visibility?: CenterVisibility,
  isReadOnly = false,
): Promise<T> {
  return db.transaction(async (tx) => {
    const centers =
      visibility === undefined || 'all' in visibility
        ? '*'
        : 'ownRecordsOf' in visibility || visibility.centerIds.length === 0
          ? 'none'
          : visibility.centerIds.join(',');
    const patientUserId = visibility !== undefined && 'ownRecordsOf' in visibility ? visibility.ownRecordsOf : '';
    await tx.execute(
      settingsStatement({
        'app.tenant_id': tenantId,
        'app.center_ids': centers,
        'app.subject': patientUserId === '' ? '' : 'patient',
        'app.user_id': patientUserId,
      }),
    );
    return work(tx);
  }, isReadOnly ? { accessMode: 'read only' } : undefined);
}

/** A PostgreSQL array literal of simple tokens (uuids, data kinds, zone names): one bind parameter. */
const arrayLiteral = (values: readonly string[]) => `{${values.join(',')}}`;

/**
 * A transaction on a vitals database: the whole tenant (its callers' access was checked on the
 * primary), narrowed by migration 0060's settings to the patients it was opened for (none: it
 * reads and writes no patient's rows, e.g. partition maintenance).
 */
function runInVitals<T>(db: Drizzle, tenantId: string, scope: VitalsScope, work: (tx: TenantTransaction) => Promise<T>): Promise<T> {
  const hidden = scope.hiddenKinds === undefined || scope.hiddenKinds.length === 0 ? '' : arrayLiteral(scope.hiddenKinds);
  return db.transaction(async (tx) => {
    await tx.execute(
      settingsStatement({
        'app.tenant_id': tenantId,
        'app.center_ids': '*',
        'app.subject': '',
        'app.user_id': '',
        'app.vitals_patients': scope.patientIds === 'all' ? 'all' : arrayLiteral(scope.patientIds),
        'app.vitals_hidden_kinds': hidden,
        'app.vitals_time_zone': scope.timeZone ?? '',
      }),
    );
    return work(tx);
  });
}

/**
 * Connects to the platform database as the app role. `secretsKey` opens the stored passwords of
 * DEDICATED tenants' connections; without it such a tenant's work fails rather than landing in
 * the platform database.
 */
export function connectDatabase(
  appUrl: string,
  options: { maxConnections?: number; secretsKey?: Buffer; replicaMaxLagMilliseconds?: number } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: appUrl,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'rpm-server',
    options: CONNECTION_OPTIONS,
    Client: PreparingClient,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', ignore);
  const db = drizzle(pool);
  const router = createTenantRouter(db, options.secretsKey === undefined ? undefined : createSecretBox(options.secretsKey, CONNECTION_PASSWORD_PURPOSE), {
    replicaMaxLagMilliseconds: options.replicaMaxLagMilliseconds ?? DEFAULT_REPLICA_MAX_LAG_MILLISECONDS,
  });
  return {
    system: db,
    pool,
    withTenant: async (tenantId, work, visibility) => {
      const route = await router.routeOf(tenantId);
      return runInTenant(route?.primary.db ?? db, tenantId, work, visibility);
    },
    readTenant: async (tenantId, read, readOptions = {}) => {
      const { visibility, record } = readOptions;
      const route = await router.routeOf(tenantId);
      const useReplica = route !== null && readOptions.isFreshRequired !== true && (await router.isReplicaFresh(tenantId, route));
      if (!useReplica || route.replica === null) {
        return runInTenant(
          route?.primary.db ?? db,
          tenantId,
          async (tx) => {
            const result = await read(tx);
            if (record !== undefined) await record(tx, result);
            return result;
          },
          visibility,
        );
      }
      let result: Awaited<ReturnType<typeof read>>;
      try {
        result = await runInTenant(route.replica.db, tenantId, read, visibility, true);
      } catch (error) {
        // The next read looks at the replica again before trusting it (it may have gone away).
        router.distrustReplica(tenantId);
        throw error;
      }
      if (record !== undefined) await runInTenant(route.primary.db, tenantId, (tx) => record(tx, result), visibility);
      return result;
    },
    isOnPlatform: async (tenantId) => (await router.routeOf(tenantId)) === null,
    vitalsPlacement: async (tenantId) => ((await router.routeOf(tenantId))?.vitals == null ? 'tenant' : 'vitals'),
    withVitals: async (tenantId, scope, work) => {
      const vitals = (await router.routeOf(tenantId))?.vitals;
      if (vitals == null) throw new Error(`tenant ${tenantId} has no vitals database of its own`);
      return runInVitals(vitals.db, tenantId, scope, work);
    },
    hasReplica: async (tenantId) => (await router.routeOf(tenantId))?.replica != null,
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
