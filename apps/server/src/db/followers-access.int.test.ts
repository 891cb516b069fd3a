import { FOLLOWER_EVENT_TYPES, LIVE_EVENT_TYPES, MEASURE_CODES, MEASURE_DATA_KIND } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestDatabase, databaseErrorOf, type TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../test/factories.js';
import { insertReadings } from '../modules/vitals/ingest-store.js';
import { ALL_CENTERS, type CenterVisibility, type TenantTransaction } from './database.js';

/**
 * The patient access rule of migration 0037 at the SQL level, in transactions set up exactly as
 * withCaller sets them for a patient session (app.subject 'patient', app.user_id) and for staff:
 * a follower (a CONFIRMED contact with its account) sees the followed patient's record, health
 * data of the kinds not hidden from it, alerts and SOS cases, and nothing private; a holder sees
 * and writes its sub-user's data as its own; staff see as before.
 */

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

const phone = () => `09${String(parseInt(randomBytes(4).toString('hex'), 16)).padStart(8, '0').slice(0, 8)}`;
const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

/** A tenant with a followed patient, its follower, a stranger, a holder with a sub-user and staff. */
async function world() {
  const { database, ownerUrl } = testDb;
  const tenant = await createTenant(database);
  const centerA = await createHealthCenter(database, tenant.id);
  const centerB = await createHealthCenter(database, tenant.id);
  const patientUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA.id });
  const followerUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA.id });
  const otherFollowerUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA.id });
  const strangerUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA.id });
  const holderUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerB.id });
  const doctorA = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerA.id });
  const patient = await createPatient(database, tenant.id, { healthCenterId: centerA.id, userId: patientUser.id, phone: phone() });
  const followerRecord = await createPatient(database, tenant.id, { healthCenterId: centerA.id, userId: followerUser.id, phone: phone() });
  const stranger = await createPatient(database, tenant.id, { healthCenterId: centerA.id, userId: strangerUser.id, phone: phone() });
  const holderRecord = await createPatient(database, tenant.id, { healthCenterId: centerB.id, userId: holderUser.id, phone: phone() });
  const subUser = await createPatient(database, tenant.id, { healthCenterId: centerB.id, accountKind: 'SUB_USER', holderUserId: holderUser.id, relation: 'PARENT' });

  const owner = (text: string, values: unknown[] = []) => asOwner(ownerUrl, text, values);
  const t = tenant.id;
  // The followed patient's data, one row of each kind.
  for (const [id, measure] of [[patient.id, 'HEART_RATE'], [patient.id, 'SPO2'], [patient.id, 'STEPS'], [stranger.id, 'HEART_RATE'], [subUser.id, 'HEART_RATE']] as const) {
    await owner(`INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source) VALUES ($1, $2, $3, $4, 80, 'WIRELESS_DEVICE')`, [t, id, measure, hourAgo()]);
    for (const table of ['readings_hourly', 'readings_daily']) {
      await owner(
        `INSERT INTO ${table} (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at) VALUES ($1, $2, $3, date_trunc('hour', now()) - interval '2 hours', 1, 80, 80, 80, 80, now())`,
        [t, id, measure],
      );
    }
  }
  await owner(
    `INSERT INTO ecg_records (tenant_id, id, patient_id, measured_at, duration_seconds, sample_rate, samples, source) VALUES ($1, $2, $3, now(), 1, 250, decode(repeat('00', 10), 'hex'), 'WIRELESS_DEVICE')`,
    [t, randomUUID(), patient.id],
  );
  await owner(
    `INSERT INTO sleep_records (tenant_id, id, patient_id, start_at, end_at, total_minutes, deep_minutes, light_minutes, rem_minutes, wake_count) VALUES ($1, $2, $3, now() - interval '8 hours', now(), 480, 100, 300, 80, 1)`,
    [t, randomUUID(), patient.id],
  );
  await owner(`INSERT INTO sport_records (tenant_id, id, patient_id, sport, start_at, practice_seconds) VALUES ($1, $2, $3, 'WALK', now() - interval '1 hour', 600)`, [t, randomUUID(), patient.id]);
  await owner(`INSERT INTO weight_goals (tenant_id, patient_id, goal_kg, set_at, set_by) VALUES ($1, $2, 60, now(), $3)`, [t, patient.id, patientUser.id]);
  await owner(`INSERT INTO alerts (tenant_id, id, patient_id, type, level, source, created_at) VALUES ($1, $2, $3, 'HEART_RATE', 'AT_RISK', 'READING', now())`, [t, randomUUID(), patient.id]);
  const sosCaseId = randomUUID();
  await owner(`INSERT INTO sos_cases (tenant_id, id, patient_id, reason, source, opened_at, kpi_due_at) VALUES ($1, $2, $3, 'Fall', 'FALL', now(), now() + interval '1 hour')`, [t, sosCaseId, patient.id]);
  await owner(
    `INSERT INTO tickets (tenant_id, id, number, type, title, patient_id, kpi_due_at, created_at) VALUES ($1, $2, 900001, 'SUPPORT', 'Call back', $3, now() + interval '1 hour', now())`,
    [t, randomUUID(), patient.id],
  );
  const recordId = randomUUID();
  await owner(`INSERT INTO medical_records (tenant_id, id, patient_id, title, record_type, examined_on, created_at, updated_at) VALUES ($1, $2, $3, 'Scan', 'RESULT_CARD', current_date, now(), now())`, [t, recordId, patient.id]);
  await owner(`INSERT INTO patient_files (tenant_id, id, patient_id, record_id, name, content_type, size_bytes, storage_key) VALUES ($1, $2, $3, $4, 'scan.png', 'image/png', 10, 'k')`, [t, randomUUID(), patient.id, recordId]);
  await owner(`INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, $2, 'V19', $3, $4, $5)`, [
    t,
    randomUUID(),
    `S${randomBytes(4).toString('hex')}`,
    randomBytes(6).toString('hex').toUpperCase().match(/../g)?.join(':'),
    patient.id,
  ]);
  await owner(`INSERT INTO patient_thresholds (tenant_id, patient_id, metric, level) VALUES ($1, $2, 'HEART_RATE', 'AT_RISK')`, [t, patient.id]);
  await owner(`INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`, [t, patient.id, doctorA.id]);
  for (const type of LIVE_EVENT_TYPES) {
    await owner(`INSERT INTO events (tenant_id, type, patient_id, health_center_id, payload) VALUES ($1, $2, $3, $4, '{}')`, [t, type, patient.id, centerA.id]);
  }

  // The contacts: the follower (SpO2 and ECG hidden from it), another follower, a pending invitation.
  const contact = async (patientId: string, status: 'SENT' | 'CONFIRMED' | 'DELETED', followerUserId: string | null, hiddenKinds: string[] = []) => {
    const id = randomUUID();
    await owner(
      `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status, follower_user_id, confirmed_at, deleted_at, hidden_kinds)
       VALUES ($1, $2, $3, 'CARING', 'Lan', $4, 'FRIEND', $5, $6, CASE WHEN $6::uuid IS NULL THEN NULL ELSE now() END, CASE WHEN $5 = 'DELETED' THEN now() END, $7)`,
      [t, id, patientId, phone(), status, followerUserId, hiddenKinds],
    );
    return id;
  };
  const followerContact = await contact(patient.id, 'CONFIRMED', followerUser.id, ['SPO2', 'ECG']);
  const otherFollowerContact = await contact(patient.id, 'CONFIRMED', otherFollowerUser.id);
  const invitation = await contact(patient.id, 'SENT', null);

  const as = <T>(visibility: CenterVisibility, work: (tx: TenantTransaction) => Promise<T>) => database.withTenant(t, work, visibility);
  const ids = async (visibility: CenterVisibility, query: ReturnType<typeof sql>) =>
    as(visibility, async (tx) => (await tx.execute<{ v: string }>(query)).rows.map((row) => row.v).sort());
  return {
    tenant, centerA, centerB, patient, patientUser, followerUser, otherFollowerUser, strangerUser, holderUser, doctorA, followerRecord, stranger,
    holderRecord, subUser, sosCaseId, followerContact, otherFollowerContact, invitation, contact, owner, as, ids,
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** Everything of one patient a caller sees, table by table (readings: their measures). */
async function seenOf(w: World, visibility: CenterVisibility, patientId: string) {
  const count = async (table: string) => {
    const [row] = await w.ids(visibility, sql`SELECT count(*)::text AS v FROM ${sql.identifier(table)} WHERE patient_id = ${patientId}`);
    return Number(row);
  };
  const measures = (table: string) => w.ids(visibility, sql`SELECT DISTINCT measure AS v FROM ${sql.identifier(table)} WHERE patient_id = ${patientId}`);
  const tables = ['ecg_records', 'sleep_records', 'sport_records', 'weight_goals', 'alerts', 'sos_cases', 'tickets', 'medical_records', 'patient_files', 'devices', 'patient_thresholds', 'patient_doctors', 'patient_contacts'];
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await count(table);
  return {
    patient: (await w.ids(visibility, sql`SELECT id::text AS v FROM patients WHERE id = ${patientId}`)).length === 1,
    readings: await measures('readings'),
    hourly: await measures('readings_hourly'),
    daily: await measures('readings_daily'),
    counts,
    events: await w.ids(visibility, sql`SELECT type AS v FROM events WHERE patient_id = ${patientId}`),
  };
}

const NOTHING = {
  patient: false,
  readings: [],
  hourly: [],
  daily: [],
  counts: { ecg_records: 0, sleep_records: 0, sport_records: 0, weight_goals: 0, alerts: 0, sos_cases: 0, tickets: 0, medical_records: 0, patient_files: 0, devices: 0, patient_thresholds: 0, patient_doctors: 0, patient_contacts: 0 },
  events: [],
};
const EVERYTHING = {
  patient: true,
  readings: ['HEART_RATE', 'SPO2', 'STEPS'],
  hourly: ['HEART_RATE', 'SPO2', 'STEPS'],
  daily: ['HEART_RATE', 'SPO2', 'STEPS'],
  counts: { ecg_records: 1, sleep_records: 1, sport_records: 1, weight_goals: 1, alerts: 1, sos_cases: 1, tickets: 1, medical_records: 1, patient_files: 1, devices: 1, patient_thresholds: 1, patient_doctors: 1, patient_contacts: 3 },
  events: [...LIVE_EVENT_TYPES].sort(),
};

describe('the patient access rule for followers and holders, in the database', () => {
  it('lets a follower see the followed patient, its health data of the kinds not hidden, alerts and SOS, and nothing private', async () => {
    const w = await world();
    const asFollower = { ownRecordsOf: w.followerUser.id };
    expect(await w.ids(asFollower, sql`SELECT id::text AS v FROM patients`)).toEqual([w.followerRecord.id, w.patient.id].sort());
    expect(await seenOf(w, asFollower, w.patient.id)).toEqual({
      patient: true,
      // SpO2 and ECG are hidden from this follower; steps (activity) and heart rate are not.
      readings: ['HEART_RATE', 'STEPS'],
      hourly: ['HEART_RATE', 'STEPS'],
      daily: ['HEART_RATE', 'STEPS'],
      counts: { ...NOTHING.counts, sleep_records: 1, sport_records: 1, weight_goals: 1, alerts: 1, sos_cases: 1, patient_contacts: 1 },
      // The events policy lets through exactly the types contracts hand to followers live.
      events: [...FOLLOWER_EVENT_TYPES].sort(),
    });
    // Its one contact row is its own; the other follower's and the pending invitation are not seen.
    expect(await w.ids(asFollower, sql`SELECT id::text AS v FROM patient_contacts WHERE patient_id = ${w.patient.id}`)).toEqual([w.followerContact]);
    // The other follower hides nothing: it sees SpO2 and ECG.
    const other = await seenOf(w, { ownRecordsOf: w.otherFollowerUser.id }, w.patient.id);
    expect(other.readings).toEqual(['HEART_RATE', 'SPO2', 'STEPS']);
    expect(other.counts.ecg_records).toBe(1);
    expect(other.counts.tickets).toBe(0);
    // The patient itself sees everything of its record, hidden kinds included.
    expect(await seenOf(w, { ownRecordsOf: w.patientUser.id }, w.patient.id)).toEqual(EVERYTHING);
    // The follower's own record stays wholly its own.
    expect((await seenOf(w, asFollower, w.followerRecord.id)).patient).toBe(true);
  });

  it('grants nothing for a SENT or DELETED contact, and deleting a confirmed one revokes at once', async () => {
    const w = await world();
    // A stranger invited (SENT, its phone) and one whose confirmed contact was deleted: nothing.
    await w.contact(w.patient.id, 'DELETED', w.strangerUser.id);
    expect(await seenOf(w, { ownRecordsOf: w.strangerUser.id }, w.patient.id)).toEqual(NOTHING);
    expect(await w.ids({ ownRecordsOf: w.strangerUser.id }, sql`SELECT id::text AS v FROM patients`)).toEqual([w.stranger.id]);
    // The patient deletes the follower in the app (its own session): the grant goes in the same statement.
    const changed = await w.as({ ownRecordsOf: w.patientUser.id }, (tx) =>
      tx.execute(sql`UPDATE patient_contacts SET invitation_status = 'DELETED', deleted_at = now() WHERE id = ${w.followerContact}`),
    );
    expect(changed.rowCount).toBe(1);
    expect(await seenOf(w, { ownRecordsOf: w.followerUser.id }, w.patient.id)).toEqual(NOTHING);
    expect(await w.owner('SELECT contact_id FROM follower_grants WHERE patient_id = $1', [w.patient.id])).toEqual([{ contact_id: w.otherFollowerContact }]);
    // Hidden kinds changed by the patient apply at once too.
    await w.as({ ownRecordsOf: w.patientUser.id }, (tx) =>
      tx.execute(sql`UPDATE patient_contacts SET hidden_kinds = '{HEART_RATE}' WHERE id = ${w.otherFollowerContact}`),
    );
    expect((await seenOf(w, { ownRecordsOf: w.otherFollowerUser.id }, w.patient.id)).readings).toEqual(['SPO2', 'STEPS']);
  });

  it('lets a follower change nothing of the followed patient but leave: its own contact row, to DELETED', async () => {
    const w = await world();
    const asFollower = { ownRecordsOf: w.followerUser.id };
    const p = w.patient.id;
    const t = w.tenant.id;
    const rowsChanged = async (query: ReturnType<typeof sql>) => (await w.as(asFollower, (tx) => tx.execute(query))).rowCount;
    expect(await rowsChanged(sql`UPDATE patients SET first_name = 'X' WHERE id = ${p}`)).toBe(0);
    expect(await rowsChanged(sql`DELETE FROM patients WHERE id = ${p}`)).toBe(0);
    expect(await rowsChanged(sql`UPDATE alerts SET status = 'RESOLVED' WHERE patient_id = ${p}`)).toBe(0);
    expect(await rowsChanged(sql`UPDATE sos_cases SET reason = 'x' WHERE patient_id = ${p}`)).toBe(0);
    expect(await rowsChanged(sql`DELETE FROM sleep_records WHERE patient_id = ${p}`)).toBe(0);
    expect(await rowsChanged(sql`UPDATE weight_goals SET goal_kg = 90 WHERE patient_id = ${p}`)).toBe(0);
    // Of the patient's contacts only its own row is seen; the others are not changed.
    expect(await rowsChanged(sql`UPDATE patient_contacts SET name = 'Me' WHERE id IN (${w.otherFollowerContact}, ${w.invitation})`)).toBe(0);
    const refused = [
      sql`INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source) VALUES (${t}, ${p}, 'HEART_RATE', now(), 200, 'MANUAL')`,
      sql`INSERT INTO readings_hourly (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
            VALUES (${t}, ${p}, 'STEPS', date_trunc('hour', now()), 1, 1, 1, 1, 1, now())`,
      sql`INSERT INTO sport_records (tenant_id, id, patient_id, sport, start_at, practice_seconds) VALUES (${t}, ${randomUUID()}, ${p}, 'RUN', now(), 60)`,
      sql`INSERT INTO sos_cases (tenant_id, id, patient_id, reason, source, opened_at, kpi_due_at) VALUES (${t}, ${randomUUID()}, ${p}, 'x', 'MANUAL', now(), now())`,
      sql`INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship) VALUES (${t}, ${randomUUID()}, ${p}, 'CARING', 'Me', ${phone()}, 'FRIEND')`,
      // Its own contact row: unhiding what the patient hides, or any change but leaving, is refused.
      sql`UPDATE patient_contacts SET hidden_kinds = '{}' WHERE id = ${w.followerContact}`,
      sql`UPDATE patient_contacts SET name = 'Me' WHERE id = ${w.followerContact}`,
    ];
    for (const query of refused) expect((await databaseErrorOf(w.as(asFollower, (tx) => tx.execute(query)))).code).toBe('42501');
    expect(await w.owner('SELECT hidden_kinds FROM follower_grants WHERE contact_id = $1', [w.followerContact])).toEqual([{ hidden_kinds: ['SPO2', 'ECG'] }]);
    // Leaving: the follower sets its own row to DELETED, and sees the patient no more.
    expect(await rowsChanged(sql`UPDATE patient_contacts SET invitation_status = 'DELETED', deleted_at = now() WHERE id = ${w.followerContact}`)).toBe(1);
    expect(await seenOf(w, asFollower, p)).toEqual(NOTHING);
    // Its own record it changes as before.
    expect(await rowsChanged(sql`UPDATE patients SET first_name = 'Me' WHERE id = ${w.followerRecord.id}`)).toBe(1);
  });

  it('lets a holder see and write its sub-user as its own, and no one else see it', async () => {
    const w = await world();
    const asHolder = { ownRecordsOf: w.holderUser.id };
    expect(await w.ids(asHolder, sql`SELECT id::text AS v FROM patients`)).toEqual([w.holderRecord.id, w.subUser.id].sort());
    const seen = await seenOf(w, asHolder, w.subUser.id);
    expect(seen.patient).toBe(true);
    expect(seen.readings).toEqual(['HEART_RATE']);
    // The ingestion path, twice in the same hour: the second upserts the rollups (ON CONFLICT DO UPDATE).
    for (const value of [70, 90]) {
      await w.as(asHolder, (tx) =>
        insertReadings(tx, { tenantId: w.tenant.id, patientId: w.subUser.id, deviceId: null, batchId: null, receivedAt: new Date() }, [
          { measure: 'SPO2', measuredAt: new Date(Date.now() - (value === 70 ? 120_000 : 60_000)), value, source: 'MANUAL', item: 0, late: false },
        ]),
      );
    }
    const [hourly] = await asOwner<{ count: number; max: number }>(testDb.ownerUrl, `SELECT sum(count)::int AS count, max(max) AS max FROM readings_hourly WHERE patient_id = $1 AND measure = 'SPO2'`, [w.subUser.id]);
    expect(hourly).toEqual({ count: 2, max: 90 });
    expect((await seenOf(w, asHolder, w.subUser.id)).readings).toEqual(['HEART_RATE', 'SPO2']);
    expect((await w.as(asHolder, (tx) => tx.execute(sql`UPDATE patients SET smoking = true WHERE id = ${w.subUser.id}`))).rowCount).toBe(1);
    // Another patient account sees neither the sub-user nor the holder's record.
    expect(await seenOf(w, { ownRecordsOf: w.strangerUser.id }, w.subUser.id)).toEqual(NOTHING);
    expect((await seenOf(w, { ownRecordsOf: w.patientUser.id }, w.holderRecord.id)).patient).toBe(false);
    // The patient's own session still ingests for its own record too (nothing it follows).
    await w.as({ ownRecordsOf: w.patientUser.id }, (tx) =>
      insertReadings(tx, { tenantId: w.tenant.id, patientId: w.patient.id, deviceId: null, batchId: null, receivedAt: new Date() }, [
        { measure: 'HEART_RATE', measuredAt: new Date(Date.now() - 30_000), value: 75, source: 'MANUAL', item: 0, late: false },
      ]),
    );
  });

  it('leaves staff visibility as it was: by health center, followers and holders change nothing', async () => {
    const w = await world();
    const everything = await seenOf(w, ALL_CENTERS, w.patient.id);
    expect(everything).toEqual(EVERYTHING);
    expect(await seenOf(w, { centerIds: [w.centerA.id] }, w.patient.id)).toEqual(EVERYTHING);
    expect(await seenOf(w, { centerIds: [w.centerB.id] }, w.patient.id)).toEqual(NOTHING);
    expect((await seenOf(w, { centerIds: [w.centerB.id] }, w.subUser.id)).patient).toBe(true);
    expect((await seenOf(w, { centerIds: [w.centerA.id] }, w.subUser.id)).patient).toBe(false);
    // Staff of the center change contacts (the console) and write readings as before.
    await w.as({ centerIds: [w.centerA.id] }, async (tx) => {
      expect((await tx.execute(sql`UPDATE patient_contacts SET hidden_kinds = '{}' WHERE id = ${w.followerContact}`)).rowCount).toBe(1);
      await insertReadings(tx, { tenantId: w.tenant.id, patientId: w.patient.id, deviceId: null, batchId: null, receivedAt: new Date() }, [
        { measure: 'HEART_RATE', measuredAt: new Date(Date.now() - 45_000), value: 72, source: 'MANUAL', item: 0, late: false },
      ]);
    });
    expect((await seenOf(w, { ownRecordsOf: w.followerUser.id }, w.patient.id)).readings).toEqual(['HEART_RATE', 'SPO2', 'STEPS']);
  });

  it('never makes the patient’s own account or its holder a follower of it', async () => {
    const w = await world();
    for (const [patientId, userId] of [[w.patient.id, w.patientUser.id], [w.subUser.id, w.holderUser.id]] as const) {
      const error = await databaseErrorOf(w.contact(patientId, 'CONFIRMED', userId, ['HEART_RATE']));
      expect(error.code).toBe('23514');
      expect(error.constraint).toBe('patient_contacts_follower_not_self');
    }
  });

  it('gives every measure the data kind contracts give it', async () => {
    const rows = await asOwner<{ measure: string; kind: string }>(
      testDb.ownerUrl,
      'SELECT measure, measure_data_kind(measure) AS kind FROM unnest($1::text[]) AS measure',
      [[...MEASURE_CODES]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.measure, row.kind]))).toEqual(
      Object.fromEntries(MEASURE_CODES.map((measure) => [measure, MEASURE_DATA_KIND[measure]])),
    );
  });
});
