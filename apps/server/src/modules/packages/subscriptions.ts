import {
  ABOUT_TO_EXPIRE_DAYS,
  PACKAGE_FEATURES,
  UNLIMITED,
  type Entitlements,
  type PackageFeature,
  type Subscription,
} from '@rpm/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { patients, servicePackages, subscriptions, type ServicePackageRow, type SubscriptionRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { DAY } from '../../lib/clock.js';
import { JOB_AUDIT_CONTEXT, recordAudit, type AuditContext } from '../audit/store.js';
import { cancelJob, scheduleJob } from '../jobs/queue.js';
import { notifyPatient } from '../notifications/notify.js';
import { CURRENT } from './catalogue.js';

/**
 * Subscriptions and entitlements (spec §3 Subscription, §4 subscribe, change package, cancel;
 * active, about to expire, expired; §6 paid features need the Basic package, paid packages only
 * with a connected wearable). One place answers "may this patient use X now": entitlementsOf.
 *
 * A tenant that sells no packages (it has no default ZERO package) limits nothing by package:
 * every feature is on and only the product's own limits apply (docs/decisions.md).
 */

export const EXPIRING_TASK = 'packages.subscriptionExpiring';
export const EXPIRED_TASK = 'packages.subscriptionExpired';
const jobKeys = (id: string) => ({ expiring: `subscription:${id}:expiring`, expired: `subscription:${id}:expired` });

interface Joined {
  subscription: SubscriptionRow;
  package: ServicePackageRow;
}

const packageRef = (row: ServicePackageRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  level: row.level as Subscription['package']['level'],
  priceMinor: row.priceMinor,
  currency: row.currency as Subscription['package']['currency'],
});

export function toSubscription({ subscription, package: offer }: Joined): Subscription {
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  return {
    id: subscription.id,
    package: packageRef(offer),
    kind: subscription.kind as Subscription['kind'],
    status: subscription.status as Subscription['status'],
    source: subscription.source as Subscription['source'],
    startsAt: subscription.startsAt.toISOString(),
    endsAt: iso(subscription.endsAt),
    nextExtendAt: iso(subscription.nextExtendAt),
    remainingTurns: subscription.remainingTurns,
    receiptId: subscription.receiptId,
    endedAt: iso(subscription.endedAt),
  };
}

/** The patient's current package subscription and add-ons (ACTIVE or ABOUT_TO_EXPIRE). */
export async function currentSubscriptions(tx: TenantTransaction, patientId: string): Promise<Joined[]> {
  return tx
    .select({ subscription: subscriptions, package: servicePackages })
    .from(subscriptions)
    .innerJoin(servicePackages, and(eq(servicePackages.tenantId, subscriptions.tenantId), eq(servicePackages.id, subscriptions.packageId)))
    .where(and(eq(subscriptions.patientId, patientId), inArray(subscriptions.status, [...CURRENT])))
    .orderBy(desc(subscriptions.startsAt));
}

/** Every subscription the patient had, newest first (the history under its package). */
export async function subscriptionHistory(tx: TenantTransaction, patientId: string, limit = 50): Promise<Subscription[]> {
  const rows = await tx
    .select({ subscription: subscriptions, package: servicePackages })
    .from(subscriptions)
    .innerJoin(servicePackages, and(eq(servicePackages.tenantId, subscriptions.tenantId), eq(servicePackages.id, subscriptions.packageId)))
    .where(eq(subscriptions.patientId, patientId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .limit(limit);
  return rows.map(toSubscription);
}

export async function defaultPackage(tx: TenantTransaction): Promise<ServicePackageRow | undefined> {
  const [row] = await tx.select().from(servicePackages).where(eq(servicePackages.isDefault, true)).limit(1);
  return row;
}

export async function hasWearable(tx: TenantTransaction, patientId: string): Promise<boolean> {
  const result = await tx.execute<{ bound: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM devices WHERE patient_id = ${patientId}::uuid) AS bound`,
  );
  return result.rows[0]?.bound === true;
}

/** The larger of two limits, -1 being unlimited. */
const widest = (a: number, b: number) => (a === UNLIMITED || b === UNLIMITED ? UNLIMITED : Math.max(a, b));

/**
 * The account holder's own record of a sub-user (undefined for any other patient): a sub-user also
 * has what its holder's package gives relatives.
 */
async function holderOf(tx: TenantTransaction, patientId: string): Promise<string | undefined> {
  const result = await tx.execute<{ id: string }>(sql`
    SELECT holder.id FROM patients sub
      JOIN patients holder ON holder.user_id = sub.holder_user_id AND holder.account_kind <> 'SUB_USER'
     WHERE sub.id = ${patientId}::uuid AND sub.account_kind = 'SUB_USER'
     ORDER BY (holder.account_state = 'ACTIVE') DESC, holder.created_at
     LIMIT 1`);
  return result.rows[0]?.id;
}

/**
 * What the patient may use now: its package (or the default) and add-ons; a sub-user also gets
 * the features its holder's package gives relatives ("relative" features, spec §3 Package).
 */
export async function entitlementsOf(tx: TenantTransaction, patientId: string): Promise<Entitlements> {
  const own = await ownEntitlements(tx, patientId);
  if (!own.packagesEnabled) return own;
  const holderId = await holderOf(tx, patientId);
  if (holderId === undefined) return own;
  const given = (await ownEntitlements(tx, holderId)).relativeFeatures;
  return { ...own, features: PACKAGE_FEATURES.filter((feature) => own.features.includes(feature) || given.includes(feature)) };
}

async function ownEntitlements(tx: TenantTransaction, patientId: string): Promise<Entitlements> {
  const fallback = await defaultPackage(tx);
  const wearable = await hasWearable(tx, patientId);
  if (fallback === undefined)
    return {
      packagesEnabled: false,
      package: null,
      subscription: null,
      addons: [],
      features: [...PACKAGE_FEATURES],
      relativeFeatures: [...PACKAGE_FEATURES],
      followerLimit: UNLIMITED,
      subUserLimit: UNLIMITED,
      storageCount: UNLIMITED,
      hasWearable: wearable,
    };
  const current = await currentSubscriptions(tx, patientId);
  const main = current.find((entry) => entry.subscription.kind === 'PACKAGE');
  const addons = current.filter((entry) => entry.subscription.kind === 'ADDON');
  const offer = main?.package ?? fallback;
  const offers = [offer, ...addons.map((entry) => entry.package)];
  const union = (pick: (row: ServicePackageRow) => string[]) =>
    PACKAGE_FEATURES.filter((feature) => offers.some((row) => pick(row).includes(feature)));
  return {
    packagesEnabled: true,
    package: packageRef(offer),
    subscription: main === undefined ? null : toSubscription(main),
    addons: addons.map(toSubscription),
    features: union((row) => row.userFeatures),
    relativeFeatures: union((row) => row.relativeFeatures),
    followerLimit: offers.map((row) => row.followerLimit).reduce(widest),
    subUserLimit: offers.map((row) => row.subUserLimit).reduce(widest),
    storageCount: offers.map((row) => row.storageCount).reduce(widest),
    hasWearable: wearable,
  };
}

/** Refuses a feature the patient's package does not give (package.upgradeRequired, 403). */
export async function requireFeature(tx: TenantTransaction, patientId: string, feature: PackageFeature): Promise<void> {
  const entitlements = await entitlementsOf(tx, patientId);
  if (!entitlements.features.includes(feature)) throw new AppError('package.upgradeRequired');
}

/**
 * The patient's limit of a kind (followers of each type, sub-users), capped by the product's own
 * limit: a package never gives more than the spec allows.
 */
export async function packageLimit(
  tx: TenantTransaction,
  patientId: string,
  kind: 'followerLimit' | 'subUserLimit',
  productLimit: number,
): Promise<number> {
  const limit = (await entitlementsOf(tx, patientId))[kind];
  return limit === UNLIMITED ? productLimit : Math.min(limit, productLimit);
}

function addMonths(at: Date, months: number): Date {
  const end = new Date(at);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}

async function scheduleLifecycle(tx: TenantTransaction, tenantId: string, row: SubscriptionRow, now: Date): Promise<void> {
  if (row.endsAt === null) return;
  const keys = jobKeys(row.id);
  const warnAt = new Date(row.endsAt.getTime() - ABOUT_TO_EXPIRE_DAYS * DAY);
  await scheduleJob(tx, tenantId, EXPIRING_TASK, { subscriptionId: row.id }, { runAt: warnAt < now ? now : warnAt, jobKey: keys.expiring });
  await scheduleJob(tx, tenantId, EXPIRED_TASK, { subscriptionId: row.id }, { runAt: row.endsAt, jobKey: keys.expired });
}

async function stopLifecycle(tx: TenantTransaction, id: string): Promise<void> {
  const keys = jobKeys(id);
  await cancelJob(tx, keys.expiring);
  await cancelJob(tx, keys.expired);
}

async function setPatientPackageCode(tx: TenantTransaction, patientId: string, code: string | null, now: Date): Promise<void> {
  await tx.update(patients).set({ packageCode: code, updatedAt: now }).where(eq(patients.id, patientId));
}

async function endSubscription(tx: TenantTransaction, row: SubscriptionRow, status: 'CANCELED' | 'REPLACED' | 'EXPIRED', at: Date): Promise<void> {
  await tx.update(subscriptions).set({ status, endedAt: at, updatedAt: at }).where(eq(subscriptions.id, row.id));
  await stopLifecycle(tx, row.id);
}

export interface StartSubscription {
  tenantId: string;
  patientId: string;
  packageId: string;
  source: 'ORDER' | 'CODE' | 'STAFF';
  receiptId?: string | undefined;
  actorId: string | null;
  audit: AuditContext;
  now: Date;
}

/**
 * Subscribes the patient to a package or an add-on, in the caller's transaction (a paid order's,
 * a redeemed code's or staff's). The package must be enabled (package.disabled); a paid one needs
 * a bound wearable (package.wearableRequired). A package replaces the current one (REPLACED: a
 * change of package) or, when it is the same package, extends it; the default package simply ends
 * it (back to ZERO). The end is now plus the
 * package's months (none when unlimited), its turns its use limit; the lifecycle jobs are
 * scheduled with the row. Audited.
 */
export async function startSubscription(tx: TenantTransaction, input: StartSubscription): Promise<Subscription | null> {
  const [offer] = await tx.select().from(servicePackages).where(eq(servicePackages.id, input.packageId)).limit(1).for('share');
  if (offer === undefined) throw new AppError('package.notFound');
  if (!offer.enabled) throw new AppError('package.disabled');
  if (offer.priceMinor > 0 && !(await hasWearable(tx, input.patientId))) throw new AppError('package.wearableRequired');
  // One change at a time per patient: the record is the lock.
  await tx.select({ id: patients.id }).from(patients).where(eq(patients.id, input.patientId)).limit(1).for('update');
  const current = (await currentSubscriptions(tx, input.patientId)).find((entry) => entry.subscription.kind === 'PACKAGE');
  // The package the patient is on already: the subscription is extended from its end.
  if (offer.kind === 'PACKAGE' && current?.package.id === offer.id) return extendSubscription(tx, input, current);
  // The default package while on it already: nothing changes.
  if (offer.isDefault && current === undefined) return null;
  if (offer.kind === 'PACKAGE' && current !== undefined) await endSubscription(tx, current.subscription, 'REPLACED', input.now);
  if (offer.isDefault) {
    await setPatientPackageCode(tx, input.patientId, offer.code, input.now);
    await recordAudit(tx, input.tenantId, input.audit, {
      action: current === undefined ? 'SUBSCRIPTION_STARTED' : 'SUBSCRIPTION_CHANGED',
      targetType: 'patient',
      targetId: input.patientId,
      details: { packageId: offer.id, code: offer.code, from: current?.package.code ?? null, source: input.source },
      at: input.now,
    });
    return null;
  }
  const endsAt = offer.durationMonths === UNLIMITED ? null : addMonths(input.now, offer.durationMonths);
  const [row] = await tx
    .insert(subscriptions)
    .values({
      tenantId: input.tenantId,
      id: uuidv7(),
      patientId: input.patientId,
      packageId: offer.id,
      kind: offer.kind,
      status: 'ACTIVE',
      source: input.source,
      startsAt: input.now,
      endsAt,
      nextExtendAt: endsAt,
      remainingTurns: offer.useLimit === UNLIMITED ? null : offer.useLimit,
      receiptId: input.receiptId ?? null,
      createdBy: input.actorId,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  if (row === undefined) throw new Error('subscription not stored');
  await scheduleLifecycle(tx, input.tenantId, row, input.now);
  if (offer.kind === 'PACKAGE') await setPatientPackageCode(tx, input.patientId, offer.code, input.now);
  await recordAudit(tx, input.tenantId, input.audit, {
    action: current !== undefined && offer.kind === 'PACKAGE' ? 'SUBSCRIPTION_CHANGED' : 'SUBSCRIPTION_STARTED',
    targetType: 'patient',
    targetId: input.patientId,
    details: {
      subscriptionId: row.id,
      packageId: offer.id,
      code: offer.code,
      from: offer.kind === 'PACKAGE' ? (current?.package.code ?? null) : null,
      source: input.source,
      receiptId: row.receiptId,
      endsAt: endsAt?.toISOString() ?? null,
    },
    at: input.now,
  });
  return toSubscription({ subscription: row, package: offer });
}

/**
 * Extends the current subscription of a package by the package's months from its end (not from
 * today: a renewal before the end loses nothing), adds the package's turns, makes it ACTIVE again
 * and moves its lifecycle jobs. An unlimited subscription has nothing to extend. Audited.
 */
async function extendSubscription(tx: TenantTransaction, input: StartSubscription, current: Joined): Promise<Subscription> {
  const { subscription, package: offer } = current;
  if (subscription.endsAt === null || offer.durationMonths === UNLIMITED) return toSubscription(current);
  const endsAt = addMonths(subscription.endsAt, offer.durationMonths);
  const turns = subscription.remainingTurns === null || offer.useLimit === UNLIMITED ? null : subscription.remainingTurns + offer.useLimit;
  const [row] = await tx
    .update(subscriptions)
    .set({ endsAt, nextExtendAt: endsAt, status: 'ACTIVE', remainingTurns: turns, receiptId: input.receiptId ?? subscription.receiptId, updatedAt: input.now })
    .where(eq(subscriptions.id, subscription.id))
    .returning();
  if (row === undefined) throw new AppError('subscription.notFound');
  await stopLifecycle(tx, row.id);
  await scheduleLifecycle(tx, input.tenantId, row, input.now);
  await recordAudit(tx, input.tenantId, input.audit, {
    action: 'SUBSCRIPTION_EXTENDED',
    targetType: 'patient',
    targetId: input.patientId,
    details: { subscriptionId: row.id, code: offer.code, source: input.source, receiptId: row.receiptId, from: subscription.endsAt.toISOString(), to: endsAt.toISOString() },
    at: input.now,
  });
  return toSubscription({ subscription: row, package: offer });
}

/**
 * Cancels the patient's current package (CANCELED): it is back on the default package at once.
 * On the default already, nothing changes. Add-ons stay. Audited.
 */
export async function cancelSubscription(
  tx: TenantTransaction,
  input: { tenantId: string; patientId: string; audit: AuditContext; now: Date },
): Promise<void> {
  await tx.select({ id: patients.id }).from(patients).where(eq(patients.id, input.patientId)).limit(1).for('update');
  const current = (await currentSubscriptions(tx, input.patientId)).find((entry) => entry.subscription.kind === 'PACKAGE');
  // Already on the default package: nothing to cancel, nothing changes (a repeated cancel is harmless).
  if (current === undefined) return;
  await endSubscription(tx, current.subscription, 'CANCELED', input.now);
  const fallback = await defaultPackage(tx);
  await setPatientPackageCode(tx, input.patientId, fallback?.code ?? null, input.now);
  await recordAudit(tx, input.tenantId, input.audit, {
    action: 'SUBSCRIPTION_CANCELED',
    targetType: 'patient',
    targetId: input.patientId,
    details: { subscriptionId: current.subscription.id, code: current.package.code, backTo: fallback?.code ?? null },
    at: input.now,
  });
}


/**
 * The lifecycle jobs, each run once per subscription at its time (and safe to run again): 7 days
 * before the end an ACTIVE subscription becomes ABOUT_TO_EXPIRE and the patient is told; at the end
 * a current one becomes EXPIRED, the patient is back on the default package and is told. A
 * subscription changed or cancelled meanwhile is left alone (its jobs were cancelled with it).
 */
export async function runLifecycleStep(
  tx: TenantTransaction,
  tenantId: string,
  subscriptionId: string,
  step: 'expiring' | 'expired',
  now: Date,
): Promise<void> {
  const [entry] = await tx
    .select({ subscription: subscriptions, package: servicePackages })
    .from(subscriptions)
    .innerJoin(servicePackages, and(eq(servicePackages.tenantId, subscriptions.tenantId), eq(servicePackages.id, subscriptions.packageId)))
    .where(eq(subscriptions.id, subscriptionId))
    .limit(1)
    .for('update', { of: subscriptions });
  if (entry === undefined) return;
  const { subscription, package: offer } = entry;
  if (subscription.endsAt === null) return;
  const params = { packageName: offer.name, endsAt: subscription.endsAt.toISOString() };
  if (step === 'expiring') {
    if (subscription.status !== 'ACTIVE') return;
    await tx.update(subscriptions).set({ status: 'ABOUT_TO_EXPIRE', updatedAt: now }).where(eq(subscriptions.id, subscription.id));
    await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
      action: 'SUBSCRIPTION_EXPIRING',
      targetType: 'patient',
      targetId: subscription.patientId,
      details: { subscriptionId: subscription.id, code: offer.code, endsAt: params.endsAt },
      at: now,
    });
    await notifyPatient(tx, tenantId, subscription.patientId, { kind: 'subscription.expiring', params, link: '/subscription', at: now });
    return;
  }
  if (!(CURRENT as readonly string[]).includes(subscription.status) || subscription.endsAt > now) return;
  await tx
    .update(subscriptions)
    .set({ status: 'EXPIRED', endedAt: subscription.endsAt, updatedAt: now })
    .where(eq(subscriptions.id, subscription.id));
  if (subscription.kind === 'PACKAGE') {
    const fallback = await defaultPackage(tx);
    await setPatientPackageCode(tx, subscription.patientId, fallback?.code ?? null, now);
  }
  await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
    action: 'SUBSCRIPTION_EXPIRED',
    targetType: 'patient',
    targetId: subscription.patientId,
    details: { subscriptionId: subscription.id, code: offer.code },
    at: now,
  });
  await notifyPatient(tx, tenantId, subscription.patientId, { kind: 'subscription.expired', params, link: '/subscription', at: now });
}
