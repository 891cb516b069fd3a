import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
type Drizzle = NodePgDatabase<Schema>;
/** A transaction in which app.tenant_id is set: every data-plane query sees one tenant only. */
export type TenantTransaction = Parameters<Parameters<Drizzle['transaction']>[0]>[0];
/** Control-plane access (tenants, sessions, platform staff). Data-plane tables show no rows here. */
export type SystemStore = Drizzle;

/**
 * Which health centers a transaction may see: every center of the tenant, or a list (possibly
 * empty). Enforced by the RESTRICTIVE center_visibility policies (migration 0004).
 */
export type CenterVisibility = { all: true } | { centerIds: readonly string[] };
export const ALL_CENTERS: CenterVisibility = { all: true };

export interface Database {
  /**
   * Runs `work` in one transaction that starts with set_config('app.tenant_id', tenantId, true),
   * so row level security limits every data-plane statement to that tenant. The setting is
   * transaction-local, which keeps pooled connections clean. With `visibility`, the transaction
   * also sees only those health centers (request handlers pass the caller's: see withCaller).
   */
  withTenant<T>(tenantId: string, work: (tx: TenantTransaction) => Promise<T>, visibility?: CenterVisibility): Promise<T>;
  /** The explicitly named store for control-plane work; it carries no tenant. */
  system: SystemStore;
  pool: pg.Pool;
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

// Dates stay strings; the API decides how to present them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export function connectDatabase(appUrl: string, options: { maxConnections?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: appUrl,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'rpm-server',
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return {
    system: db,
    pool,
    withTenant: (tenantId, work, visibility) =>
      db.transaction(async (tx) => {
        const centers = visibility === undefined || 'all' in visibility ? '*' : visibility.centerIds.length === 0 ? 'none' : visibility.centerIds.join(',');
        await tx.execute(sql`SELECT set_config('app.tenant_id', ${tenantId}, true), set_config('app.center_ids', ${centers}, true)`);
        return work(tx);
      }),
    isReachable: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}
