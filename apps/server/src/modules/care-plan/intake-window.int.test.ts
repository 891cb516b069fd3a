import type { Intake, PrescriptionDetail } from '@rpm/contracts';
import { tenantSettingsUpdateSchema } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { call, careOrganisation, dataOf, logInAs, type CareOrganisation } from '../doctors/test-support.js';
import { runIntakePass } from './intake-job.js';

/**
 * The tenant's dose window (INTAKE_WINDOW_MINUTES): how far from its time a dose taken is on time,
 * and how long an unanswered dose waits before it is unconfirmed.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
// 13:00 in Ho Chi Minh City (the patients' default zone), the first of December.
const clock = new ManualClock(new Date('2026-12-01T06:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('the dose window', () => {
  it('accepts 5 to 240 whole minutes as the setting', () => {
    const parse = (value: string) =>
      tenantSettingsUpdateSchema.safeParse({ INTAKE_WINDOW_MINUTES: value }).success;
    expect(['5', '30', '240'].map(parse)).toEqual([true, true, true]);
    expect(['4', '241', '30.5', '-10', ''].map(parse)).toEqual([false, false, false, false, false]);
  });

  it('with 90 minutes, a dose taken an hour late is on time and one unanswered waits 90 minutes', async () => {
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO tenant_settings (tenant_id, key, value) VALUES ($1, 'INTAKE_WINDOW_MINUTES', '90')`,
      [org.tenant.id],
    );
    const patientUser = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    const patient = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: patientUser.id,
    });
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    const written = await call(app, doctor, 'POST', `/health/patients/${patient.id}/prescriptions`, {
      name: 'Blood pressure',
      doctorInChargeId: org.doctorA.id,
      startDate: '2026-12-01',
      endDate: '2026-12-01',
      refills: 0,
      medicines: [
        {
          name: 'Amlodipine',
          dose: 1,
          doseUnit: 'PILL',
          route: 'ORAL',
          form: 'TABLET',
          frequencyCycle: 'DAY',
          timesOfDay: ['AFTERNOON'],
          meal: 'ANYTIME',
          mode: 'ON_SCHEDULE',
          schedule: {
            times: [
              { label: 'First', time: '15:00' },
              { label: 'Second', time: '15:10' },
            ],
            repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
            startDate: '2026-12-01',
            endDate: '2026-12-01',
          },
        },
      ],
    });
    expect(written.statusCode, written.body).toBe(200);
    expect(dataOf<PrescriptionDetail>(written).medicines).toHaveLength(1);

    // 16:00 local: the 15:00 dose taken now is 60 minutes late, within the 90-minute window.
    clock.advance(3 * 3_600_000);
    const token = await logInAs(app, org.tenant.code, patientUser);
    const doses = dataOf<Intake[]>(await call(app, token, 'GET', '/health/me/intakes'));
    expect(doses.map((dose) => dose.localTime)).toEqual(['15:00', '15:10']);
    const taken = await call(app, token, 'PUT', `/health/me/intakes/${doses[0]?.id ?? ''}`, {
      answer: 'TAKEN',
    });
    expect(dataOf<Intake>(taken).state).toBe('TAKEN');

    const statesNow = async () => {
      const staff = await logInAs(app, org.tenant.code, org.doctorA);
      const day = await call(app, staff, 'GET', `/health/patients/${patient.id}/intakes?date=2026-12-01`);
      return dataOf<Intake[]>(day).map((dose) => dose.state);
    };
    // The 15:10 dose is 50 minutes past: still to take (the default 30 would have unconfirmed it).
    await runIntakePass(testDb.database, clock);
    expect(await statesNow()).toEqual(['TAKEN', 'TO_TAKE']);
    // 16:45: 95 minutes past, unconfirmed.
    clock.advance(45 * 60_000);
    await runIntakePass(testDb.database, clock);
    expect(await statesNow()).toEqual(['TAKEN', 'UNCONFIRMED']);
  });
});
