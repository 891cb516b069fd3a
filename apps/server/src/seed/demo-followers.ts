import { and, eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { patientCodeSequences, patientContacts, patients, users } from '../db/schema.js';
import { systemClock } from '../lib/clock.js';
import type { DemoTenantData } from './demo.js';

/** The demo's follower: an app account of its own that follows the demo patient. */
export const DEMO_RELATIVE_EMAIL = 'relative@demo.example';

/**
 * The people around the demo patient (Hung Pham, `patient@demo.example`): a second patient of the
 * tenant signs in as `relative@demo.example` and follows Hung (a confirmed invitation, so Hung
 * appears under its "My patients"), and Hung holds a sub-user profile for his daughter Linh.
 */
export async function seedDemoFollowers(tx: TenantTransaction, data: DemoTenantData, passwordHash: string): Promise<void> {
  const { tenantId } = data;
  // BNCS10036: a patient in a normal state without a watch, whom no other demo data singles out.
  const [hung] = data.patients;
  const relativeRecord = data.patients[35];
  if (hung?.userId == null || relativeRecord === undefined) return;
  const now = systemClock.now();

  const [relativeRow] = await tx
    .select({ firstName: patients.firstName, lastName: patients.lastName, phone: patients.phone })
    .from(patients)
    .where(and(eq(patients.tenantId, tenantId), eq(patients.id, relativeRecord.id)));
  if (relativeRow?.phone == null) return;
  const relativeUserId = uuidv7();
  await tx.insert(users).values({
    tenantId,
    id: relativeUserId,
    email: DEMO_RELATIVE_EMAIL,
    phone: relativeRow.phone,
    firstName: relativeRow.firstName,
    lastName: relativeRow.lastName,
    role: 'PATIENT',
    passwordHash,
    healthCenterId: relativeRecord.healthCenterId,
  });
  await tx
    .update(patients)
    .set({ userId: relativeUserId })
    .where(and(eq(patients.tenantId, tenantId), eq(patients.id, relativeRecord.id)));

  await tx.insert(patientContacts).values({
    tenantId,
    id: uuidv7(),
    patientId: hung.id,
    contactType: 'CARING',
    name: relativeRow.firstName,
    phone: relativeRow.phone,
    relationship: 'YOUNGER_SIBLING',
    invitationStatus: 'CONFIRMED',
    favourite: true,
    followerUserId: relativeUserId,
    invitedBy: hung.userId,
    lastSentAt: now,
    confirmedAt: now,
    createdAt: now,
    updatedAt: now,
  });

  // Hung's daughter, a sub-user he enters data for: no login of her own, never SOS.
  const [sequence] = await tx
    .select({ prefix: patientCodeSequences.prefix, nextValue: patientCodeSequences.nextValue })
    .from(patientCodeSequences)
    .where(eq(patientCodeSequences.tenantId, tenantId));
  if (sequence === undefined) return;
  await tx.insert(patients).values({
    tenantId,
    id: uuidv7(),
    patientCode: `${sequence.prefix}${String(sequence.nextValue)}`,
    firstName: 'Linh',
    lastName: 'Pham',
    birthday: '2016-04-12',
    gender: 'FEMALE',
    healthCenterId: hung.healthCenterId,
    accountKind: 'SUB_USER',
    holderUserId: hung.userId,
    relation: 'CHILD',
    smoking: false,
    createdAt: new Date(now.getTime() - 30 * 24 * 3_600_000),
  });
  await tx
    .update(patientCodeSequences)
    .set({ nextValue: sequence.nextValue + 1 })
    .where(eq(patientCodeSequences.tenantId, tenantId));
}
