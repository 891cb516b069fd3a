import { WEIGHT_RECORDS_SHOWN, type SportSessionInput } from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { patients, sportRecords, users, weightGoals } from '../../db/schema.js';

export type SportRow = typeof sportRecords.$inferSelect;
type SessionValues = Required<{ [K in keyof SportSessionInput]: Exclude<SportSessionInput[K], undefined> }>;

/**
 * Stores a session tracked in the app; nothing when its clientId (or a record of the same sport
 * and start) is already stored. Returns whether a row was added.
 */
export async function insertSession(
  tx: TenantTransaction,
  target: { tenantId: string; patientId: string; receivedAt: Date },
  input: SessionValues,
): Promise<boolean> {
  const added = await tx
    .insert(sportRecords)
    .values({
      tenantId: target.tenantId,
      patientId: target.patientId,
      id: uuidv7(),
      clientId: input.clientId,
      sport: input.sport,
      startAt: new Date(input.startAt),
      practiceSeconds: input.practiceSeconds,
      steps: input.steps,
      strideCm: input.strideCm,
      tempo: input.tempo,
      speedKmh: input.speedKmh,
      heightM: input.heightM,
      calories: input.calories,
      distanceM: input.distanceM,
      distanceSource: input.distanceSource,
      receivedAt: target.receivedAt,
    })
    .onConflictDoNothing()
    .returning({ id: sportRecords.id });
  return added.length > 0;
}

/** The stored record of a session: by the app's id, else the one of the same sport and start. */
export async function findSavedSession(
  tx: TenantTransaction,
  key: { tenantId: string; patientId: string; clientId: string; sport: string; startAt: Date },
): Promise<SportRow | undefined> {
  const mine = and(eq(sportRecords.tenantId, key.tenantId), eq(sportRecords.patientId, key.patientId));
  const [byClient] = await tx.select().from(sportRecords).where(and(mine, eq(sportRecords.clientId, key.clientId)));
  if (byClient !== undefined) return byClient;
  const [byStart] = await tx
    .select()
    .from(sportRecords)
    .where(and(mine, eq(sportRecords.sport, key.sport), eq(sportRecords.startAt, key.startAt)));
  return byStart;
}

export async function findSession(tx: TenantTransaction, tenantId: string, patientId: string, id: string) {
  const [row] = await tx
    .select()
    .from(sportRecords)
    .where(and(eq(sportRecords.tenantId, tenantId), eq(sportRecords.patientId, patientId), eq(sportRecords.id, id)));
  return row;
}

/** The newest weights (kg), newest first. */
export async function recentWeights(tx: TenantTransaction, tenantId: string, patientId: string) {
  const result = await tx.execute<{ value: number; measured_at: string; source: string }>(sql`
    SELECT value, to_char(measured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS measured_at, source
      FROM latest_patient_readings(${tenantId}::uuid, ${patientId}::uuid, 'WEIGHT', ${WEIGHT_RECORDS_SHOWN})
     ORDER BY measured_at DESC, source`);
  return result.rows;
}

/** The height to compute a BMI with: the patient record's, else the account's, else the latest HEIGHT reading. */
export async function heightOf(
  tx: TenantTransaction,
  patient: { tenantId: string; id: string; userId: string | null },
  /** Where the patient's readings are (a DEDICATED tenant's vitals database), when not in `tx`. */
  readings: TenantTransaction = tx,
) {
  const [record] = await tx
    .select({ heightCm: patients.heightCm })
    .from(patients)
    .where(and(eq(patients.tenantId, patient.tenantId), eq(patients.id, patient.id)));
  if (record?.heightCm != null) return record.heightCm;
  if (patient.userId !== null) {
    const [account] = await tx
      .select({ heightCm: users.heightCm })
      .from(users)
      .where(and(eq(users.tenantId, patient.tenantId), eq(users.id, patient.userId)));
    if (account?.heightCm != null) return account.heightCm;
  }
  const result = await readings.execute<{ value: number }>(sql`
    SELECT value FROM latest_patient_readings(${patient.tenantId}::uuid, ${patient.id}::uuid, 'HEIGHT', 1)`);
  return result.rows[0]?.value ?? null;
}

export async function findWeightGoal(tx: TenantTransaction, tenantId: string, patientId: string) {
  const [row] = await tx
    .select()
    .from(weightGoals)
    .where(and(eq(weightGoals.tenantId, tenantId), eq(weightGoals.patientId, patientId)));
  return row;
}

/** Sets (or replaces) the patient's goal. */
export async function upsertWeightGoal(tx: TenantTransaction, goal: typeof weightGoals.$inferInsert) {
  await tx
    .insert(weightGoals)
    .values(goal)
    .onConflictDoUpdate({
      target: [weightGoals.tenantId, weightGoals.patientId],
      set: { goalKg: goal.goalKg, startKg: goal.startKg, setAt: goal.setAt, setBy: goal.setBy },
    });
}
