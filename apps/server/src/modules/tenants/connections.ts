import {
  SSL_MODES,
  TENANT_CONNECTION_KINDS,
  type RoleCode,
  type TenantConnectionInput,
  type TenantConnectionKind,
  type TenantConnections,
  type TenantConnectionsInput,
} from '@rpm/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  assertTenantTarget,
  leadsToSameDatabase,
  readConnectionFacts,
  UnsafeConnectionError,
  type Queryable,
  type TenantTargetContext,
} from '../../db/connection-guard.js';
import { CONNECTION_PASSWORD_PURPOSE, connectionPasswordContext, connectionUrlOf, type ConnectionTarget } from '../../db/database.js';
import { APP_ROLE, migrate } from '../../db/migrator.js';
import { AppError } from '../../http/app-error.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { recordAudit } from '../audit/store.js';
import { findManageableTenant, type TenantAdminEnvironment } from './admin-service.js';
import * as store from './store.js';

/** How long the server waits for a supplied server before calling it unreachable. */
export const CONNECTION_TEST_TIMEOUT_MILLISECONDS = 5_000;

type DedicatedSet = Record<TenantConnectionKind, TenantConnectionInput & { kind: TenantConnectionKind; index: number }>;
type ConnectionPlan = { connectionType: 'SHARED' } | { connectionType: 'DEDICATED'; connections: DedicatedSet };

const invalidType = (field: string) =>
  new AppError('tenant.invalidConnectionType', { fieldErrors: [{ field, code: 'invalid_value', message: 'tenant.invalidConnectionType' }] });

/**
 * The only valid shapes (spec §3, §5): SHARED with no connections, or DEDICATED with exactly
 * three, one of each kind. Anything else is tenant.invalidConnectionType.
 */
export function planConnections(input: TenantConnectionsInput): ConnectionPlan {
  const type = input.connectionType.toUpperCase();
  if (type === 'SHARED') {
    if (input.connections.length > 0) throw invalidType('body.connections');
    return { connectionType: 'SHARED' };
  }
  if (type !== 'DEDICATED') throw invalidType('body.connectionType');
  const kinds = input.connections.map((connection) => connection.kind.toLowerCase());
  const isExactSet = kinds.length === TENANT_CONNECTION_KINDS.length && TENANT_CONNECTION_KINDS.every((kind) => kinds.filter((given) => given === kind).length === 1);
  if (!isExactSet) throw invalidType('body.connections');
  const connections = Object.fromEntries(
    input.connections.map((connection, index) => {
      const kind = connection.kind.toLowerCase() as TenantConnectionKind;
      return [kind, { ...connection, kind, index }];
    }),
  ) as DedicatedSet;
  return { connectionType: 'DEDICATED', connections };
}

const targetOf = (connection: TenantConnectionInput): ConnectionTarget => ({
  host: connection.host.replace(/^\[|\]$/g, ''),
  port: connection.port,
  database: connection.database,
  user: connection.user,
  password: connection.password,
  sslMode: connection.sslMode,
});

/** Only these roles may run the connection test on its own (saving still tests). */
export const CONNECTION_TEST_ROLES: readonly RoleCode[] = ['ROOT', 'SUPER_ADMIN'];
/** Tests and saves of DEDICATED connections each caller may run: they reach servers the caller names. */
export const CONNECTION_CHECK_LIMIT = { attempts: 10, windowMilliseconds: 10 * 60_000 };
/**
 * A failed check answers no sooner than this, so a closed port, a refused password and a refused
 * target take about as long (a server that never answers still takes the full timeout).
 */
export const CONNECTION_FAILURE_FLOOR_MILLISECONDS = 1_000;

/** Tests and saves count against one limit per caller; over it the caller waits (429, Retry-After). */
export class ConnectionChecksThrottled extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('common.tooManyRequests');
  }
}

async function admitConnectionCheck(environment: TenantAdminEnvironment) {
  const now = environment.clock.now();
  const { attempts, windowEndsAt } = await store.countAttempt(
    environment.database.system,
    `tenant-connection-check:user:${environment.auth.userId}`,
    now,
    CONNECTION_CHECK_LIMIT.windowMilliseconds,
  );
  if (attempts > CONNECTION_CHECK_LIMIT.attempts) {
    throw new ConnectionChecksThrottled(Math.max(1, Math.ceil((windowEndsAt.getTime() - now.getTime()) / 1000)));
  }
}

type CheckContext = TenantTargetContext;

type ProbeOutcome = { isUsable: true; milliseconds: number; identity: string | null } | { isUsable: false; error: unknown };

/**
 * Connects to one server with a short timeout and checks what it reached: not the platform
 * database, not another tenant's database, and a login role that cannot bypass row level
 * security (no superuser, BYPASSRLS or CREATEROLE, itself or through a role it belongs to).
 */
async function probe(target: ConnectionTarget, context: CheckContext): Promise<ProbeOutcome> {
  const started = performance.now();
  const client = new pg.Client({
    connectionString: connectionUrlOf(target),
    connectionTimeoutMillis: CONNECTION_TEST_TIMEOUT_MILLISECONDS,
    query_timeout: CONNECTION_TEST_TIMEOUT_MILLISECONDS,
    application_name: 'rpm-server connection test',
  });
  // A server that drops the connection later must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const identity = await assertTenantTarget(client, target, context);
    return { isUsable: true, milliseconds: Math.round(performance.now() - started), identity };
  } catch (error) {
    return { isUsable: false, error };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const checkContextOf = async (environment: TenantAdminEnvironment, tenantId: string): Promise<CheckContext> => ({
  tenantId,
  platform: await readConnectionFacts(environment.database.pool, { withSystemIdentifier: true }),
  others: await store.listOtherTenantsConnections(environment.database.system, tenantId),
});

/**
 * Tests every connection of a DEDICATED set at once. Any failure (no answer, a refused login, a
 * refused target) is the same tenant.connectionFailed ("Could not contact the supplied server")
 * with no detail and after the same least delay: the caller chose the addresses, and the answer
 * must not turn the server into a port scanner or say why a target was refused. The reason is
 * logged for operators.
 */
export async function assertConnectionsUsable(environment: TenantAdminEnvironment, tenantId: string, connections: DedicatedSet) {
  const started = performance.now();
  const context = await checkContextOf(environment, tenantId);
  const results = await Promise.all(TENANT_CONNECTION_KINDS.map(async (kind) => ({ kind, result: await probe(targetOf(connections[kind]), context) })));
  const failures = results.flatMap(({ kind, result }) => (result.isUsable ? [] : [{ kind, result }]));
  if (failures.length > 0) {
    for (const { kind, result } of failures) {
      const reason = result.error instanceof UnsafeConnectionError ? result.error.reason : 'unreachable';
      environment.log.warn({ tenantId, kind, reason, err: result.error instanceof UnsafeConnectionError ? undefined : result.error }, 'tenant connection check failed');
    }
    const wait = CONNECTION_FAILURE_FLOOR_MILLISECONDS - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    throw new AppError('tenant.connectionFailed');
  }
  return {
    connections: results.map(({ kind, result }) => ({ kind, isReachable: true, milliseconds: result.isUsable ? result.milliseconds : 0 })),
    identities: Object.fromEntries(results.map(({ kind, result }) => [kind, result.isUsable ? result.identity : null])) as Record<TenantConnectionKind, string | null>,
  };
}

/** POST /manage/sadmin/tenant/{id}/connections/test: ROOT and SUPER_ADMIN only, rate limited. */
export async function testTenantConnections(environment: TenantAdminEnvironment, tenantId: string, input: TenantConnectionsInput) {
  if (!CONNECTION_TEST_ROLES.includes(environment.auth.role)) throw new AppError('auth.permissionDenied');
  await findManageableTenant(environment, tenantId);
  const plan = planConnections(input);
  if (plan.connectionType === 'SHARED') return { connections: [] };
  await admitConnectionCheck(environment);
  const { connections } = await assertConnectionsUsable(environment, tenantId, plan.connections);
  return { connections };
}

const sslModeOf = (value: string) => SSL_MODES.find((mode) => mode === value) ?? 'disable';

/** GET /manage/sadmin/tenant/{id}/connections: never a password. */
export async function readTenantConnections(environment: TenantAdminEnvironment, tenantId: string): Promise<TenantConnections> {
  const tenant = await findManageableTenant(environment, tenantId);
  const rows = await store.listConnections(environment.database.system, tenant.id);
  return {
    connectionType: tenant.connectionType === 'DEDICATED' ? 'DEDICATED' : 'SHARED',
    connections: rows.flatMap((row) => {
      const kind = TENANT_CONNECTION_KINDS.find((candidate) => candidate === row.kind);
      return kind === undefined
        ? []
        : [{ kind, host: row.host, port: row.port, database: row.databaseName, user: row.username, sslMode: sslModeOf(row.sslMode), hasPassword: row.passwordCiphertext !== '', updatedAt: row.updatedAt.toISOString() }];
    }),
  };
}

/**
 * Prepares a DEDICATED tenant's primary database: all migrations (as the primary user, who owns
 * what they create), then a copy of the tenant's row so the data-plane foreign keys hold, and of its
 * time zone setting (where its patients' local days are computed). The
 * app's requests for the tenant run as that same user (see the router in db/database.ts), so
 * migrate() is told the login role is rpm_app's business and left alone: only the role must exist
 * for the grants in the migrations (created when missing, which needs CREATEROLE).
 */
async function prepareDedicatedDatabase(environment: TenantAdminEnvironment, tenant: store.TenantRow, primary: TenantConnectionInput) {
  const url = connectionUrlOf(targetOf(primary));
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
    environment.log.warn({ err: error, tenantId: tenant.id }, 'dedicated tenant database could not be prepared');
    throw new AppError('tenant.databaseSetupFailed', { cause: error });
  }
}

/** Where start-up work on DEDICATED tenants' databases reports (a pino or Fastify logger). */
export interface DedicatedStartLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Why a DEDICATED tenant's stored primary connection was not used, for the log (never its password). */
export function refusalOf(error: unknown): { reason: string; detail?: string } {
  const cause = error instanceof Error && error.cause instanceof UnsafeConnectionError ? error.cause : error;
  if (cause instanceof UnsafeConnectionError) return { reason: cause.reason };
  return { reason: 'unusable', detail: error instanceof Error ? error.message : String(error) };
}

/** A DEDICATED tenant's stored primary connection, for work done there outside requests. */
export interface StoredDedicatedPrimary {
  tenantId: string;
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

/**
 * Every DEDICATED tenant's stored primary connection with its target checks: what the start-up
 * migrations and the job runners use. The platform's facts are read once, through its own pool.
 */
export async function storedDedicatedPrimaries(database: TenantAdminEnvironment['database'], secretsKey: Buffer): Promise<StoredDedicatedPrimary[]> {
  const box = createSecretBox(secretsKey, CONNECTION_PASSWORD_PURPOSE);
  const platform = await readConnectionFacts(database.pool, { withSystemIdentifier: true });
  return (await store.listDedicatedPrimaries(database.system)).map(({ tenantId, connection }) => {
    const target = { host: connection.host, port: connection.port, database: connection.databaseName };
    return {
      tenantId,
      url: () =>
        connectionUrlOf({
          ...target,
          user: connection.username,
          password: box.open(connection.passwordCiphertext, connectionPasswordContext(tenantId, 'primary')),
          sslMode: sslModeOf(connection.sslMode),
        }),
      check: async (session) => {
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

/**
 * Applies the checked-in migrations to every DEDICATED tenant's primary database (for a server
 * start after an upgrade: the platform database is migrated by bootstrap, these are not). They run
 * as the stored primary user, the same login role the tenant's requests use, so every connection
 * they make passes the target checks first: a tenant whose connection is now refused (its role
 * turned superuser, BYPASSRLS or CREATEROLE; the platform database; another tenant's) is skipped
 * and logged with its id and the reason, and the others still run. Returns what was applied where.
 */
export async function migrateDedicatedTenants(
  database: TenantAdminEnvironment['database'],
  secretsKey: Buffer,
  options: { log?: DedicatedStartLog } = {},
): Promise<{ tenantId: string; applied: string[]; error?: string; refused?: string }[]> {
  const results = [];
  for (const primary of await storedDedicatedPrimaries(database, secretsKey)) {
    const { tenantId } = primary;
    try {
      const { applied } = await migrate({ ownerUrl: primary.url(), secretsKey, appUser: APP_ROLE, checkConnection: primary.check });
      if (applied.length > 0) options.log?.info({ tenantId, applied }, `applied ${applied.join(', ')} to dedicated tenant ${tenantId}`);
      results.push({ tenantId, applied });
    } catch (error) {
      const { reason, detail } = refusalOf(error);
      const refused = reason === 'unusable' ? undefined : reason;
      options.log?.error(
        { tenantId, reason, ...(detail === undefined ? {} : { detail }) },
        refused === undefined
          ? `migrations failed for dedicated tenant ${tenantId}: skipped`
          : `dedicated tenant ${tenantId} skipped: its primary connection was refused (${refused}), nothing was migrated there`,
      );
      results.push({ tenantId, applied: [], error: detail ?? `refused: ${reason}`, ...(refused === undefined ? {} : { refused }) });
    }
  }
  return results;
}

const sameTarget = (row: store.TenantConnectionRow | undefined, connection: TenantConnectionInput) =>
  row?.host === targetOf(connection).host && row.port === connection.port && row.databaseName === connection.database;

/**
 * PUT /manage/sadmin/tenant/{id}/connections. Tests again, then (DEDICATED) migrates the primary
 * database, stores the three connections with their passwords sealed (AES-256-GCM, bound to
 * tenant and kind), switches the tenant's connection type and makes this process route the
 * tenant's work to its new place at once (other processes within 30 s).
 *
 * Moving a tenant between databases moves no data: a tenant whose current database already has
 * its people or records (users, scopes, centers, patients, devices, roles) cannot move
 * (tenant.dataPlaneInUse). Changing the credentials of the same primary database is always fine.
 */
export async function saveTenantConnections(environment: TenantAdminEnvironment, tenantId: string, input: TenantConnectionsInput): Promise<TenantConnections> {
  const tenant = await findManageableTenant(environment, tenantId);
  const plan = planConnections(input);
  const { database } = environment;
  // A deployment mistake, not the caller's: switching now would leave the tenant unreachable.
  if (plan.connectionType === 'DEDICATED' && !database.canRouteDedicatedTenants) throw new Error('the database was connected without the secrets key: DEDICATED tenants cannot be served');
  let identities: Record<TenantConnectionKind, string | null> | undefined;
  if (plan.connectionType === 'DEDICATED') {
    await admitConnectionCheck(environment);
    ({ identities } = await assertConnectionsUsable(environment, tenant.id, plan.connections));
  }

  const stored = await store.listConnections(database.system, tenant.id);
  const isMove =
    plan.connectionType !== tenant.connectionType ||
    (plan.connectionType === 'DEDICATED' && !sameTarget(stored.find((row) => row.kind === 'primary'), plan.connections.primary));
  if (isMove && (await database.withTenant(tenant.id, (tx) => store.hasTenantRecords(tx)))) throw new AppError('tenant.dataPlaneInUse');
  if (plan.connectionType === 'DEDICATED') await prepareDedicatedDatabase(environment, tenant, plan.connections.primary);

  const now = environment.clock.now();
  const box = createSecretBox(environment.secretsKey, CONNECTION_PASSWORD_PURPOSE);
  const rows =
    plan.connectionType === 'SHARED'
      ? []
      : TENANT_CONNECTION_KINDS.map((kind) => {
          const connection = plan.connections[kind];
          const target = targetOf(connection);
          return {
            tenantId: tenant.id,
            kind,
            host: target.host,
            port: target.port,
            databaseName: target.database,
            username: target.user,
            sslMode: target.sslMode,
            passwordCiphertext: box.seal(target.password, connectionPasswordContext(tenant.id, kind)),
            targetIdentity: identities?.[kind] ?? null,
            updatedAt: now,
          };
        });
  await database.system.transaction(async (tx) => {
    const locked = await store.lockTenant(tx, tenant.id);
    if (locked === undefined) throw new AppError('common.notFound');
    // Two tenants saved at once must not both take the same database: checked again under a lock.
    await store.lockConnectionChanges(tx);
    if (plan.connectionType === 'DEDICATED') {
      const others = await store.listOtherTenantsConnections(tx, tenant.id);
      const taken = TENANT_CONNECTION_KINDS.some((kind) => others.some((other) => leadsToSameDatabase(other, targetOf(plan.connections[kind]), identities?.[kind] ?? null)));
      if (taken) {
        environment.log.warn({ tenantId: tenant.id, reason: 'other-tenant' }, 'tenant connection check failed');
        throw new AppError('tenant.connectionFailed');
      }
    }
    await store.replaceConnections(tx, tenant.id, rows);
    await store.updateTenant(tx, tenant.id, { connectionType: plan.connectionType, updatedAt: now });
  });
  database.invalidateTenant(tenant.id);
  // The tenant's history continues where its data now lives.
  await database.withTenant(tenant.id, (tx) =>
    recordAudit(tx, tenant.id, environment.audit, {
      action: 'TENANT_CONNECTIONS_UPDATED',
      targetType: 'tenant',
      targetId: tenant.id,
      details: {
        from: tenant.connectionType,
        to: plan.connectionType,
        moved: isMove,
        connections: rows.map((row) => ({ kind: row.kind, host: row.host, port: row.port, database: row.databaseName, user: row.username, sslMode: row.sslMode })),
      },
      at: now,
    }),
  );
  return readTenantConnections(environment, tenant.id);
}
