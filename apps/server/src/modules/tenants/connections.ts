import {
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
  type TenantTargetContext,
} from '../../db/connection-guard.js';
import { CONNECTION_PASSWORD_PURPOSE, connectionPasswordContext, connectionUrlOf, type ConnectionTarget } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { recordAudit } from '../audit/store.js';
import { findManageableTenant, type TenantAdminEnvironment } from './admin-service.js';
import { CONNECTION_TEST_TIMEOUT_MILLISECONDS, isSameTarget, prepareDedicatedDatabase, sslModeOf, targetOf } from './dedicated-databases.js';
import * as store from './store.js';

export { CONNECTION_TEST_TIMEOUT_MILLISECONDS, migrateDedicatedTenants, refusalOf, storedDedicatedPrimaries, type DedicatedStartLog } from './dedicated-databases.js';

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

const sameTarget = (row: store.TenantConnectionRow | undefined, connection: TenantConnectionInput) =>
  row?.host === targetOf(connection).host && row.port === connection.port && row.databaseName === connection.database;
/** Where the tenant's readings are now: its vitals connection, or its primary's when that names the same database. */
const vitalsPlaceOf = (stored: store.TenantConnectionRow[]) => {
  const vitals = stored.find((row) => row.kind === 'vitals');
  const primary = stored.find((row) => row.kind === 'primary');
  const isOwn = vitals !== undefined && (vitals.host !== primary?.host || vitals.port !== primary.port || vitals.databaseName !== primary.databaseName);
  return isOwn ? vitals : primary;
};

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
  // Readings do not move either: another vitals database is refused once the tenant has some.
  const isVitalsMove = plan.connectionType === 'DEDICATED' && !isMove && !sameTarget(vitalsPlaceOf(stored), plan.connections.vitals);
  if (isVitalsMove && (await database.withTenant(tenant.id, (tx) => store.hasTenantReadings(tx)))) throw new AppError('tenant.dataPlaneInUse');
  if (plan.connectionType === 'DEDICATED') {
    await prepareDedicatedDatabase(environment, tenant, plan.connections.primary);
    if (!isSameTarget(plan.connections.vitals, plan.connections.primary)) await prepareDedicatedDatabase(environment, tenant, plan.connections.vitals);
  }

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
