import type { PackageInput, PackageListQuery, ServicePackage } from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { servicePackages, subscriptions, type ServicePackageRow } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { containsPattern } from '../../lib/like.js';

/**
 * The tenant's offer (spec §2 package management: create, edit, add-on packs, enable or disable;
 * §5 rules). Packages and add-ons are never deleted: subscriptions and orders keep pointing at
 * them; a disabled one takes no new subscriptions and can be enabled again. The ZERO plan is the
 * default package (free, always enabled): a patient without a current subscription is on it.
 */
export interface PackageEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

export const CURRENT = ['ACTIVE', 'ABOUT_TO_EXPIRE'] as const;

export function toPackage(row: ServicePackageRow, subscribers = 0): ServicePackage {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind as ServicePackage['kind'],
    name: row.name,
    level: row.level as ServicePackage['level'],
    plan: row.plan as ServicePackage['plan'],
    priceMinor: row.priceMinor,
    currency: row.currency as ServicePackage['currency'],
    durationMonths: row.durationMonths,
    useLimit: row.useLimit,
    storageCount: row.storageCount,
    followerLimit: row.followerLimit,
    subUserLimit: row.subUserLimit,
    userFeatures: row.userFeatures as ServicePackage['userFeatures'],
    relativeFeatures: row.relativeFeatures as ServicePackage['relativeFeatures'],
    icon: row.icon,
    description: row.description,
    isDefault: row.isDefault,
    enabled: row.enabled,
    subscribers,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Current subscriptions per package, for the packages listed. */
async function subscriberCounts(tx: TenantTransaction, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ packageId: subscriptions.packageId, total: count() })
    .from(subscriptions)
    .where(and(inArray(subscriptions.packageId, ids), inArray(subscriptions.status, [...CURRENT])))
    .groupBy(subscriptions.packageId);
  return new Map(rows.map((row) => [row.packageId, row.total]));
}

function listConditions(query: Pick<PackageListQuery, 'search' | 'kind' | 'enabled'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.kind !== undefined) conditions.push(eq(servicePackages.kind, query.kind));
  if (query.enabled !== undefined) conditions.push(eq(servicePackages.enabled, query.enabled));
  if (query.search !== undefined && query.search !== '') {
    const pattern = containsPattern(query.search);
    conditions.push(or(ilike(servicePackages.name, pattern), ilike(servicePackages.code, pattern), ilike(servicePackages.description, pattern)));
  }
  return and(...conditions);
}

function listOrder(query: Pick<PackageListQuery, 'sortField' | 'sortType'>): SQL[] {
  const direction = query.sortType === 'desc' ? desc : asc;
  switch (query.sortField) {
    case 'name':
      return [direction(sql`lower(${servicePackages.name})`), asc(servicePackages.id)];
    case 'code':
      return [direction(sql`lower(${servicePackages.code})`), asc(servicePackages.id)];
    case 'price':
      return [asc(servicePackages.kind), direction(servicePackages.priceMinor), asc(sql`lower(${servicePackages.name})`)];
    case 'created':
      return [direction(servicePackages.createdAt), asc(servicePackages.id)];
  }
}

/** GET /account/packages: the offer, paged, searchable (name, id, description), filterable, sortable. */
export function listPackages(environment: PackageEnvironment, query: PackageListQuery) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const where = listConditions(query);
    const rows = await tx
      .select()
      .from(servicePackages)
      .where(where)
      .orderBy(...listOrder(query))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(servicePackages).where(where);
    const counts = await subscriberCounts(
      tx,
      rows.map((row) => row.id),
    );
    return {
      items: rows.map((row) => toPackage(row, counts.get(row.id) ?? 0)),
      page: query.page,
      size: query.size,
      total: total?.total ?? 0,
    };
  });
}

/** The enabled offer as the patient app shows it: packages by price, then add-ons. */
export async function enabledPackages(tx: TenantTransaction): Promise<ServicePackage[]> {
  const rows = await tx
    .select()
    .from(servicePackages)
    .where(eq(servicePackages.enabled, true))
    .orderBy(desc(servicePackages.kind), asc(servicePackages.priceMinor), asc(servicePackages.name));
  return rows.map((row) => toPackage(row));
}

export async function findPackage(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}) {
  const query = tx.select().from(servicePackages).where(eq(servicePackages.id, id)).limit(1);
  const [row] = options.lock === true ? await query.for('update') : await query;
  if (row === undefined) throw new AppError('package.notFound');
  return row;
}

/** The unique id and name rules of spec §5, as field errors the form shows under the field. */
async function assertUnique(tx: TenantTransaction, input: Pick<PackageInput, 'code' | 'name'>, exceptId?: string) {
  const clash = await tx.execute<{ code_taken: boolean; name_taken: boolean }>(sql`
    SELECT coalesce(bool_or(lower(code) = lower(${input.code})), false) AS code_taken,
           coalesce(bool_or(lower(btrim(name)) = lower(btrim(${input.name}))), false) AS name_taken
      FROM service_packages WHERE (${exceptId ?? null}::uuid IS NULL OR id <> ${exceptId ?? null}::uuid)`);
  const row = clash.rows[0];
  if (row?.code_taken === true)
    throw new AppError('package.codeExists', { fieldErrors: [{ field: 'body.code', code: 'duplicate', message: 'package.codeExists' }] });
  if (row?.name_taken === true)
    throw new AppError('package.nameExists', { fieldErrors: [{ field: 'body.name', code: 'duplicate', message: 'package.nameExists' }] });
}

const valuesOf = (input: PackageInput) => ({
  code: input.code,
  kind: input.kind,
  name: input.name,
  level: input.level,
  plan: input.plan,
  priceMinor: input.priceMinor,
  currency: input.currency,
  durationMonths: input.durationMonths,
  useLimit: input.useLimit,
  storageCount: input.storageCount,
  followerLimit: input.followerLimit,
  subUserLimit: input.subUserLimit,
  userFeatures: [...new Set(input.userFeatures)],
  relativeFeatures: [...new Set(input.relativeFeatures)],
  icon: input.icon,
  description: input.description,
  isDefault: input.plan === 'ZERO',
});

/**
 * A unique violation that slipped past the check (two admins saving at once) is the same answer
 * as the check's, never a 500.
 */
function uniqueViolation(error: unknown): AppError | undefined {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause ?? (error as { code?: string; constraint?: string });
  if (cause.code !== '23505') return undefined;
  if (cause.constraint === 'service_packages_code_key') return new AppError('package.codeExists');
  if (cause.constraint === 'service_packages_name_key') return new AppError('package.nameExists');
  if (cause.constraint === 'service_packages_one_default') return new AppError('package.defaultLocked');
  return undefined;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw uniqueViolation(error) ?? error;
  }
}

/** POST /account/packages: a new package or add-on (audited). */
export function createPackage(environment: PackageEnvironment, input: PackageInput): Promise<ServicePackage> {
  const { auth } = environment;
  return guarded(() =>
    withCaller(environment.database, auth, async (tx) => {
      await assertUnique(tx, input);
      const now = environment.clock.now();
      const [row] = await tx
        .insert(servicePackages)
        .values({ tenantId: auth.tenantId, id: uuidv7(), ...valuesOf(input), createdBy: auth.userId, createdAt: now, updatedBy: auth.userId, updatedAt: now })
        .returning();
      if (row === undefined) throw new Error('package not stored');
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PACKAGE_CREATED',
        targetType: 'service_package',
        targetId: row.id,
        details: { code: row.code, kind: row.kind, priceMinor: row.priceMinor, currency: row.currency },
        at: now,
      });
      return toPackage(row);
    }),
  );
}

/**
 * PUT /account/packages/:id: edits a package. A new price applies to new subscriptions and orders
 * only (each keeps what it paid); the currency stays once someone subscribed; the default stays
 * the free ZERO package. Audited with the fields that changed.
 */
export function updatePackage(environment: PackageEnvironment, id: string, input: PackageInput): Promise<ServicePackage> {
  const { auth } = environment;
  return guarded(() =>
    withCaller(environment.database, auth, async (tx) => {
      const before = await findPackage(tx, id, { lock: true });
      await assertUnique(tx, input, id);
      if (before.isDefault && input.plan !== 'ZERO') throw new AppError('package.defaultLocked');
      if (before.kind !== input.kind) throw new AppError('common.invalidParameter', { fieldErrors: [{ field: 'body.kind', code: 'invalid_value', message: 'common.invalidParameter' }] });
      const counts = await subscriberCounts(tx, [id]);
      if (before.currency !== input.currency && (counts.get(id) ?? 0) > 0) throw new AppError('package.currencyLocked');
      const now = environment.clock.now();
      const values = valuesOf(input);
      const [row] = await tx
        .update(servicePackages)
        .set({ ...values, updatedBy: auth.userId, updatedAt: now })
        .where(eq(servicePackages.id, id))
        .returning();
      if (row === undefined) throw new AppError('package.notFound');
      const changed = Object.keys(values).filter(
        (key) => JSON.stringify(before[key as keyof typeof before]) !== JSON.stringify(values[key as keyof typeof values]),
      );
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PACKAGE_UPDATED',
        targetType: 'service_package',
        targetId: id,
        details: { code: row.code, changed },
        at: now,
      });
      return toPackage(row, counts.get(id) ?? 0);
    }),
  );
}

/** PUT /account/packages/:id/state: disables (no new subscriptions) or enables again. Audited. */
export function setPackageEnabled(environment: PackageEnvironment, id: string, enabled: boolean): Promise<ServicePackage> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const before = await findPackage(tx, id, { lock: true });
    if (before.isDefault && !enabled) throw new AppError('package.defaultLocked');
    const counts = await subscriberCounts(tx, [id]);
    if (before.enabled === enabled) return toPackage(before, counts.get(id) ?? 0);
    const now = environment.clock.now();
    const [row] = await tx
      .update(servicePackages)
      .set({ enabled, updatedBy: auth.userId, updatedAt: now })
      .where(eq(servicePackages.id, id))
      .returning();
    if (row === undefined) throw new AppError('package.notFound');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: enabled ? 'PACKAGE_ENABLED' : 'PACKAGE_DISABLED',
      targetType: 'service_package',
      targetId: id,
      details: { code: row.code, subscribers: counts.get(id) ?? 0 },
      at: now,
    });
    return toPackage(row, counts.get(id) ?? 0);
  });
}
