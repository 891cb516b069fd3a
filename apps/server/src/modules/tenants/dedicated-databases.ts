import { SSL_MODES, type TenantConnectionInput } from '@rpm/contracts';
import pg from 'pg';
import { assertTenantTarget, readConnectionFacts, UnsafeConnectionError, type Queryable } from '../../db/connection-guard.js';
import { CONNECTION_PASSWORD_PURPOSE, connectionPasswordContext, connectionUrlOf } from '../../db/database.js';
import { APP_ROLE, migrate } from '../../db/migrator.js';
import { AppError } from '../../http/app-error.js';
import { createSecretBox } from '../../lib/secret-box.js';
import type { TenantAdminEnvironment } from './admin-service.js';
import * as store from './store.js';

/** How long the server waits for a supplied server before calling it unreachable. */
export const CONNECTION_TEST_TIMEOUT_MILLISECONDS = 5_000;

export const sslModeOf = (value: string) => SSL_MODES.find((mode) => mode === value) ?? 'disable';

/** A connection as given in a save, as a target (an IPv6 host without its brackets). */
export const targetOf = (connection: TenantConnectionInput) => ({
  host: connection.host.replace(/^\[|\]$/g, ''),
  port: connection.port,
  database: connection.database,
  user: connection.user,
  password: connection.password,
  sslMode: connection.sslMode,
});

/** Whether two connections lead to the same database as the same user (one pool serves both roles). */
export const isSameTarget = (a: TenantConnectionInput, b: TenantConnectionInput) => {
  const [first, second] = [targetOf(a), targetOf(b)];
  return first.host === second.host && first.port === second.port && first.database === second.database && first.user === second.user;
};

/**
 * Prepares one of a DEDICATED tenant's databases (its primary, and its vitals database when that
 * is another one): all migrations (as the connection's user, who owns what they create), then a
 * copy of the tenant's row so the data-plane foreign keys hold, and of its time zone setting. The
 * app's requests for the tenant run as that same user (see db/tenant-router.ts), so migrate() is
 * told the login role is rpm_app's business and left alone: only the role must exist for the grants
 * in the migrations (created when missing, which needs CREATEROLE).
 *
 * The vitals database gets the same schema as the primary (one migration history for every
 * database of the platform) though it uses only readings and rollups: see migration 0060.
 */
export async function prepareDedicatedDatabase(environment: TenantAdminEnvironment, tenant: store.TenantRow, connection: TenantConnectionInput) {
  const url = connectionUrlOf(targetOf(connection));
  const timeZone = (await store.readTenantSettings(environment.database.system, tenant.id)).get('TIME_ZONE');
  try {
    await migrate({ ownerUrl: url, secretsKey: environment.secretsKey, appUser: APP_ROLE });
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECTION_TEST_TIMEOUT_MILLISECONDS });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO tenants (id, code, name, official_name, connection_type) VALUES ($1, $2, $3, $4, 'DEDICATED')
         ON CONFLICT (id) DO UPDATE SET code = excluded.code, name = excluded.name, official_name = excluded.official_name,
           connection_type = 'DEDICATED', updated_at = now()`,
        [tenant.id, tenant.code, tenant.name, tenant.officialName],
      );
      // Its patients' local days are computed there, in the tenant's zone (none: the default).
      await client.query(`DELETE FROM tenant_settings WHERE tenant_id = $1 AND key = 'TIME_ZONE'`, [tenant.id]);
      if (timeZone !== undefined)
        await client.query(`INSERT INTO tenant_settings (tenant_id, key, value) VALUES ($1, 'TIME_ZONE', $2)`, [tenant.id, timeZone]);
    } finally {
      await client.end();
    }
  } catch (error) {
    environment.log.warn({ err: error, tenantId: tenant.id, kind: connection.kind }, 'dedicated tenant database could not be prepared');
    throw new AppError('tenant.databaseSetupFailed', { cause: error });
  }
}

/** Where start-up work on DEDICATED tenants' databases reports (a pino or Fastify logger). */
export interface DedicatedStartLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Why a DEDICATED tenant's stored connection was not used, for the log (never its password). */
export function refusalOf(error: unknown): { reason: string; detail?: string } {
  const cause = error instanceof Error && error.cause instanceof UnsafeConnectionError ? error.cause : error;
  if (cause instanceof UnsafeConnectionError) return { reason: cause.reason };
  return { reason: 'unusable', detail: error instanceof Error ? error.message : String(error) };
}

/** A DEDICATED tenant's stored connection, for work done there outside requests. */
export interface StoredDedicatedConnection {
  tenantId: string;
  kind: 'primary' | 'vitals';
  /** Opens the stored password: the URL carries it, so it is never logged. */
  url: () => string;
  /**
   * Every target check, run inside the given session of this connection before anything is done
   * there: fails with an error naming the tenant (its cause an UnsafeConnectionError) when the
   * login role can bypass row level security or the database is the platform's or another
   * tenant's. Meant for each new connection (pg-pool `onConnect`, migrate's `checkConnection`).
   */
  check: (connection: Queryable) => Promise<void>;
}
export type StoredDedicatedPrimary = StoredDedicatedConnection;

/**
 * Every DEDICATED tenant's stored connections of these kinds with their target checks, a
 * tenant's primary before its vitals; a vitals connection that names its primary's database is
 * left out (the primary covers it). The platform's facts are read once, through its own pool.
 */
export async function storedDedicatedConnections(
  database: TenantAdminEnvironment['database'],
  secretsKey: Buffer,
  kinds: readonly ('primary' | 'vitals')[],
): Promise<StoredDedicatedConnection[]> {
  const box = createSecretBox(secretsKey, CONNECTION_PASSWORD_PURPOSE);
  const platform = await readConnectionFacts(database.pool, { withSystemIdentifier: true });
  const rows = await store.listDedicatedConnections(database.system, kinds);
  const primaries = new Map(rows.filter((row) => row.kind === 'primary').map((row) => [row.tenantId, row]));
  const sameAsPrimary = (row: store.TenantConnectionRow) => {
    const primary = primaries.get(row.tenantId);
    return primary?.host === row.host && primary.port === row.port && primary.databaseName === row.databaseName && primary.username === row.username;
  };
  return rows
    .filter((row) => row.kind === 'primary' || !sameAsPrimary(row))
    .map((connection) => {
      const { tenantId } = connection;
      const kind = connection.kind === 'vitals' ? 'vitals' : 'primary';
      const target = { host: connection.host, port: connection.port, database: connection.databaseName };
      return {
        tenantId,
        kind,
        url: () =>
          connectionUrlOf({
            ...target,
            user: connection.username,
            password: box.open(connection.passwordCiphertext, connectionPasswordContext(tenantId, kind)),
            sslMode: sslModeOf(connection.sslMode),
          }),
        check: async (session: Queryable) => {
          const others = await store.listOtherTenantsConnections(database.system, tenantId);
          try {
            await assertTenantTarget(session, target, { tenantId, platform, others, isStored: true });
          } catch (error) {
            throw new Error(`tenant ${tenantId}: its database connection was refused and not used`, { cause: error });
          }
        },
      };
    });
}

/** Every DEDICATED tenant's stored primary connection: what the job runners use. */
export function storedDedicatedPrimaries(database: TenantAdminEnvironment['database'], secretsKey: Buffer): Promise<StoredDedicatedPrimary[]> {
  return storedDedicatedConnections(database, secretsKey, ['primary']);
}

/**
 * Applies the checked-in migrations to every DEDICATED tenant's primary database and, when it has
 * one of its own, its vitals database (for a server start after an upgrade: the platform database
 * is migrated by bootstrap, these are not). They run as the stored users, the same login roles the
 * tenant's requests use, so every connection they make passes the target checks first: a tenant
 * whose primary connection is now refused (its role turned superuser, BYPASSRLS or CREATEROLE; the
 * platform database; another tenant's) is skipped and logged with its id and the reason, and the
 * others still run. Returns what was applied where (vitals databases' entries say `kind`).
 */
export async function migrateDedicatedTenants(
  database: TenantAdminEnvironment['database'],
  secretsKey: Buffer,
  options: { log?: DedicatedStartLog } = {},
): Promise<{ tenantId: string; kind?: 'vitals'; applied: string[]; error?: string; refused?: string }[]> {
  const results = [];
  const skipped = new Set<string>();
  for (const stored of await storedDedicatedConnections(database, secretsKey, ['primary', 'vitals'])) {
    const { tenantId, kind } = stored;
    if (skipped.has(tenantId)) continue;
    const which = kind === 'vitals' ? { kind } : {};
    try {
      const { applied } = await migrate({ ownerUrl: stored.url(), secretsKey, appUser: APP_ROLE, checkConnection: stored.check });
      if (applied.length > 0) options.log?.info({ tenantId, kind, applied }, `applied ${applied.join(', ')} to dedicated tenant ${tenantId} (${kind})`);
      results.push({ tenantId, ...which, applied });
    } catch (error) {
      skipped.add(tenantId);
      const { reason, detail } = refusalOf(error);
      const refused = reason === 'unusable' ? undefined : reason;
      options.log?.error(
        { tenantId, kind, reason, ...(detail === undefined ? {} : { detail }) },
        refused === undefined
          ? `migrations failed for dedicated tenant ${tenantId} (${kind}): skipped`
          : `dedicated tenant ${tenantId} skipped: its ${kind} connection was refused (${refused}), nothing was migrated there`,
      );
      results.push({ tenantId, ...which, applied: [], error: detail ?? `refused: ${reason}`, ...(refused === undefined ? {} : { refused }) });
    }
  }
  return results;
}
