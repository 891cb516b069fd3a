import type { Intake, PrescriptionDetail, PrescriptionSummary, UsageHistory } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import {
  auditCount,
  call,
  careOrganisation,
  codeOf,
  dataOf,
  logInAs,
  tokensOf,
  type CareOrganisation,
} from '../doctors/test-support.js';
import { runIntakePass } from './intake-job.js';

/**
 * Prescriptions through the API (spec §2, §4, §5, §6): a doctor writes, edits (deactivate and
 * create) and deactivates; every §5 rule is refused with its message; assistants and admins do not
 * prescribe; the patient sees its prescriptions but never a deactivated one, answers its doses on a
 * controlled clock, and the usage history counts them.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;
let assistantToken: string;
// 13:00 in Ho Chi Minh City (the patients' default zone), the first of December.
const clock = new ManualClock(new Date('2026-12-01T06:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
  const assistant = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'DOCTOR_ASSISTANT',
    healthCenterId: org.centerA.id,
  });
  assistantToken = await logInAs(app, org.tenant.code, assistant);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const daily = (times: { label: string; time: string }[], startDate = '2026-12-01') => ({
  times,
  repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
  startDate,
  endDate: null,
});
const medicine = (overrides: Record<string, unknown> = {}) => ({
  name: 'Metformin',
  strength: '500 mg',
  dose: 1,
  doseUnit: 'PILL',
  route: 'ORAL',
  form: 'TABLET',
  frequencyCycle: 'DAY',
  timesOfDay: ['MORNING', 'EVENING'],
  meal: 'AFTER_MEAL',
  mode: 'ON_SCHEDULE',
  schedule: daily([
    { label: 'Morning', time: '08:00' },
    { label: 'Evening', time: '20:00' },
  ]),
  ...overrides,
});
const prescription = (overrides: Record<string, unknown> = {}) => ({
  name: 'Diabetes control',
  rxNumber: 'RX-1001',
  diagnosis: 'Type 2 diabetes',
  doctorInChargeId: org.doctorA.id,
  noteForPatient: 'Take after meals',
  startDate: '2026-12-01',
  endDate: '2026-12-30',
  refills: 1,
  medicines: [
    medicine(),
    medicine({
      name: 'Paracetamol',
      strength: '500 mg',
      dose: 0.5,
      mode: 'ON_DEMAND',
      schedule: null,
      timesOfDay: [],
      meal: 'ANYTIME',
    }),
  ],
  ...overrides,
});
const base = (patientId: string) => `/health/patients/${patientId}/prescriptions`;
const write = (token: string, patientId: string, body: unknown) =>
  call(app, token, 'POST', base(patientId), body);
const fieldCodes = (response: LightMyRequestResponse) =>
  (
    response.json<{ fieldErrors?: { field: string; code: string; message: string }[] }>().fieldErrors ?? []
  ).map((error) => `${error.field}:${error.code}`);

describe('writing prescriptions', () => {
  it('a doctor writes one with two medicines; the doses of the next 72 hours exist at once; audited', async () => {
    const response = await write(tokens.doctorA, org.patientA.id, prescription());
    expect(response.statusCode).toBe(200);
    const detail = dataOf<PrescriptionDetail>(response);
    expect(detail).toMatchObject({
      name: 'Diabetes control',
      state: 'IN_USE',
      totalDays: 30,
      medicineCount: 2,
      doctorInCharge: { id: org.doctorA.id },
      createdBy: { id: org.doctorA.id },
      replacesId: null,
      deactivatedBy: null,
    });
    expect(detail.medicines.map((item) => [item.name, item.dose, item.mode])).toEqual([
      ['Metformin', 1, 'ON_SCHEDULE'],
      ['Paracetamol', 0.5, 'ON_DEMAND'],
    ]);
    // 13:00 on the 1st: 20:00 on the 1st, 08:00 and 20:00 on the 2nd and 3rd, 08:00 on the 4th.
    const doses = await asOwner<{ local_date: string; local_time: string }>(
      testDb.ownerUrl,
      `SELECT local_date::text, local_time FROM medication_intakes i JOIN prescription_medicines m ON m.id = i.medicine_id
        WHERE m.prescription_id = $1 ORDER BY due_at`,
      [detail.id],
    );
    expect(doses.map((dose) => `${dose.local_date} ${dose.local_time}`)).toEqual([
      '2026-12-01 20:00',
      '2026-12-02 08:00',
      '2026-12-02 20:00',
      '2026-12-03 08:00',
      '2026-12-03 20:00',
      '2026-12-04 08:00',
    ]);
    expect(await auditCount(testDb.ownerUrl, 'PRESCRIPTION_CREATED', detail.id)).toBe(1);
    const listed = await call(app, tokens.doctorA, 'GET', `${base(org.patientA.id)}?search=rx-10`);
    expect(dataOf<{ items: PrescriptionSummary[] }>(listed).items.map((item) => item.id)).toContain(
      detail.id,
    );
  });

  it('refuses every §5 rule with a field error and its message, in the caller’s language', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ medicines: [medicine({ dose: 0 })] }, 'body.medicines.0.dose:dose.range'],
      [{ medicines: [medicine({ dose: 300.5 })] }, 'body.medicines.0.dose:dose.range'],
      [{ medicines: [medicine({ dose: 2.3 })] }, 'body.medicines.0.dose:dose.step'],
      [{ medicines: [] }, 'body.medicines:medicines.required'],
      [
        { medicines: [medicine(), medicine({ strength: '500mg' })] },
        'body.medicines.1.name:medicines.duplicate',
      ],
      [
        {
          medicines: [
            medicine({
              schedule: daily([
                { label: 'A', time: '08:00' },
                { label: 'B', time: '08:00' },
              ]),
            }),
          ],
        },
        'body.medicines.0.schedule.times.1.time:times.duplicateTime',
      ],
      [
        {
          medicines: [
            medicine({
              schedule: daily([
                { label: 'Dose', time: '08:00' },
                { label: 'dose', time: '09:00' },
              ]),
            }),
          ],
        },
        'body.medicines.0.schedule.times.1.label:times.duplicateLabel',
      ],
      [{ medicines: [medicine({ schedule: daily([]) })] }, 'body.medicines.0.schedule.times:times.required'],
      [
        { medicines: [medicine({ mode: 'ON_DEMAND' })] },
        'body.medicines.0.schedule:medicine.onDemandNoReminders',
      ],
      [{ medicines: [medicine({ schedule: null })] }, 'body.medicines.0.schedule.times:times.required'],
      [{ startDate: '2026-12-31', endDate: '2026-12-01' }, 'body.endDate:dates.startAfterEnd'],
    ];
    for (const [overrides, expected] of cases) {
      const response = await write(tokens.doctorA, org.patientA2.id, prescription(overrides));
      expect(response.statusCode, expected).toBe(400);
      expect(codeOf(response)).toBe('prescription.invalid');
      expect(fieldCodes(response)).toContain(expected);
    }
    const vietnamese = await app.inject({
      method: 'POST',
      url: base(org.patientA2.id),
      headers: { 'accept-language': 'vi' },
      cookies: { rpm_session: tokens.doctorA },
      payload: prescription({ medicines: [medicine({ dose: 2.3 })] }),
    });
    expect(vietnamese.json<{ fieldErrors: { message: string }[] }>().fieldErrors[0]?.message).toBe(
      'Chỉ cho phép phần thập phân .125, .25, .33, .5, .66 và .75',
    );
    const english = await write(
      tokens.doctorA,
      org.patientA2.id,
      prescription({ medicines: [medicine({ dose: 0 })] }),
    );
    expect(english.json<{ fieldErrors: { message: string }[] }>().fieldErrors[0]?.message).toBe(
      'The dose must be more than 0 and at most 300',
    );
    const stored = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM prescriptions WHERE patient_id = $1',
      [org.patientA2.id],
    );
    expect(stored[0]?.n).toBe(0);
  });

  it('accepts every dose step at the bounds', async () => {
    for (const dose of [0.125, 0.25, 0.33, 0.5, 0.66, 0.75, 1, 299.75, 300]) {
      const response = await write(
        tokens.doctorA,
        org.patientA2.id,
        prescription({ medicines: [medicine({ dose })] }),
      );
      expect(response.statusCode, String(dose)).toBe(200);
      expect(dataOf<PrescriptionDetail>(response).medicines[0]?.dose).toBe(dose);
    }
  });

  it('only doctors prescribe: assistants, admins and the patient are refused; another center’s doctor does not see the patient', async () => {
    for (const token of [assistantToken, tokens.admin, tokens.adminA, tokens.patient]) {
      const response = await write(token, org.patientA.id, prescription());
      expect(response.statusCode).toBe(403);
      expect(codeOf(response)).toBe('auth.permissionDenied');
    }
    const far = await write(
      tokens.doctorB,
      org.patientA.id,
      prescription({ doctorInChargeId: org.doctorB.id }),
    );
    expect(far.statusCode).toBe(404);
    expect(codeOf(far)).toBe('patient.notFound');
    // An assistant reads them (health.view).
    expect((await call(app, assistantToken, 'GET', base(org.patientA.id))).statusCode).toBe(200);
  });

  it('refuses a doctor in charge who is not an active doctor the caller sees', async () => {
    const response = await write(
      tokens.doctorA,
      org.patientA.id,
      prescription({ doctorInChargeId: org.adminA.id }),
    );
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('doctor.notFound');
  });
});

describe('editing and deactivating', () => {
  it('an edit deactivates the old one and writes its successor, linked; the old one is not edited again', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const first = dataOf<PrescriptionDetail>(await write(tokens.doctorA, patient.id, prescription()));
    const edited = await call(
      app,
      tokens.doctorA2,
      'PUT',
      `${base(patient.id)}/${first.id}`,
      prescription({ refills: 2 }),
    );
    expect(edited.statusCode).toBe(200);
    const successor = dataOf<PrescriptionDetail>(edited);
    expect(successor).toMatchObject({
      replacesId: first.id,
      refills: 2,
      state: 'IN_USE',
      createdBy: { id: org.doctorA2.id },
    });
    const old = dataOf<PrescriptionDetail>(
      await call(app, tokens.doctorA, 'GET', `${base(patient.id)}/${first.id}`),
    );
    expect(old).toMatchObject({
      state: 'DEACTIVATED',
      replacedById: successor.id,
      deactivatedBy: { id: org.doctorA2.id },
    });
    // The old one's doses still to come are gone; the successor has its own.
    const doses = await asOwner<{ prescription_id: string; n: number }>(
      testDb.ownerUrl,
      `SELECT m.prescription_id, count(*)::int AS n FROM medication_intakes i JOIN prescription_medicines m ON m.id = i.medicine_id
        WHERE m.patient_id = $1 GROUP BY m.prescription_id`,
      [patient.id],
    );
    expect(doses).toEqual([{ prescription_id: successor.id, n: 6 }]);
    const again = await call(app, tokens.doctorA, 'PUT', `${base(patient.id)}/${first.id}`, prescription());
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('prescription.deactivated');
    expect(await auditCount(testDb.ownerUrl, 'PRESCRIPTION_REPLACED', successor.id)).toBe(1);
  });

  it('a deactivated prescription is hidden from the patient and cannot be deactivated twice', async () => {
    const created = dataOf<PrescriptionDetail>(
      await write(tokens.doctorA, org.patientA.id, prescription({ name: 'Short course' })),
    );
    const mine = async () =>
      dataOf<{ items: PrescriptionSummary[] }>(
        await call(app, tokens.patient, 'GET', '/health/me/prescriptions'),
      ).items.map((item) => item.id);
    expect(await mine()).toContain(created.id);
    expect(
      (await call(app, tokens.patient, 'GET', `/health/me/prescriptions/${created.id}`)).statusCode,
    ).toBe(200);
    const deactivated = await call(
      app,
      tokens.doctorA,
      'PUT',
      `${base(org.patientA.id)}/${created.id}/deactivate`,
    );
    expect(dataOf<PrescriptionDetail>(deactivated).state).toBe('DEACTIVATED');
    expect(await mine()).not.toContain(created.id);
    const hidden = await call(app, tokens.patient, 'GET', `/health/me/prescriptions/${created.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(codeOf(hidden)).toBe('prescription.notFound');
    // The patient's session on the console's route hides it too.
    const staffRoute = await call(app, tokens.patient, 'GET', `${base(org.patientA.id)}/${created.id}`);
    expect(staffRoute.statusCode).toBe(404);
    const twice = await call(app, tokens.doctorA, 'PUT', `${base(org.patientA.id)}/${created.id}/deactivate`);
    expect(codeOf(twice)).toBe('prescription.deactivated');
    const staffList = await call(app, tokens.doctorA, 'GET', `${base(org.patientA.id)}?state=DEACTIVATED`);
    expect(dataOf<{ items: PrescriptionSummary[] }>(staffList).items.map((item) => item.id)).toContain(
      created.id,
    );
    const patientDoses = dataOf<Intake[]>(
      await call(app, tokens.patient, 'GET', '/health/me/intakes?date=2026-12-02'),
    );
    expect(patientDoses.some((dose) => dose.prescriptionId === created.id)).toBe(false);
  });
});

describe('doses', () => {
  it('the patient answers its doses on a controlled clock; unanswered ones become unconfirmed; usage counts them', async () => {
    const patientUser = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    const patient = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: patientUser.id,
    });
    // Access tokens last minutes: each step of the clock logs in again.
    let token = await logInAs(app, org.tenant.code, patientUser);
    let doctorToken = tokens.doctorA;
    const advance = async (milliseconds: number) => {
      clock.advance(milliseconds);
      token = await logInAs(app, org.tenant.code, patientUser);
      doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    };
    const created = dataOf<PrescriptionDetail>(
      await write(tokens.doctorA, patient.id, prescription({ medicines: [medicine()] })),
    );
    // 20:45 local on the 1st: the 20:00 dose taken now is late (over 30 minutes).
    await advance(7 * 3_600_000 + 45 * 60_000);
    const todayResponse = await call(app, token, 'GET', '/health/me/intakes');
    expect(todayResponse.statusCode, todayResponse.body).toBe(200);
    const today = dataOf<Intake[]>(todayResponse);
    expect(today.map((dose) => [dose.localTime, dose.appState])).toEqual([['20:00', 'WAITING']]);
    const evening = today[0]?.id ?? '';
    const taken = await call(app, token, 'PUT', `/health/me/intakes/${evening}`, { answer: 'TAKEN' });
    expect(dataOf<Intake>(taken)).toMatchObject({ state: 'TAKEN_LATE', appState: 'TAKEN' });
    const twice = await call(app, token, 'PUT', `/health/me/intakes/${evening}`, { answer: 'SKIPPED' });
    expect(codeOf(twice)).toBe('intake.alreadyAnswered');
    // Tomorrow 20:00 is more than 12 hours ahead.
    const tomorrow = dataOf<Intake[]>(await call(app, token, 'GET', '/health/me/intakes?date=2026-12-02'));
    const early = await call(app, token, 'PUT', `/health/me/intakes/${tomorrow[1]?.id ?? ''}`, {
      answer: 'TAKEN',
    });
    expect(codeOf(early)).toBe('intake.notYetDue');
    // 07:10 on the 2nd: the 08:00 dose taken now is early.
    await advance(10 * 3_600_000 + 25 * 60_000);
    const morning = await call(app, token, 'PUT', `/health/me/intakes/${tomorrow[0]?.id ?? ''}`, {
      answer: 'TAKEN',
    });
    expect(dataOf<Intake>(morning).state).toBe('TAKEN_EARLY');
    // 21:00 on the 2nd: the 20:00 dose unanswered is unconfirmed after the job's pass.
    await advance(13 * 3_600_000 + 50 * 60_000);
    await runIntakePass(testDb.database, clock);
    const staffView = dataOf<Intake[]>(
      await call(app, doctorToken, 'GET', `/health/patients/${patient.id}/intakes?date=2026-12-02`),
    );
    expect(staffView.map((dose) => dose.state)).toEqual(['TAKEN_EARLY', 'UNCONFIRMED']);
    // The patient list flags the missed dose in the patient's triage row.
    const [coded] = await asOwner<{ patient_code: string }>(
      testDb.ownerUrl,
      'SELECT patient_code FROM patients WHERE id = $1',
      [patient.id],
    );
    const listed = dataOf<{ items: { id: string; missedDoses: number }[] }>(
      await call(app, doctorToken, 'GET', `/account/patients?search=${coded?.patient_code ?? ''}`),
    );
    expect(listed.items.find((row) => row.id === patient.id)?.missedDoses).toBe(1);
    const usage = dataOf<UsageHistory>(
      await call(app, doctorToken, 'GET', `${base(patient.id)}/${created.id}/usage`),
    );
    expect(usage.total).toMatchObject({
      taken: 0,
      takenEarly: 1,
      takenLate: 1,
      unconfirmed: 1,
      adherencePercent: 66.7,
    });
    // Up to today: the doses made ahead for the 3rd are not counted yet.
    expect(usage.to).toBe('2026-12-02');
    expect(usage.medicines[0]?.days.map((day) => [day.date, day.counts.adherencePercent])).toEqual([
      ['2026-12-01', 100],
      ['2026-12-02', 50],
    ]);
    // A late answer to an unconfirmed dose is still taken.
    const late = await call(app, token, 'PUT', `/health/me/intakes/${staffView[1]?.id ?? ''}`, {
      answer: 'TAKEN',
    });
    expect(dataOf<Intake>(late).state).toBe('TAKEN_LATE');
  });

  it('keeps 08:00 the patient’s wall clock across a daylight-saving change (America/Toronto)', async () => {
    const patientUser = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    const patient = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: patientUser.id,
    });
    await asOwner(testDb.ownerUrl, `UPDATE users SET time_zone = 'America/Toronto' WHERE id = $1`, [
      patientUser.id,
    ]);
    const dstClock = new ManualClock(new Date('2026-10-30T16:00:00Z'));
    const dstApp = await createTestApp(testDb.database, {}, dstClock);
    try {
      const doctorToken = await logInAs(dstApp, org.tenant.code, org.doctorA);
      const created = await call(
        dstApp,
        doctorToken,
        'POST',
        base(patient.id),
        prescription({
          startDate: '2026-10-30',
          endDate: '2026-11-05',
          medicines: [medicine({ schedule: daily([{ label: 'Morning', time: '08:00' }], '2026-10-30') })],
        }),
      );
      expect(created.statusCode).toBe(200);
      for (let day = 0; day < 4; day++) {
        dstClock.advance(86_400_000);
        await runIntakePass(testDb.database, dstClock);
      }
      const doses = await asOwner<{ due: string; local: string }>(
        testDb.ownerUrl,
        `SELECT to_char(due_at AT TIME ZONE 'UTC', 'MM-DD HH24:MI') AS due, local_date::text || ' ' || local_time AS local
           FROM medication_intakes WHERE patient_id = $1 ORDER BY due_at`,
        [patient.id],
      );
      // EDT (UTC-4) until 1 November 02:00, then EST (UTC-5); one dose a day, none lost or doubled.
      expect(doses).toEqual([
        { due: '10-31 12:00', local: '2026-10-31 08:00' },
        { due: '11-01 13:00', local: '2026-11-01 08:00' },
        { due: '11-02 13:00', local: '2026-11-02 08:00' },
        { due: '11-03 13:00', local: '2026-11-03 08:00' },
        { due: '11-04 13:00', local: '2026-11-04 08:00' },
        { due: '11-05 13:00', local: '2026-11-05 08:00' },
      ]);
    } finally {
      await dstApp.close();
    }
  });
});

describe('the dose pass', () => {
  it('extends only the medicines whose doses run out within 48 hours, a day at a time', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const passClock = new ManualClock(new Date('2026-12-10T00:00:00Z'));
    const passApp = await createTestApp(testDb.database, {}, passClock);
    try {
      const doctorToken = await logInAs(passApp, org.tenant.code, org.doctorA);
      const created = await call(
        passApp,
        doctorToken,
        'POST',
        base(patient.id),
        prescription({
          startDate: '2026-12-10',
          endDate: '2026-12-31',
          medicines: [medicine({ schedule: daily([{ label: 'Morning', time: '08:00' }], '2026-12-10') })],
        }),
      );
      expect(created.statusCode, created.body).toBe(200);
      const madeUntil = async () =>
        (
          await asOwner<{ until: string }>(
            testDb.ownerUrl,
            `SELECT to_char(doses_made_until AT TIME ZONE 'UTC', 'MM-DD HH24:MI') AS until FROM prescription_medicines WHERE patient_id = $1`,
            [patient.id],
          )
        )[0]?.until;
      expect(await madeUntil()).toBe('12-13 00:00');
      // A day later the doses still reach 48 hours ahead: the medicine is left alone.
      passClock.advance(24 * 3_600_000);
      await runIntakePass(testDb.database, passClock);
      expect(await madeUntil()).toBe('12-13 00:00');
      // Two days later they do not: extended to 72 hours ahead, each dose made once.
      passClock.advance(24 * 3_600_000);
      await runIntakePass(testDb.database, passClock);
      expect(await madeUntil()).toBe('12-15 00:00');
      const doses = await asOwner<{ local_date: string }>(
        testDb.ownerUrl,
        'SELECT local_date::text FROM medication_intakes WHERE patient_id = $1 ORDER BY due_at',
        [patient.id],
      );
      expect(doses.map((dose) => dose.local_date)).toEqual([
        '2026-12-10',
        '2026-12-11',
        '2026-12-12',
        '2026-12-13',
        '2026-12-14',
      ]);
    } finally {
      await passApp.close();
    }
  });
});
