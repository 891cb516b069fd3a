import type { Entitlements, ServicePackage, SubscribeInput, Subscription } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { patients } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import { enabledPackages, type PackageEnvironment } from './catalogue.js';
import { cancelSubscription, entitlementsOf, startSubscription, subscriptionHistory } from './subscriptions.js';

/** A patient's package as the console and the app show it: what it may use now and what it had. */
export interface PatientSubscriptions {
  entitlements: Entitlements;
  history: Subscription[];
}

/** A patient the caller sees (another center's or tenant's: patient.notFound). */
async function visiblePatient(tx: TenantTransaction, patientId: string): Promise<void> {
  const [row] = await tx.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).limit(1);
  if (row === undefined) throw new AppError('patient.notFound');
}

async function subscriptionsOf(environment: PackageEnvironment, tx: TenantTransaction, patientId: string): Promise<PatientSubscriptions> {
  const result = { entitlements: await entitlementsOf(tx, patientId), history: await subscriptionHistory(tx, patientId) };
  await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
    action: 'SUBSCRIPTIONS_VIEWED',
    targetType: 'patient',
    targetId: patientId,
    patientIds: [patientId],
  });
  return result;
}

/** GET /account/patients/:id/subscriptions: audited (SUBSCRIPTIONS_VIEWED). */
export function readPatientSubscriptions(environment: PackageEnvironment, patientId: string): Promise<PatientSubscriptions> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    await visiblePatient(tx, patientId);
    return subscriptionsOf(environment, tx, patientId);
  });
}

/** POST /account/patients/:id/subscription: staff put the patient on a package (paid at the center). */
export function subscribePatient(environment: PackageEnvironment, patientId: string, input: SubscribeInput): Promise<PatientSubscriptions> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    await visiblePatient(tx, patientId);
    await startSubscription(tx, {
      tenantId: auth.tenantId,
      patientId,
      packageId: input.packageId,
      source: 'STAFF',
      receiptId: input.receiptId,
      actorId: auth.userId,
      audit: environment.audit,
      now: environment.clock.now(),
    });
    return subscriptionsOf(environment, tx, patientId);
  });
}

/** DELETE /account/patients/:id/subscription: back to the default package. */
export function cancelPatientSubscription(environment: PackageEnvironment, patientId: string): Promise<PatientSubscriptions> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    await visiblePatient(tx, patientId);
    await cancelSubscription(tx, { tenantId: auth.tenantId, patientId, audit: environment.audit, now: environment.clock.now() });
    return subscriptionsOf(environment, tx, patientId);
  });
}

/** Patient sessions only: staff have no package of their own. */
function requirePatientSession(environment: PackageEnvironment): void {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
}

/**
 * The profile the app's call is about: own record or a sub-user held. What a followed patient pays
 * for is its own business (profile.readOnly, as for every change through a followed profile).
 */
async function payingProfile(environment: PackageEnvironment, tx: TenantTransaction): Promise<string> {
  const profile = await requireProfile(tx, environment.auth);
  assertProfileWritable(profile);
  return profile.patientId;
}

/**
 * GET /health/me/subscription. Audited. What a followed patient pays for is its own business: a
 * follower reads nothing of it (no package, no features, no history), as with its reviews.
 */
export function readMySubscription(environment: PackageEnvironment): Promise<PatientSubscriptions> {
  requirePatientSession(environment);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    if (profile.kind === 'FOLLOWED') return { entitlements: NOTHING_SHOWN, history: [] };
    return subscriptionsOf(environment, tx, profile.patientId);
  });
}

const NOTHING_SHOWN: Entitlements = {
  packagesEnabled: false,
  package: null,
  subscription: null,
  addons: [],
  features: [],
  relativeFeatures: [],
  followerLimit: 0,
  subUserLimit: 0,
  storageCount: 0,
  hasWearable: false,
};

/** POST /health/me/subscription/cancel: back to the default package. */
export function cancelMySubscription(environment: PackageEnvironment): Promise<PatientSubscriptions> {
  requirePatientSession(environment);
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const patientId = await payingProfile(environment, tx);
    await cancelSubscription(tx, { tenantId: auth.tenantId, patientId, audit: environment.audit, now: environment.clock.now() });
    return subscriptionsOf(environment, tx, patientId);
  });
}

/** GET /health/me/packages: the enabled offer (packages by price, then add-ons). */
export function listOffer(environment: PackageEnvironment): Promise<ServicePackage[]> {
  requirePatientSession(environment);
  return withCaller(environment.database, environment.auth, (tx) => enabledPackages(tx));
}
