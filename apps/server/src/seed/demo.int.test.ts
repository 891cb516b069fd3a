import { ROLE_CODES } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { DEMO_RELATIVE_EMAIL } from './demo-followers.js';
import { DEMO_DUTY_OPERATOR_EMAIL, DEMO_PASSWORD, DEMO_TENANT_CODE, seedDemo } from './demo.js';

let testDb: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

it('creates the demo tenant once, with scopes, centers, patients, devices and a login per role', async () => {
  const first = await seedDemo(testDb.database);
  expect(first.created).toBe(true);
  expect(first.logins.map((login) => login.role).sort()).toEqual([...ROLE_CODES].sort());

  const counts = async () =>
    (
      await asOwner<Record<string, number>>(
        testDb.ownerUrl,
        `SELECT (SELECT count(*)::int FROM scopes) AS scopes, (SELECT count(*)::int FROM health_centers) AS centers,
              (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM patients) AS patients,
              (SELECT count(*)::int FROM devices) AS devices, (SELECT count(DISTINCT level)::int FROM scopes) AS levels,
              (SELECT count(DISTINCT status)::int FROM patients) AS statuses,
              (SELECT count(*)::int FROM prescriptions) AS prescriptions, (SELECT count(*)::int FROM care_reminders) AS reminders,
              (SELECT count(DISTINCT state)::int FROM medication_intakes) AS intake_states,
              (SELECT count(*)::int FROM doctor_schedules WHERE status = 'APPROVED') AS approved_schedules,
              (SELECT count(*)::int FROM doctor_schedules WHERE status = 'NEW') AS schedule_requests`,
      )
    )[0];
  const afterFirst = await counts();
  expect(afterFirst).toMatchObject({
    scopes: 5,
    centers: 3,
    patients: 41,
    devices: 40,
    levels: 3,
    statuses: 4,
    prescriptions: 1,
    reminders: 1,
    // Taken, taken late, skipped, unconfirmed and (the coming ones) to take.
    intake_states: 5,
    // The demo doctor's weekday mornings, and a Saturday waiting for the admins.
    approved_schedules: 1,
    schedule_requests: 1,
  });

  expect((await seedDemo(testDb.database)).created).toBe(false);
  expect(await counts()).toEqual(afterFirst);
});

it('every printed demo login works with the printed password', async () => {
  const { logins } = await seedDemo(testDb.database);
  for (const login of logins) {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      payload: {
        tenant: DEMO_TENANT_CODE,
        username: login.username,
        password: DEMO_PASSWORD,
        grant_type: 'password',
      },
    });
    expect(response.json(), login.username).toMatchObject({ resultCode: 200, data: { role: login.role } });
  }
});

it('backs every seeded status above NORMAL with the readings its alert cites', async () => {
  await seedDemo(testDb.database);
  const rows = await asOwner<{ status: string; measure: string; value: number; open_cases: number }>(
    testDb.ownerUrl,
    `SELECT p.status, r.measure, r.value,
            (SELECT count(*)::int FROM sos_cases c WHERE c.patient_id = p.id AND c.status <> 'CLOSED') AS open_cases
       FROM patients p
       JOIN LATERAL (SELECT measure, value FROM readings WHERE patient_id = p.id ORDER BY measured_at LIMIT 1) r ON true
      WHERE p.status <> 'NORMAL'`,
  );
  const patients = await asOwner<{ status: string; count: number }>(
    testDb.ownerUrl,
    `SELECT status, count(*)::int AS count FROM patients WHERE status <> 'NORMAL' GROUP BY status`,
  );
  const abnormal = patients.reduce((sum, row) => sum + row.count, 0);
  // The first reading of each patient above NORMAL is the abnormal one (SpO2 93 / 91, heart rate 178).
  expect(rows).toHaveLength(abnormal);
  for (const row of rows) {
    if (row.status === 'AT_RISK') expect(row).toMatchObject({ measure: 'SPO2', value: 93 });
    if (row.status === 'HIGH_RISK') expect(row).toMatchObject({ measure: 'SPO2', value: 91 });
    // An SOS patient's readings are normal again: the open case holds the status.
    if (row.status === 'SOS') expect(row).toMatchObject({ measure: 'HEART_RATE', value: 178, open_cases: 1 });
  }
});

it('seeds the simulated duty operator’s own operator account', async () => {
  await seedDemo(testDb.database);
  const response = await app.inject({
    method: 'POST',
    url: '/auth/oauth-token',
    payload: {
      tenant: DEMO_TENANT_CODE,
      username: DEMO_DUTY_OPERATOR_EMAIL,
      password: DEMO_PASSWORD,
      grant_type: 'password',
    },
  });
  expect(response.json()).toMatchObject({ resultCode: 200, data: { role: 'OPERATOR' } });
  // It works the whole tenant: every center's open SOS case is on its call list.
  const session = response.cookies.find((cookie) => cookie.name === 'rpm_session')?.value ?? '';
  const list = await app.inject({
    method: 'GET',
    url: '/account/sos-cases?open=true&size=100',
    headers: { authorization: `Bearer ${session}` },
  });
  const [open] = await asOwner<{ count: number }>(
    testDb.ownerUrl,
    `SELECT count(*)::int AS count FROM sos_cases WHERE status <> 'CLOSED'`,
  );
  expect(open?.count).toBeGreaterThan(1);
  expect(list.json()).toMatchObject({ resultCode: 200, data: { total: open?.count } });
});

it('seeds a follower of the demo patient with its own app login, and a sub-user the demo patient holds', async () => {
  await seedDemo(testDb.database);
  const login = await app.inject({
    method: 'POST',
    url: '/auth/oauth-token',
    payload: {
      tenant: DEMO_TENANT_CODE,
      username: DEMO_RELATIVE_EMAIL,
      password: DEMO_PASSWORD,
      grant_type: 'password',
      app: 'patient',
    },
  });
  const token = login.json<{ data: { accessToken: string } }>().data.accessToken;
  const following = await app.inject({
    method: 'GET',
    url: '/health/me/following',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(following.json()).toMatchObject({
    resultCode: 200,
    data: [{ name: 'Hung Pham', contactType: 'CARING' }],
  });
  const [subUser] = await asOwner<{ first_name: string; holder: string }>(
    testDb.ownerUrl,
    `SELECT s.first_name, u.email AS holder FROM patients s JOIN users u ON u.id = s.holder_user_id WHERE s.account_kind = 'SUB_USER'`,
  );
  expect(subUser).toEqual({ first_name: 'Linh', holder: 'patient@demo.example' });
});

it('derives the demo doctors’ ratings from seeded reviews by their care-team patients, none by the demo patient', async () => {
  await seedDemo(testDb.database);
  const rows = await asOwner<{ email: string; rating_average: string; rating_count: number; counted: number; average: string | null; unrelated: number; by_demo_patient: number }>(
    testDb.ownerUrl,
    `SELECT u.email, p.rating_average, p.rating_count,
            (SELECT count(*)::int FROM doctor_reviews r WHERE r.doctor_id = u.id AND r.hidden_at IS NULL) AS counted,
            (SELECT round(avg(r.rating), 2)::text FROM doctor_reviews r WHERE r.doctor_id = u.id AND r.hidden_at IS NULL) AS average,
            (SELECT count(*)::int FROM doctor_reviews r WHERE r.doctor_id = u.id
                AND NOT EXISTS (SELECT 1 FROM patient_doctors pd WHERE pd.patient_id = r.patient_id AND pd.doctor_id = r.doctor_id)) AS unrelated,
            (SELECT count(*)::int FROM doctor_reviews r JOIN patients pt ON pt.id = r.patient_id JOIN users a ON a.id = pt.user_id
              WHERE r.doctor_id = u.id AND a.email = 'patient@demo.example') AS by_demo_patient
       FROM users u JOIN doctor_profiles p ON p.tenant_id = u.tenant_id AND p.doctor_id = u.id
       JOIN tenants t ON t.id = u.tenant_id WHERE t.code = $1`,
    [DEMO_TENANT_CODE],
  );
  const demoDoctor = rows.find((row) => row.email === 'doctor@demo.example');
  expect(demoDoctor?.rating_count).toBeGreaterThanOrEqual(5);
  for (const row of rows) {
    expect(row.rating_count, row.email).toBe(row.counted);
    expect(Number(row.rating_average), row.email).toBe(Number(row.average ?? 0));
    expect(row.unrelated, row.email).toBe(0);
    expect(row.by_demo_patient, row.email).toBe(0);
  }
});

it('seeds Zero (the default), Basic for 6, 12 and 24 months and the monthly Silver and Gold; the demo patient on Basic, the relative on Zero', async () => {
  await seedDemo(testDb.database);
  const offer = await asOwner<{ code: string; plan: string | null; price_minor: number; currency: string; duration_months: number; is_default: boolean }>(
    testDb.ownerUrl,
    `SELECT code, plan, price_minor, currency, duration_months, is_default FROM service_packages ORDER BY price_minor`,
  );
  expect(offer).toEqual([
    { code: 'ZERO', plan: 'ZERO', price_minor: 0, currency: 'VND', duration_months: -1, is_default: true },
    // The mobile prices: 9.99 and 19.99 dollars a month.
    { code: 'SILVER1', plan: null, price_minor: 999, currency: 'USD', duration_months: 1, is_default: false },
    { code: 'GOLD1', plan: null, price_minor: 1999, currency: 'USD', duration_months: 1, is_default: false },
    // 14,000 ₫ a month for 6 months, 10,000 for 12, 8,000 for 24.
    { code: 'BASIC6', plan: null, price_minor: 84000, currency: 'VND', duration_months: 6, is_default: false },
    { code: 'BASIC12', plan: '12MCARE', price_minor: 120000, currency: 'VND', duration_months: 12, is_default: false },
    { code: 'BASIC24', plan: '24MCARE', price_minor: 192000, currency: 'VND', duration_months: 24, is_default: false },
  ]);

  const entitlementsOf = async (username: string) => {
    const login = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      payload: { tenant: DEMO_TENANT_CODE, username, password: DEMO_PASSWORD, grant_type: 'password', app: 'patient' },
    });
    const token = login.json<{ data: { accessToken: string } }>().data.accessToken;
    const response = await app.inject({ method: 'GET', url: '/health/me/subscription', headers: { authorization: `Bearer ${token}` } });
    return response.json<{ data: { entitlements: { package: { code: string } | null; subscription: { status: string } | null; features: string[]; hasWearable: boolean } } }>().data
      .entitlements;
  };
  expect(await entitlementsOf('patient@demo.example')).toMatchObject({
    package: { code: 'BASIC12' },
    subscription: { status: 'ACTIVE' },
    features: expect.arrayContaining(['VIDEO_CONSULTATION', 'PHOTO_ENTRY']) as unknown,
    hasWearable: true,
  });
  expect(await entitlementsOf(DEMO_RELATIVE_EMAIL)).toMatchObject({ package: { code: 'ZERO' }, subscription: null, features: ['CARE_PLAN'], hasWearable: false });

  // Every paid subscriber wears a watch (spec §6); the patient list's package column follows.
  const rows = await asOwner<{ code: string | null; subscribed: number; without_watch: number }>(
    testDb.ownerUrl,
    `SELECT p.package_code AS code, count(s.id)::int AS subscribed,
            count(*) FILTER (WHERE s.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.patient_id = p.id))::int AS without_watch
       FROM patients p LEFT JOIN subscriptions s ON s.patient_id = p.id AND s.status = 'ACTIVE'
      GROUP BY p.package_code ORDER BY p.package_code`,
  );
  expect(rows.map((row) => row.code)).toEqual(['BASIC12', 'BASIC24', 'BASIC6', 'ZERO']);
  expect(rows.find((row) => row.code === 'ZERO')?.subscribed).toBe(0);
  expect(rows.every((row) => row.without_watch === 0)).toBe(true);
  expect(rows.filter((row) => row.code !== 'ZERO').every((row) => row.subscribed > 0)).toBe(true);
});
