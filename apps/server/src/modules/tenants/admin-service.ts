import {
  TENANT_CONNECTION_TYPES,
  TENANT_SETTING_DEFAULTS,
  TENANT_SETTING_KEYS,
  TENANT_STATUSES,
  isSecretTenantSetting,
  type TenantCounts,
  type TenantCreate,
  type TenantDetail,
  type TenantListItem,
  type TenantSettingsUpdate,
  type TenantUpdate,
} from '@rpm/contracts';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext, type AuditEntry } from '../audit/store.js';
import { createFirstAdmin } from './first-admin.js';
import { logoUrlOf } from './service.js';
import * as store from './store.js';

/** What every super-admin tenant call works with. */
export interface TenantAdminEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
  secretsKey: Buffer;
  /** Starts delivery of messages queued by a committed change. */
  kick: () => void;
  log: { warn(details: object, message: string): void };
}

const notFound = () => new AppError('common.notFound');
const statusOf = (value: string) => TENANT_STATUSES.find((status) => status === value) ?? 'INACTIVE';
const connectionTypeOf = (value: string) => TENANT_CONNECTION_TYPES.find((type) => type === value) ?? 'SHARED';

/**
 * A customer tenant the caller may manage. The platform tenant is never managed through these
 * calls, and a system admin manages only the tenants assigned to them; both look like "not
 * found", as does an unknown id.
 */
export async function findManageableTenant(environment: TenantAdminEnvironment, tenantId: string): Promise<store.TenantRow> {
  const { system } = environment.database;
  const tenant = await store.findTenantById(system, tenantId);
  if (tenant === undefined || tenant.isPlatform) throw notFound();
  if (environment.auth.role === 'SYSTEM_ADMIN' && !(await store.assignedTenantIds(system, environment.auth.userId)).includes(tenant.id)) {
    throw notFound();
  }
  return tenant;
}

/**
 * Applies a control-plane change to a tenant together with its audit row in the tenant's own
 * audit log. A SHARED tenant's data plane is the platform database, so both commit in one
 * transaction; a DEDICATED tenant's audit log is in its own database, written after the change.
 */
export async function changeTenant<T>(
  environment: TenantAdminEnvironment,
  tenant: store.TenantRow,
  change: (controlPlane: store.ControlPlane, locked: store.TenantRow) => Promise<T>,
  auditEntry: (result: T) => AuditEntry,
): Promise<T> {
  const { database } = environment;
  if (tenant.connectionType === 'SHARED') {
    return database.withTenant(tenant.id, async (tx) => {
      const locked = await store.lockTenant(tx, tenant.id);
      // Checked under the lock: the tenant may have moved to its own database meanwhile (a
      // DEDICATED tenant's copy of its row there says DEDICATED), and this must be the control plane.
      if (locked?.connectionType !== 'SHARED' || locked.isPlatform) throw new Error(`tenant ${tenant.id} changed its database during a change; try again`);
      const result = await change(tx, locked);
      await recordAudit(tx, tenant.id, environment.audit, auditEntry(result));
      return result;
    });
  }
  const result = await database.system.transaction(async (tx) => {
    const locked = await store.lockTenant(tx, tenant.id);
    if (locked === undefined) throw notFound();
    return change(tx, locked);
  });
  await database.withTenant(tenant.id, (tx) => recordAudit(tx, tenant.id, environment.audit, auditEntry(result)));
  return result;
}

/** A unique index of tenants refused a write: the tenant code or name it protects. */
export function identityClashOf(error: unknown): 'tenant.nameExists' | 'tenant.codeExists' | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    if (current instanceof pg.DatabaseError && current.code === '23505') {
      if (current.constraint === 'tenants_name_key') return 'tenant.nameExists';
      if (current.constraint === 'tenants_code_key') return 'tenant.codeExists';
    }
    current = current.cause;
  }
  return undefined;
}

export async function assertIdentityFree(controlPlane: store.ControlPlane, identity: { name: string; code?: string }, exceptId?: string) {
  const clash = await store.findIdentityClash(controlPlane, identity, exceptId);
  if (clash.isNameTaken) throw new AppError('tenant.nameExists', { fieldErrors: [{ field: 'body.name', code: 'exists', message: 'tenant.nameExists' }] });
  if (clash.isCodeTaken) throw new AppError('tenant.codeExists', { fieldErrors: [{ field: 'body.code', code: 'exists', message: 'tenant.codeExists' }] });
}

/** Counts from the tenant's own data plane; null when its database cannot be reached. */
async function countsOf(environment: TenantAdminEnvironment, tenantId: string): Promise<TenantCounts | null> {
  try {
    return await environment.database.withTenant(tenantId, (tx) => store.countTenantRecords(tx));
  } catch (error) {
    environment.log.warn({ err: error, tenantId }, 'tenant counts unavailable');
    return null;
  }
}

function toListItem(tenant: store.TenantRow, counts: TenantCounts | null): TenantListItem {
  return {
    id: tenant.id,
    code: tenant.code,
    name: tenant.name,
    officialName: tenant.officialName,
    status: statusOf(tenant.status),
    connectionType: connectionTypeOf(tenant.connectionType),
    createdAt: tenant.createdAt.toISOString(),
    counts,
  };
}

/** GET /manage/sadmin/tenant/all: paged, searchable, sorted by name or creation, with counts. */
export async function listTenants(
  environment: TenantAdminEnvironment,
  query: { page: number; size: number; search?: string | undefined; sort: 'name' | 'created'; order: 'asc' | 'desc' },
) {
  const { system } = environment.database;
  const onlyIds = environment.auth.role === 'SYSTEM_ADMIN' ? await store.assignedTenantIds(system, environment.auth.userId) : undefined;
  const { items, total } = await store.listCustomerTenants(system, { ...query, onlyIds });
  // Each tenant is counted in its own data plane (several databases for DEDICATED tenants), a few at a time.
  const counted: TenantListItem[] = [];
  for (let start = 0; start < items.length; start += 5) {
    const batch = items.slice(start, start + 5);
    counted.push(...(await Promise.all(batch.map(async (tenant) => toListItem(tenant, await countsOf(environment, tenant.id))))));
  }
  return { items: counted, page: query.page, size: query.size, total };
}

const maskSecret = (value: string) => (value === '' ? '' : `****${value.length > 8 ? value.slice(-4) : ''}`);

/** GET /manage/sadmin/tenant/{id}: identity, settings (secrets masked), logos and counts. */
export async function readTenantDetail(environment: TenantAdminEnvironment, tenantId: string): Promise<TenantDetail> {
  const tenant = await findManageableTenant(environment, tenantId);
  const stored = await store.readTenantSettings(environment.database.system, tenant.id);
  const logos = { square: logoUrlOf(tenant, 'square'), horizontal: logoUrlOf(tenant, 'horizontal'), qr: logoUrlOf(tenant, 'qr') };
  return {
    ...toListItem(tenant, await countsOf(environment, tenant.id)),
    publicUrl: tenant.publicUrl,
    updatedAt: tenant.updatedAt.toISOString(),
    settings: TENANT_SETTING_KEYS.map((key) => {
      const value = stored.get(key);
      const isSecret = isSecretTenantSetting(key);
      const shown = value ?? TENANT_SETTING_DEFAULTS[key];
      return { key, value: isSecret ? maskSecret(shown) : shown, isDefault: value === undefined, isSecret };
    }),
    logos: Object.fromEntries(Object.entries(logos).filter(([, url]) => url !== undefined)),
  };
}

/** What an audit row may say about setting values: secrets only that they changed. */
function describeSettings(values: TenantSettingsUpdate): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value === null ? null : TENANT_SETTING_KEYS.some((name) => name === key && isSecretTenantSetting(name)) ? '(changed)' : value]),
  );
}

/** The keys given (zod leaves absent keys out), with null for "back to the default". */
const definedSettings = (values: TenantSettingsUpdate): Record<string, string | null> => Object.fromEntries(Object.entries(values));

/** Whether the runtime formats dates in a zone (canonical names and their aliases, e.g. Asia/Ho_Chi_Minh and Asia/Saigon). */
function isRuntimeTimeZone(zone: string): boolean {
  try {
    Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions();
    return true;
  } catch {
    return false;
  }
}

/**
 * Spec §5 "Time zone must be valid": a TIME_ZONE given must be known to the runtime (what the
 * consoles offer) and to the database (which computes the local days).
 */
async function assertSupportedTimeZone(environment: TenantAdminEnvironment, values: TenantSettingsUpdate): Promise<void> {
  const zone = values.TIME_ZONE;
  if (zone === undefined || zone === null) return;
  if (!isRuntimeTimeZone(zone) || !(await store.isDatabaseTimeZone(environment.database.system, zone))) {
    throw new AppError('tenant.timeZoneUnsupported', { fieldErrors: [{ field: 'body.TIME_ZONE', code: 'unsupported', message: 'tenant.timeZoneUnsupported' }] });
  }
}

/**
 * POST /manage/sadmin/tenant. A new tenant is SHARED, so its control-plane rows and its first
 * data-plane rows (first admin, code, welcome email, audit) are written in one transaction of
 * the platform database: a failure leaves nothing half-created.
 */
export async function createTenant(environment: TenantAdminEnvironment, input: TenantCreate, consoleOrigin: string): Promise<TenantDetail> {
  const { database, clock } = environment;
  await assertIdentityFree(database.system, { name: input.name, code: input.code });
  await assertSupportedTimeZone(environment, input.settings);
  const id = uuidv7();
  const now = clock.now();
  const settings = definedSettings(input.settings);
  try {
    await database.withTenant(id, async (tx) => {
      const tenant = await store.insertTenant(tx, { id, code: input.code, name: input.name, officialName: input.officialName, publicUrl: input.publicUrl, createdAt: now, updatedAt: now });
      await store.writeTenantSettings(tx, id, settings, now);
      await recordAudit(tx, id, environment.audit, {
        action: 'TENANT_CREATED',
        targetType: 'tenant',
        targetId: id,
        details: { code: tenant.code, name: tenant.name, settings: describeSettings(input.settings), firstAdmin: input.admin?.email ?? null },
        at: now,
      });
      if (input.admin !== undefined) {
        await createFirstAdmin(tx, { now, secretsKey: environment.secretsKey, audit: environment.audit }, {
          tenant,
          admin: { ...input.admin, language: input.admin.language ?? input.settings.LANGUAGE ?? TENANT_SETTING_DEFAULTS.LANGUAGE },
          consoleUrl: input.publicUrl || consoleOrigin,
        });
      }
    });
  } catch (error) {
    const clash = identityClashOf(error);
    if (clash !== undefined) throw new AppError(clash, { cause: error });
    throw error;
  }
  environment.kick();
  return readTenantDetail(environment, id);
}

/** PUT /manage/sadmin/tenant/{id}: name, official name, public URL, status. */
export async function updateTenantIdentity(environment: TenantAdminEnvironment, tenantId: string, input: TenantUpdate): Promise<TenantDetail> {
  const tenant = await findManageableTenant(environment, tenantId);
  await assertIdentityFree(environment.database.system, { name: input.name }, tenant.id);
  const now = environment.clock.now();
  try {
    await changeTenant(
      environment,
      tenant,
      (controlPlane) => store.updateTenant(controlPlane, tenant.id, { ...input, updatedAt: now }),
      (updated) => ({
        action: 'TENANT_UPDATED',
        targetType: 'tenant',
        targetId: tenant.id,
        details: {
          before: { name: tenant.name, officialName: tenant.officialName, publicUrl: tenant.publicUrl, status: tenant.status },
          after: { name: updated.name, officialName: updated.officialName, publicUrl: updated.publicUrl, status: updated.status },
        },
        at: now,
      }),
    );
  } catch (error) {
    const clash = identityClashOf(error);
    if (clash !== undefined) throw new AppError(clash, { cause: error });
    throw error;
  }
  return readTenantDetail(environment, tenant.id);
}

/** PUT /manage/sadmin/tenant/{id}/settings: the keys given (validated per key by the schema). */
export async function updateTenantSettings(environment: TenantAdminEnvironment, tenantId: string, input: TenantSettingsUpdate): Promise<TenantDetail> {
  const tenant = await findManageableTenant(environment, tenantId);
  await assertSupportedTimeZone(environment, input);
  const values = definedSettings(input);
  const now = environment.clock.now();
  await changeTenant(
    environment,
    tenant,
    async (controlPlane) => {
      await store.writeTenantSettings(controlPlane, tenant.id, values, now);
      await store.updateTenant(controlPlane, tenant.id, { updatedAt: now });
    },
    () => ({ action: 'TENANT_SETTINGS_UPDATED', targetType: 'tenant', targetId: tenant.id, details: { settings: describeSettings(input) }, at: now }),
  );
  // The local days of a DEDICATED tenant's patients are computed in its own database: its time
  // zone is kept there too (the change there schedules the rebuild of those patients' rollups).
  if (tenant.connectionType !== 'SHARED' && 'TIME_ZONE' in values) {
    await environment.database.withTenant(tenant.id, (tx) => store.writeTenantSettings(tx, tenant.id, { TIME_ZONE: values.TIME_ZONE ?? null }, now));
  }
  return readTenantDetail(environment, tenant.id);
}
