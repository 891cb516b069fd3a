import {
  SSL_MODES,
  TENANT_CONNECTION_KINDS,
  type ConnectionFailureReason,
  type FieldError,
  type TenantConnectionInput,
  type TenantConnectionKind,
  type TenantConnections,
  type TenantConnectionsInput,
} from '@rpm/contracts';
import pg from 'pg';
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

function reasonOf(error: unknown): ConnectionFailureReason {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  const message = error instanceof Error ? error.message.toLowerCase() : '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNRESET', 'EADDRNOTAVAIL'].includes(code)) return 'unreachable';
  if (code === 'ETIMEDOUT' || message.includes('timeout')) return 'timeout';
  if (code === '28P01' || code === '28000') return 'authentication';
  if (code === '3D000' || code === '42501') return 'database';
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || message.includes('ssl') || message.includes('tls')) return 'tls';
  return 'failed';
}

/** Connects to one server with a short timeout and runs SELECT 1. */
async function probe(target: ConnectionTarget): Promise<{ isReachable: true; milliseconds: number } | { isReachable: false; reason: ConnectionFailureReason }> {
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
    await client.query('SELECT 1');
    return { isReachable: true, milliseconds: Math.round(performance.now() - started) };
  } catch (error) {
    return { isReachable: false, reason: reasonOf(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Tests every connection of a DEDICATED set at once. Any failure is tenant.connectionFailed
 * ("Could not contact the supplied server") with a field error naming each failing connection
 * (`body.connections.<index>`, code = the reason). Details of the failure are not echoed: the
 * caller chose the address, and the answer must not turn the server into a port scanner.
 */
export async function assertConnectionsWork(connections: DedicatedSet) {
  const results = await Promise.all(
    TENANT_CONNECTION_KINDS.map(async (kind) => ({ kind, index: connections[kind].index, result: await probe(targetOf(connections[kind])) })),
  );
  const failures: FieldError[] = results.flatMap(({ kind, index, result }) =>
    result.isReachable ? [] : [{ field: `body.connections.${index}`, code: `${kind}.${result.reason}`, message: `tenant.connectionReason.${result.reason}` }],
  );
  if (failures.length > 0) throw new AppError('tenant.connectionFailed', { fieldErrors: failures });
  return { connections: results.map(({ kind, result }) => ({ kind, isReachable: true, milliseconds: result.isReachable ? result.milliseconds : 0 })) };
}

/** POST /manage/sadmin/tenant/{id}/connections/test. */
export async function testTenantConnections(environment: TenantAdminEnvironment, tenantId: string, input: TenantConnectionsInput) {
  await findManageableTenant(environment, tenantId);
  const plan = planConnections(input);
  if (plan.connectionType === 'SHARED') return { connections: [] };
  return assertConnectionsWork(plan.connections);
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
 * what they create), then a copy of the tenant's row so the data-plane foreign keys hold. The
 * app's requests for the tenant run as that same user (see the router in db/database.ts), so
 * migrate() is told the login role is rpm_app's business and left alone: only the role must exist
 * for the grants in the migrations (created when missing, which needs CREATEROLE).
 */
async function prepareDedicatedDatabase(environment: TenantAdminEnvironment, tenant: store.TenantRow, primary: TenantConnectionInput) {
  const url = connectionUrlOf(targetOf(primary));
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
    } finally {
      await client.end();
    }
  } catch (error) {
    environment.log.warn({ err: error, tenantId: tenant.id }, 'dedicated tenant database could not be prepared');
    throw new AppError('tenant.databaseSetupFailed', { cause: error });
  }
}

/**
 * Applies the checked-in migrations to every DEDICATED tenant's primary database (for a server
 * start after an upgrade: the platform database is migrated by bootstrap, these are not). Returns
 * what was applied where; a tenant whose database fails is reported and the others still run.
 */
export async function migrateDedicatedTenants(
  database: TenantAdminEnvironment['database'],
  secretsKey: Buffer,
): Promise<{ tenantId: string; applied: string[]; error?: string }[]> {
  const box = createSecretBox(secretsKey, CONNECTION_PASSWORD_PURPOSE);
  const dedicated = await store.listDedicatedPrimaries(database.system);
  const results = [];
  for (const { tenantId, connection } of dedicated) {
    try {
      const password = box.open(connection.passwordCiphertext, connectionPasswordContext(tenantId, 'primary'));
      const target = { host: connection.host, port: connection.port, database: connection.databaseName, user: connection.username, password, sslMode: sslModeOf(connection.sslMode) };
      results.push({ tenantId, ...(await migrate({ ownerUrl: connectionUrlOf(target), secretsKey, appUser: APP_ROLE })) });
    } catch (error) {
      results.push({ tenantId, applied: [], error: error instanceof Error ? error.message : String(error) });
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
  if (plan.connectionType === 'DEDICATED') await assertConnectionsWork(plan.connections);

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
            updatedAt: now,
          };
        });
  await database.system.transaction(async (tx) => {
    const locked = await store.lockTenant(tx, tenant.id);
    if (locked === undefined) throw new AppError('common.notFound');
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
