import { sql } from 'drizzle-orm';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestDatabase, databaseErrorOf, type TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../test/factories.js';
import type { CenterVisibility, TenantTransaction } from './database.js';

/**
 * The care plan's tables (migration 0038) at the SQL level, in transactions set up as withCaller
 * sets them: staff of the patient's center read and write, staff of another center see nothing; a
 * patient reads its own prescriptions (and a holder its sub-user's), answers its doses and writes
 * nothing else (spec §6); a follower sees none of it; the §5 rules the database can hold (dose,
 * on-demand without a schedule, start not after end) and permanent deactivation hold whatever a
 * service does.
 */

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

const phone = () =>
  `09${String(parseInt(randomBytes(4).toString('hex'), 16))
    .padStart(8, '0')
    .slice(0, 8)}`;
const SCHEDULE = {
  times: [{ label: 'Morning', time: '08:00' }],
  repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
  startDate: '2026-12-01',
  endDate: null,
};

async function world() {
  const { database, ownerUrl } = testDb;
  const tenant = await createTenant(database);
  const centerA = await createHealthCenter(database, tenant.id);
  const centerB = await createHealthCenter(database, tenant.id);
  const doctor = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerA.id });
  const patientUser = await createTenantUser(database, tenant.id, {
    role: 'PATIENT',
    healthCenterId: centerA.id,
  });
  const followerUser = await createTenantUser(database, tenant.id, {
    role: 'PATIENT',
    healthCenterId: centerA.id,
  });
  const holderUser = await createTenantUser(database, tenant.id, {
    role: 'PATIENT',
    healthCenterId: centerA.id,
  });
  const patient = await createPatient(database, tenant.id, {
    healthCenterId: centerA.id,
    userId: patientUser.id,
    phone: phone(),
  });
  await createPatient(database, tenant.id, {
    healthCenterId: centerA.id,
    userId: followerUser.id,
    phone: phone(),
  });
  await createPatient(database, tenant.id, {
    healthCenterId: centerA.id,
    userId: holderUser.id,
    phone: phone(),
  });
  const subUser = await createPatient(database, tenant.id, {
    healthCenterId: centerA.id,
    accountKind: 'SUB_USER',
    holderUserId: holderUser.id,
    relation: 'PARENT',
  });
  const owner = (text: string, values: unknown[] = []) => asOwner(ownerUrl, text, values);
  await owner(
    `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status, follower_user_id, confirmed_at)
     VALUES ($1, $2, $3, 'CARING', 'Lan', $4, 'FRIEND', 'CONFIRMED', $5, now())`,
    [tenant.id, randomUUID(), patient.id, phone(), followerUser.id],
  );
  const as = <T>(visibility: CenterVisibility, work: (tx: TenantTransaction) => Promise<T>) =>
    database.withTenant(tenant.id, work, visibility);
  const staffA: CenterVisibility = { centerIds: [centerA.id] };

  /** A prescription with one medicine and one dose due, written as the doctor's service would. */
  const prescribe = async (patientId: string, visibility: CenterVisibility = staffA) => {
    const ids = { prescription: randomUUID(), medicine: randomUUID(), intake: randomUUID() };
    await as(visibility, async (tx) => {
      await tx.execute(sql`
        INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, created_by, created_at)
        VALUES (${tenant.id}, ${ids.prescription}, ${patientId}, 'Diabetes', ${doctor.id}, '2026-12-01', '2026-12-31', ${doctor.id}, now())`);
      await tx.execute(sql`
        INSERT INTO prescription_medicines (tenant_id, id, prescription_id, patient_id, position, name, dose, dose_unit, route, form, frequency_cycle, meal, mode, schedule)
        VALUES (${tenant.id}, ${ids.medicine}, ${ids.prescription}, ${patientId}, 0, 'Metformin', 1.5, 'PILL', 'ORAL', 'TABLET', 'DAY', 'AFTER_MEAL', 'ON_SCHEDULE', ${JSON.stringify(SCHEDULE)}::jsonb)`);
      await tx.execute(sql`
        INSERT INTO medication_intakes (tenant_id, id, patient_id, medicine_id, due_at, local_date, local_time, label)
        VALUES (${tenant.id}, ${ids.intake}, ${patientId}, ${ids.medicine}, '2026-12-01T01:00:00Z', '2026-12-01', '08:00', 'Morning')`);
    });
    return ids;
  };
  /** How many rows of each table a caller sees for a patient. */
  const seen = (visibility: CenterVisibility, patientId: string) =>
    as(visibility, async (tx) => {
      const counts: Record<string, number> = {};
      for (const table of ['prescriptions', 'prescription_medicines', 'medication_intakes']) {
        const result = await tx.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE patient_id = ${patientId}`,
        );
        counts[table] = result.rows[0]?.n ?? -1;
      }
      return counts;
    });
  return {
    tenant,
    centerA,
    centerB,
    doctor,
    patientUser,
    followerUser,
    holderUser,
    patient,
    subUser,
    owner,
    as,
    staffA,
    prescribe,
    seen,
  };
}

/** The database error a statement fails with, or undefined when it succeeds. */
const failureOf = (promise: Promise<unknown>) =>
  databaseErrorOf(promise).catch((error: unknown) => {
    if (error instanceof Error && error.message.startsWith('expected the statement to fail'))
      return undefined;
    throw error;
  });

const ALL = { prescriptions: 1, prescription_medicines: 1, medication_intakes: 1 };
const NONE = { prescriptions: 0, prescription_medicines: 0, medication_intakes: 0 };

describe('the care plan under the patient access rule', () => {
  it('shows a prescription to its center’s staff, the patient and the holder of a sub-user; not to another center or a follower', async () => {
    const w = await world();
    await w.prescribe(w.patient.id);
    await w.prescribe(w.subUser.id);
    expect(await w.seen(w.staffA, w.patient.id)).toEqual(ALL);
    expect(await w.seen({ centerIds: [w.centerB.id] }, w.patient.id)).toEqual(NONE);
    expect(await w.seen({ ownRecordsOf: w.patientUser.id }, w.patient.id)).toEqual(ALL);
    expect(await w.seen({ ownRecordsOf: w.holderUser.id }, w.subUser.id)).toEqual(ALL);
    expect(await w.seen({ ownRecordsOf: w.holderUser.id }, w.patient.id)).toEqual(NONE);
    // The follower sees the patient (migration 0037) but none of its treatment.
    const followed = await w.as({ ownRecordsOf: w.followerUser.id }, (tx) =>
      tx.execute(sql`SELECT id FROM patients WHERE id = ${w.patient.id}`),
    );
    expect(followed.rows).toHaveLength(1);
    expect(await w.seen({ ownRecordsOf: w.followerUser.id }, w.patient.id)).toEqual(NONE);
  });

  it('lets a patient answer its doses but never write a prescription or a medicine, nor make or remove a dose', async () => {
    const w = await world();
    const ids = await w.prescribe(w.patient.id);
    const asPatient = { ownRecordsOf: w.patientUser.id };
    const answered = await w.as(asPatient, (tx) =>
      tx.execute(
        sql`UPDATE medication_intakes SET state = 'TAKEN', answered_at = now(), answered_by = ${w.patientUser.id} WHERE id = ${ids.intake}`,
      ),
    );
    expect(answered.rowCount).toBe(1);
    // Updates and deletes of a prescription or a medicine match no row for a patient session.
    const renamed = await w.as(asPatient, (tx) =>
      tx.execute(sql`UPDATE prescriptions SET name = 'Mine now' WHERE id = ${ids.prescription}`),
    );
    expect(renamed.rowCount).toBe(0);
    const dose = await w.as(asPatient, (tx) =>
      tx.execute(sql`UPDATE prescription_medicines SET dose = 3 WHERE id = ${ids.medicine}`),
    );
    expect(dose.rowCount).toBe(0);
    const removed = await w.as(asPatient, (tx) =>
      tx.execute(sql`DELETE FROM medication_intakes WHERE id = ${ids.intake}`),
    );
    expect(removed.rowCount).toBe(0);
    // Inserting one is refused outright.
    const error = await databaseErrorOf(
      w.as(asPatient, (tx) =>
        tx.execute(sql`
          INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, created_by, created_at)
          VALUES (${w.tenant.id}, ${randomUUID()}, ${w.patient.id}, 'Self-prescribed', ${w.doctor.id}, '2026-12-01', '2026-12-31', ${w.patientUser.id}, now())`),
      ),
    );
    expect(error.code).toBe('42501');
    expect(await w.owner('SELECT name FROM prescriptions WHERE patient_id = $1', [w.patient.id])).toEqual([
      { name: 'Diabetes' },
    ]);
    // A follower answers nothing for the patient.
    const byFollower = await w.as({ ownRecordsOf: w.followerUser.id }, (tx) =>
      tx.execute(
        sql`UPDATE medication_intakes SET state = 'SKIPPED', answered_at = now() WHERE id = ${ids.intake}`,
      ),
    );
    expect(byFollower.rowCount).toBe(0);
  });

  it('keeps a deactivated prescription as it was, and an edit is a successor that names it', async () => {
    const w = await world();
    const ids = await w.prescribe(w.patient.id);
    await w.as(w.staffA, (tx) =>
      tx.execute(
        sql`UPDATE prescriptions SET deactivated_at = now(), deactivated_by = ${w.doctor.id} WHERE id = ${ids.prescription}`,
      ),
    );
    const reopened = await databaseErrorOf(
      w.as(w.staffA, (tx) =>
        tx.execute(
          sql`UPDATE prescriptions SET deactivated_at = NULL, deactivated_by = NULL WHERE id = ${ids.prescription}`,
        ),
      ),
    );
    expect(reopened.code).toBe('23514');
    const successor = randomUUID();
    await w.as(w.staffA, (tx) =>
      tx.execute(sql`
        INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, replaces_id, created_by, created_at)
        VALUES (${w.tenant.id}, ${successor}, ${w.patient.id}, 'Diabetes (dose changed)', ${w.doctor.id}, '2026-12-10', '2026-12-31', ${ids.prescription}, ${w.doctor.id}, now())`),
    );
    // One successor only: a second edit of the same prescription is refused.
    const second = await databaseErrorOf(
      w.as(w.staffA, (tx) =>
        tx.execute(sql`
          INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, replaces_id, created_by, created_at)
          VALUES (${w.tenant.id}, ${randomUUID()}, ${w.patient.id}, 'Again', ${w.doctor.id}, '2026-12-10', '2026-12-31', ${ids.prescription}, ${w.doctor.id}, now())`),
      ),
    );
    expect(second.code).toBe('23505');
    // An active prescription is not edited in place either.
    const inPlace = await databaseErrorOf(
      w.as(w.staffA, (tx) => tx.execute(sql`UPDATE prescriptions SET refills = 2 WHERE id = ${successor}`)),
    );
    expect(inPlace.code).toBe('23514');
  });

  it('holds the §5 rules the database can: dose steps, no schedule on demand, one on schedule, start not after end', async () => {
    const w = await world();
    const ids = await w.prescribe(w.patient.id);
    const medicine = (dose: string, mode: string, schedule: string | null) =>
      failureOf(
        w.as(w.staffA, (tx) =>
          tx.execute(sql`
            INSERT INTO prescription_medicines (tenant_id, id, prescription_id, patient_id, position, name, dose, dose_unit, route, form, frequency_cycle, meal, mode, schedule)
            VALUES (${w.tenant.id}, ${randomUUID()}, ${ids.prescription}, ${w.patient.id}, ${Math.floor(Math.random() * 30_000) + 1}, 'Aspirin', ${dose}::numeric, 'PILL', 'ORAL', 'TABLET', 'DAY', 'ANYTIME', ${mode}, ${schedule}::jsonb)`),
        ),
      );
    const onSchedule = JSON.stringify(SCHEDULE);
    for (const dose of ['0', '-1', '300.125', '0.3', '2.9'])
      expect((await medicine(dose, 'ON_SCHEDULE', onSchedule))?.code, dose).toBe('23514');
    for (const dose of ['0.125', '2.33', '300'])
      expect(await medicine(dose, 'ON_SCHEDULE', onSchedule), dose).toBeUndefined();
    expect((await medicine('1', 'ON_DEMAND', onSchedule))?.code).toBe('23514');
    expect((await medicine('1', 'ON_SCHEDULE', null))?.code).toBe('23514');
    expect((await medicine('1', 'ON_SCHEDULE', JSON.stringify({ ...SCHEDULE, times: [] })))?.code).toBe(
      '23514',
    );
    expect(await medicine('1', 'ON_DEMAND', null)).toBeUndefined();
    const backwards = await databaseErrorOf(
      w.as(w.staffA, (tx) =>
        tx.execute(sql`
          INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, created_by, created_at)
          VALUES (${w.tenant.id}, ${randomUUID()}, ${w.patient.id}, 'Backwards', ${w.doctor.id}, '2027-01-01', '2026-12-31', ${w.doctor.id}, now())`),
      ),
    );
    expect(backwards.code).toBe('23514');
  });

  it('goes with the patient: deleting the record removes its prescriptions, medicines and doses', async () => {
    const w = await world();
    await w.prescribe(w.patient.id);
    await w.owner('DELETE FROM patients WHERE id = $1', [w.patient.id]);
    for (const table of ['prescriptions', 'prescription_medicines', 'medication_intakes']) {
      expect(await w.owner(`SELECT 1 FROM ${table} WHERE patient_id = $1`, [w.patient.id]), table).toEqual(
        [],
      );
    }
  });
});
