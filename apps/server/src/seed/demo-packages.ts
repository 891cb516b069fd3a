import { UNLIMITED, type PackageFeature } from '@rpm/contracts';
import { and, eq, notInArray } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { patients, servicePackages } from '../db/schema.js';
import { DAY } from '../lib/clock.js';
import { startSubscription } from '../modules/packages/subscriptions.js';
import type { DemoTenantData } from './demo.js';

/**
 * The spec's packages (§9 "Prices per month: Basic 6, 12 and 24 months at 14,000, 10,000 and 8,000
 * dong; Zero is free"), priced for their whole duration in dong (VND has no minor unit), and the
 * monthly mobile prices it also shows ("9.99 and 19.99 per month for silver and gold"), in US
 * dollars (cents).
 */
export const DEMO_PACKAGES = [
  { code: 'ZERO', name: 'Zero', level: 'STANDARD', plan: 'ZERO', priceMinor: 0, currency: 'VND', durationMonths: UNLIMITED },
  { code: 'BASIC6', name: 'Basic 6 months', level: 'STANDARD', plan: null, priceMinor: 6 * 14_000, currency: 'VND', durationMonths: 6 },
  { code: 'BASIC12', name: 'Basic 12 months', level: 'STANDARD', plan: '12MCARE', priceMinor: 12 * 10_000, currency: 'VND', durationMonths: 12 },
  { code: 'BASIC24', name: 'Basic 24 months', level: 'STANDARD', plan: '24MCARE', priceMinor: 24 * 8_000, currency: 'VND', durationMonths: 24 },
  { code: 'SILVER1', name: 'Silver monthly', level: 'SILVER', plan: null, priceMinor: 999, currency: 'USD', durationMonths: 1 },
  { code: 'GOLD1', name: 'Gold monthly', level: 'GOLD', plan: null, priceMinor: 1999, currency: 'USD', durationMonths: 1 },
] as const;

const ZERO_DESCRIPTION = 'Free: your readings, alerts, SOS and your care plan, with one follower of each type.';
const BASIC_DESCRIPTION =
  'Video consultations, readings from a photo, medical records and family sharing, for you and your sub-users. Needs a connected watch.';
/**
 * The care plan is in every package: a doctor's treatment is never behind a payment. Basic adds
 * the paid features the app has; no data export is listed, the app has none.
 */
const ZERO_FEATURES: PackageFeature[] = ['CARE_PLAN'];
const BASIC_FEATURES: PackageFeature[] = ['VIDEO_CONSULTATION', 'PHOTO_ENTRY', 'MEDICAL_RECORDS', 'FAMILY_SHARING', 'CARE_PLAN'];

/**
 * The demo's offer: Zero (the default) and Basic for 6, 12 and 24 months. Three in four patients
 * with a watch are on Basic (12, 24 or 6 months by turn, the demo patient Hung Pham,
 * patient@demo.example, on 12), put there by the demo admin; everyone else (every fourth watch
 * wearer, the patients without a watch, the demo's relative, relative@demo.example, and the
 * sub-user) is on Zero and sees the upgrade notices.
 */
export async function seedDemoPackages(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  const { tenantId } = data;
  const now = new Date();
  const created = new Date(now.getTime() - 120 * DAY);
  const rows = DEMO_PACKAGES.map((offer) => {
    const isZero = offer.plan === 'ZERO';
    return {
      tenantId,
      id: uuidv7(),
      code: offer.code,
      kind: 'PACKAGE',
      name: offer.name,
      level: offer.level,
      plan: offer.plan,
      priceMinor: offer.priceMinor,
      currency: offer.currency,
      durationMonths: offer.durationMonths,
      // Zero: the first follower of each type, no sub-users, no paid feature (docs/decisions.md).
      followerLimit: isZero ? 1 : UNLIMITED,
      subUserLimit: isZero ? 0 : UNLIMITED,
      userFeatures: isZero ? ZERO_FEATURES : BASIC_FEATURES,
      relativeFeatures: isZero ? ZERO_FEATURES : BASIC_FEATURES,
      description: isZero ? ZERO_DESCRIPTION : BASIC_DESCRIPTION,
      isDefault: isZero,
      createdBy: data.staff.ADMIN ?? null,
      createdAt: created,
      updatedAt: created,
    };
  });
  await tx.insert(servicePackages).values(rows);
  const byCode = new Map(rows.map((row) => [row.code, row]));

  const withWatch = new Set(data.devices.map((device) => device.patientId));
  const subscribed: string[] = [];
  const audit = { actorUserId: data.staff.ADMIN ?? null, actorTenantId: tenantId, ip: null, userAgent: null, requestId: null };
  for (const [index, patient] of data.patients.entries()) {
    // Paid packages need a watch (spec §6); the records that named a 12- or 24-month plan
    // (demo-patients.ts) keep it.
    const code = (['BASIC12', 'BASIC24', 'BASIC6'] as const)[index % 4];
    const offer = code === undefined ? undefined : byCode.get(code);
    if (offer === undefined || !withWatch.has(patient.id)) continue;
    const startedAt = new Date(now.getTime() - (10 + (index % 5) * 20) * DAY);
    const subscription = await startSubscription(tx, {
      tenantId,
      patientId: patient.id,
      packageId: offer.id,
      source: 'STAFF',
      receiptId: `DEMO-${patient.patientCode}`,
      actorId: data.staff.ADMIN ?? null,
      audit,
      now: startedAt,
    });
    subscribed.push(patient.id);
    await tx
      .update(patients)
      .set({ packageExpiresAt: subscription?.endsAt?.slice(0, 10) ?? null })
      .where(and(eq(patients.tenantId, tenantId), eq(patients.id, patient.id)));
  }
  // Everyone else is on the default package.
  await tx
    .update(patients)
    .set({ packageCode: 'ZERO', packageExpiresAt: null })
    .where(and(eq(patients.tenantId, tenantId), notInArray(patients.id, subscribed)));
}
