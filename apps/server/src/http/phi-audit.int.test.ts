import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { multipart } from '../../test/multipart.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, seedDemo } from '../seed/demo.js';
import { storeTestRecording } from '../modules/alerts/test-support.js';

/**
 * QUALITY "every read of patient data is audited": every GET route whose path concerns a patient
 * (PATIENT_ROUTE_RULE) is called, with real ids and filters that reach one seeded patient, and
 * each 200 answer must have written exactly one audit row (one INSERT per request) whose
 * details.patientIds names that patient. A route may only stay out by being listed in EXEMPT
 * with the reason its answer reveals no patient. Routes come from the app itself, so a new
 * patient route fails here until it is audited (or exempted, or taught how to be called).
 * GET routes outside the rule that take no id are also called, and their answers are searched for
 * the patient: one that shows the patient without auditing it fails too.
 */

/** The one rule: a GET route whose path matches any of these concerns a patient. */
const PATIENT_ROUTE_RULE: readonly RegExp[] = [
  /patient/i,
  /\/alerts\b/,
  /\/sos/,
  /ticket/,
  /contacts/,
  /messages/,
  /^\/health\//,
  /device/i,
  /phone/,
  /requests/,
  /appointment/,
  // Another account's photo or activity history: a patient's when that account is a patient's.
  /\/user\/:id\/avatar$/,
  /\/log\/history$/,
  // The patient app's own reads under /collector (its thresholds, for the entry warning).
  /^\/collector\/me\//,
];

/** Patient-looking routes whose answers name no patient, each with why. */
const EXEMPT: Record<string, string> = {
  'GET /account/doctor/getCountPatientStatus': 'counts of patients by status; no patient is named',
  'GET /account/doctor-assistant/get-count-patient-status':
    'counts of patients by status; no patient is named',
  'GET /account/operator/getCountPatientStatus': 'counts of patients by status; no patient is named',
  'GET /account/smadmin/mhsc/getCountPatientStatus': 'counts of patients by status; no patient is named',
  'GET /account/imports/templates/PATIENT': 'the empty import template (headers only)',
  'GET /account/imports/templates/DEVICE': 'the empty import template (headers only)',
  'GET /account/tickets/statistics': 'counts and averages of tickets; no ticket or patient is named',
  'GET /account/admin/doctor-requests': 'doctor registrations and deactivations: doctors, not patients',
  'GET /health/device/getDisconnectDeviceCount': 'one count of disconnected devices',
  'GET /health/device-connection-history/getDeviceNameList': 'distinct device names; no account or patient',
  'GET /health/phone-history/getPhoneNameList': 'distinct phone model names; no account or patient',
  'GET /health/phone-history/getAppVersionList': 'distinct app versions; no account or patient',
  'GET /health/thresholds/defaults': 'the tenant’s default thresholds; no patient',
  'GET /health/me/doctors': 'the patient app’s doctor search: the tenant’s doctors, no patient is named',
  'GET /account/appointments/:id/check-in': 'a signed token and the start time; no patient is named',
  'GET /health/me/doctors/:doctorId/slots': 'a doctor’s working slots, free or taken; no patient is named',
  'GET /health/me/feedback': 'the account’s own feedback about the product and the replies to it; no health data',
  'GET /health/me/feedback/:id/images/:imageId': 'an image the account itself attached to its feedback',
  'GET /health/me/packages': 'the tenant’s offer of packages and add-ons; no patient',
  'GET /health/me/doctors/:id/reviews': 'a doctor’s reviews as patients see them: the author’s initial only, no patient is named',
};

/** Role-gated lookups answer only the roles of their console area: who calls them. */
const CALLER_OF: Record<string, string> = {
  '/health/sadmin/device': 'super-admin@demo.example',
  '/health/cskh/device': 'cskh@demo.example',
  '/health/operator/device': 'operator@demo.example',
  '/health/doctor/device': 'doctor@demo.example',
  '/health/smadmin/mhsc/device': 'mhsc-admin@demo.example',
  '/health/me/latest': 'patient@demo.example',
  '/health/me/alerts/waiting': 'patient@demo.example',
  '/health/me/notifications': 'patient@demo.example',
  '/health/me/dashboard': 'patient@demo.example',
  '/health/me/data': 'patient@demo.example',
  '/health/me/sleep': 'patient@demo.example',
  '/health/me/sleep/:recordId': 'patient@demo.example',
  '/health/me/sleep/:recordId/osahs': 'patient@demo.example',
  '/collector/me/thresholds': 'patient@demo.example',
  '/health/me/sport': 'patient@demo.example',
  '/health/me/sport/:recordId': 'patient@demo.example',
  '/health/me/weight': 'patient@demo.example',
  '/health/me/devices': 'patient@demo.example',
  '/health/me/followers': 'patient@demo.example',
  // Accounts with the phones of two of the patient's followers: one invited, one that confirmed.
  '/health/me/invitations': 'invited-follower@demo.example',
  '/health/me/following': 'follower@demo.example',
  '/health/me/sub-users': 'patient@demo.example',
  '/health/me/profiles': 'patient@demo.example',
  '/health/me/doctors/:id': 'patient@demo.example',
  '/health/me/care-team': 'patient@demo.example',
  '/health/me/requests': 'patient@demo.example',
  '/health/me/prescriptions': 'patient@demo.example',
  '/health/me/prescriptions/:id': 'patient@demo.example',
  '/health/me/intakes': 'patient@demo.example',
  '/health/me/reminders': 'patient@demo.example',
  '/health/me/events': 'patient@demo.example',
  '/health/me/records': 'patient@demo.example',
  '/health/me/records/:recordId/files/:fileId': 'patient@demo.example',
  '/health/me/appointments': 'patient@demo.example',
  '/health/me/reviews': 'patient@demo.example',
  '/health/me/tickets': 'patient@demo.example',
  '/health/me/subscription': 'patient@demo.example',
  '/health/me/orders': 'patient@demo.example',
  '/health/me/orders/:code': 'patient@demo.example',
  '/health/me/appointments/:id': 'patient@demo.example',
  '/health/me/appointments/:id/video': 'patient@demo.example',
  // The video room is its two parties' only.
  '/account/appointments/:id/video': 'doctor@demo.example',
};

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-phi-audit-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 1),
]);
/** A real 1x1 PNG, for the account photo (photos are decoded). */
const PHOTO = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);

interface AuditRow extends Record<string, unknown> {
  action: string;
  actor_user_id: string | null;
  details: { patientIds?: string[] };
}

const auditRowsOf = (response: LightMyRequestResponse) =>
  asOwner<AuditRow>(
    testDb.ownerUrl,
    'SELECT action, actor_user_id, details FROM audit_log WHERE request_id = $1',
    [String(response.headers['x-request-id'])],
  );

async function one<T extends Record<string, unknown>>(sql: string, values: unknown[]): Promise<T> {
  const [row] = await asOwner<T>(testDb.ownerUrl, sql, values);
  if (row === undefined) throw new Error(`the seeded tenant has no row for: ${sql}`);
  return row;
}

const matchesRule = (url: string) => PATIENT_ROUTE_RULE.some((pattern) => pattern.test(url));

it('audits every read of a patient’s data with one row naming the patient', async () => {
  await seedDemo(testDb.database);
  const { id: tenantId } = await one<{ id: string }>('SELECT id FROM tenants WHERE code = $1', [
    DEMO_TENANT_CODE,
  ]);
  const operator = await one<{ id: string; health_center_id: string }>(
    `SELECT id, health_center_id FROM users WHERE tenant_id = $1 AND email = 'operator@demo.example'`,
    [tenantId],
  );
  // A patient of the center the center-bound roles work in, with an SOS case (and so a ticket,
  // alerts and messages), followers, a bound watch and a phone history.
  const patient = await one<{ id: string; patient_code: string }>(
    `SELECT p.id, p.patient_code FROM patients p
      WHERE p.tenant_id = $1 AND p.health_center_id = $2 AND p.account_state = 'ACTIVE'
        AND EXISTS (SELECT 1 FROM sos_cases c WHERE c.patient_id = p.id)
        AND EXISTS (SELECT 1 FROM tickets t WHERE t.patient_id = p.id)
        AND EXISTS (SELECT 1 FROM patient_contacts f WHERE f.patient_id = p.id)
        AND EXISTS (SELECT 1 FROM devices d WHERE d.patient_id = p.id)
        AND EXISTS (SELECT 1 FROM phone_history h WHERE h.patient_id = p.id)
      ORDER BY p.patient_code LIMIT 1`,
    [tenantId, operator.health_center_id],
  );
  const sosCase = await one<{ id: string }>('SELECT id FROM sos_cases WHERE patient_id = $1 LIMIT 1', [
    patient.id,
  ]);
  const ticket = await one<{ id: string }>('SELECT id FROM tickets WHERE patient_id = $1 LIMIT 1', [
    patient.id,
  ]);
  // A voice recording the patient attached to the case (the SOS case page plays it).
  const recordingId = await storeTestRecording(testDb.ownerUrl, dataDir, { tenantId, patientId: patient.id, sosCaseId: sosCase.id });
  const device = await one<{ id: string; account_username: string }>(
    'SELECT id, account_username FROM devices WHERE patient_id = $1 LIMIT 1',
    [patient.id],
  );
  const connection = await one<{ username: string }>(
    'SELECT username FROM device_connection_history WHERE device_id = $1 LIMIT 1',
    [device.id],
  );
  const phone = await one<{ username: string }>(
    'SELECT username FROM phone_history WHERE patient_id = $1 LIMIT 1',
    [patient.id],
  );
  const doctor = await one<{ id: string }>(
    `SELECT id FROM users WHERE tenant_id = $1 AND email = 'doctor@demo.example'`,
    [tenantId],
  );
  // The patient's own account (with a photo), for the account routes that show it.
  const patientUser = await one<{ id: string; email: string }>(
    `SELECT u.id, u.email FROM users u JOIN patients p ON p.user_id = u.id WHERE p.id = $1
      UNION ALL SELECT id, email FROM users WHERE tenant_id = $2 AND email = 'patient@demo.example'
      LIMIT 1`,
    [patient.id, tenantId],
  );
  await asOwner(testDb.ownerUrl, 'UPDATE patients SET user_id = NULL WHERE user_id = $1 AND id <> $2', [patientUser.id, patient.id]);
  await asOwner(testDb.ownerUrl, 'UPDATE patients SET user_id = $1 WHERE id = $2', [patientUser.id, patient.id]);
  // Two app accounts with the phones of the patient's first two followers (the demo password): one
  // still invited, one that confirmed (its grant comes with the confirmed row).
  const [invitedContact, confirmedContact] = await asOwner<{ id: string; phone: string }>(
    testDb.ownerUrl,
    'SELECT id, phone FROM patient_contacts WHERE patient_id = $1 ORDER BY created_at, id LIMIT 2',
    [patient.id],
  );
  for (const [email, contact] of [['invited-follower@demo.example', invitedContact], ['follower@demo.example', confirmedContact]] as const) {
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO users (tenant_id, id, email, phone, first_name, last_name, role, password_hash)
       SELECT tenant_id, $2, $3, $4, 'Demo', 'Follower', 'PATIENT', password_hash FROM users WHERE id = $1`,
      [patientUser.id, uuidv7(), email, contact?.phone ?? ''],
    );
  }
  await asOwner(
    testDb.ownerUrl,
    `UPDATE patient_contacts SET invitation_status = 'CONFIRMED', confirmed_at = now(),
            follower_user_id = (SELECT id FROM users WHERE email = 'follower@demo.example') WHERE id = $1`,
    [confirmedContact?.id ?? ''],
  );

  const tokens = new Map<string, string>();
  const tokenOf = async (login: string) => {
    const known = tokens.get(login);
    if (known !== undefined) return known;
    const token = await logIn(app, DEMO_TENANT_CODE, login, DEMO_PASSWORD);
    tokens.set(login, token);
    return token;
  };
  const admin = await tokenOf('admin@demo.example');
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      ...withSession(admin),
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response;
  };

  // What the seed lacks for this patient, added through the API: a file, vitals with an ECG, a
  // night of sleep and a sport session, and a request to a doctor.
  const record = await call('POST', `/account/patients/${patient.id}/records`, {
    title: 'Blood test',
    type: 'RESULT_CARD',
    examinationDate: '2026-01-05',
  });
  const medicalRecordId = record.json<{ data: { id: string } }>().data.id;
  const upload = multipart([{ name: 'file', filename: 'scan.png', content: PNG, contentType: 'image/png' }]);
  const uploaded = await app.inject({
    method: 'POST',
    url: `/account/patients/${patient.id}/records/${medicalRecordId}/files`,
    payload: upload.payload,
    headers: upload.headers,
    ...withSession(admin),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const fileId = uploaded.json<{ data: { id: string } }>().data.id;
  const photo = multipart([{ name: 'file', filename: 'photo.png', content: PHOTO, contentType: 'image/png' }]);
  const photoUploaded = await app.inject({
    method: 'POST',
    url: `/account/admin/user/adminUploadAvatarForUser?username=${encodeURIComponent(patientUser.email)}`,
    payload: photo.payload,
    headers: photo.headers,
    ...withSession(admin),
  });
  expect(photoUploaded.statusCode, photoUploaded.body).toBe(200);
  const at = new Date(Date.now() - 60 * 60_000);
  const ago = (minutes: number) => new Date(at.getTime() - minutes * 60_000).toISOString();
  await call('POST', '/collector/readings', {
    batchId: uuidv7(),
    patientId: patient.id,
    readings: [{ measure: 'HEART_RATE', value: 72, measuredAt: at.toISOString(), source: 'WIRELESS_DEVICE' }],
    ecg: [
      {
        measuredAt: at.toISOString(),
        durationSeconds: 1,
        sampleRate: 100,
        samples: Array.from({ length: 100 }, (_, index) => Math.sin(index / 10)),
        averageHeartRate: 72,
        hrv: 40,
        qt: 400,
        respirationRate: 14,
      },
    ],
    sleep: [
      {
        startAt: ago(600),
        endAt: ago(120),
        totalMinutes: 420,
        deepMinutes: 80,
        lightMinutes: 240,
        remMinutes: 100,
        wakeCount: 1,
        stages: [{ stage: 'LIGHT', from: ago(600), to: ago(500) }],
      },
    ],
    sport: [{ sport: 'RUN', startAt: ago(200), practiceSeconds: 1800, steps: 4000, calories: 300 }],
  });
  const ecg = await one<{ id: string }>('SELECT id FROM ecg_records WHERE patient_id = $1 LIMIT 1', [
    patient.id,
  ]);
  const sleep = await one<{ id: string }>('SELECT id FROM sleep_records WHERE patient_id = $1 LIMIT 1', [
    patient.id,
  ]);
  const sport = await one<{ id: string }>('SELECT id FROM sport_records WHERE patient_id = $1 LIMIT 1', [
    patient.id,
  ]);
  await asOwner(testDb.ownerUrl, 'DELETE FROM patient_doctors WHERE patient_id = $1 AND doctor_id = $2', [
    patient.id,
    doctor.id,
  ]);
  await call('POST', '/account/requests', {
    kind: 'PATIENT_REQUEST',
    patientId: patient.id,
    doctorId: doctor.id,
    relation: 'SPECIALIST',
  });

  // A prescription with a medicine and a dose today, stored as the owner (writing one takes a doctor of the patient's center).
  const prescriptionId = uuidv7();
  const medicineId = uuidv7();
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, created_by, created_at)
       VALUES ($1, $2, $3, 'Plan', $4, '2026-01-01', '2099-12-31', $4, now())`,
    [tenantId, prescriptionId, patient.id, doctor.id],
  );
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO prescription_medicines (tenant_id, id, prescription_id, patient_id, position, name, dose, dose_unit, route, form, frequency_cycle, meal, mode)
       VALUES ($1, $2, $3, $4, 0, 'Paracetamol', 1, 'PILL', 'ORAL', 'TABLET', 'DAY', 'ANYTIME', 'ON_DEMAND')`,
    [tenantId, medicineId, prescriptionId, patient.id],
  );

  // An appointment of the patient with the demo doctor, in the doctor's approved demo schedule (any
  // schedule day and hour will do for reading it), stored as the owner.
  const appointmentId = uuidv7();
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, created_at, updated_at)
       SELECT $1, $2, $3, $4, s.id, now() + interval '1 day', now() + interval '1 day 30 minutes', 'Review', 'CLINIC', 'UPCOMING', now(), now()
         FROM doctor_schedules s WHERE s.doctor_id = $4 AND s.status = 'APPROVED' LIMIT 1`,
    [tenantId, appointmentId, patient.id, doctor.id],
  );

  // An order the patient paid for (stored as the owner): the order history shows the patient.
  const orderCode = 'ORD260101PHIAUDIT01';
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO orders (tenant_id, id, code, patient_id, customer_name, package_name, type, status, currency, subtotal_minor, discount_minor, tax_rate, tax_minor, total_minor,
                         method, purchase_channel, retail_channel, result, created_at, expires_at, completed_at, updated_at)
       VALUES ($1, $2, $3, $4, 'Demo Patient', 'Basic 6 months', 'SERVICE_PACKAGE', 'SUCCESS', 'VND', 84000, 0, 0, 0, 84000,
               'SANDBOX', 'APP', 'DIRECT', 'success', now(), now(), now(), now())`,
    [tenantId, uuidv7(), orderCode, patient.id],
  );

  // How each path parameter and required filter is filled so the answer reaches the patient.
  const idOf = (url: string, name: string): string | undefined => {
    if (name === 'patientId') return patient.id;
    if (name === 'code' && url.startsWith('/health/me/orders/')) return orderCode;
    if (name === 'fileId') return fileId;
    if (name === 'prescriptionId') return prescriptionId;
    if (name === 'recordingId') return recordingId;
    if (name === 'recordId')
      return url.includes('/ecg/')
        ? ecg.id
        : url.includes('/sleep/')
          ? sleep.id
          : url.includes('/sport/')
            ? sport.id
            : url.includes('/records/')
              ? medicalRecordId
              : undefined;
    if (name !== 'id') return undefined;
    if (url.startsWith('/account/patients/')) return patient.id;
    if (url.startsWith('/account/sos-cases/')) return sosCase.id;
    if (url.startsWith('/account/tickets/')) return ticket.id;
    if (url.startsWith('/account/devices/')) return device.id;
    if (url.startsWith('/account/user/')) return patientUser.id;
    if (url.startsWith('/health/me/doctors/')) return doctor.id;
    if (url.startsWith('/health/me/prescriptions/')) return prescriptionId;
    if (url.startsWith('/account/appointments/') || url.startsWith('/health/me/appointments/')) return appointmentId;
    return undefined;
  };
  const deviceSearch = `search=${encodeURIComponent(device.account_username)}`;
  const QUERY: Record<string, string> = {
    '/account/patients': `search=${patient.patient_code}`,
    '/account/appointments': `search=${patient.patient_code}`,
    '/account/patients/export': `search=${patient.patient_code}`,
    '/account/sos-cases': `search=${patient.patient_code}`,
    '/account/tickets': `search=${patient.patient_code}`,
    '/account/messages': `search=${patient.patient_code}`,
    '/account/requests': 'box=sent',
    '/health/me/requests': 'box=sent',
    '/account/log/history': `userId=${patientUser.id}`,
    '/account/devices': deviceSearch,
    '/account/devices/export': deviceSearch,
    '/health/admin/device': deviceSearch,
    '/health/sadmin/device': deviceSearch,
    '/health/cskh/device': deviceSearch,
    '/health/operator/device': deviceSearch,
    '/health/doctor/device': deviceSearch,
    '/health/smadmin/mhsc/device': `mhscId=${operator.health_center_id}&${deviceSearch}`,
    '/health/device/getUserDevicesByUsername': `username=${encodeURIComponent(device.account_username)}`,
    '/health/device-connection-history/searchByUsername': `username=${encodeURIComponent(connection.username)}`,
    '/health/phone-history/searchByUsername': `username=${encodeURIComponent(phone.username)}`,
    '/health/phone/get-all': `username=${encodeURIComponent(phone.username)}`,
    '/health/me/data': `measure=HEART_RATE&view=day&date=${at.toISOString().slice(0, 10)}`,
    '/health/patients/:patientId/data': new URLSearchParams({
      measure: 'HEART_RATE',
      view: 'day',
      from: new Date(at.getTime() - 12 * 60 * 60_000).toISOString(),
      to: new Date(at.getTime() + 60_000).toISOString(),
    }).toString(),
  };

  const getRoutes = app.apiRoutes.filter((route) => route.method === 'GET');
  const keyOf = (url: string) => `GET ${url}`;
  // An exemption must still name a route of the rule (a stale one would hide nothing).
  expect(
    Object.keys(EXEMPT).filter(
      (key) => !getRoutes.some((route) => keyOf(route.url) === key && matchesRule(route.url)),
    ),
  ).toEqual([]);

  const patientRoutes = getRoutes.filter(
    (route) => matchesRule(route.url) && EXEMPT[keyOf(route.url)] === undefined,
  );
  const problems: string[] = [];
  const unaudited: string[] = [];
  let checked = 0;
  for (const route of patientRoutes) {
    const unfilled: string[] = [];
    const filled = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = idOf(route.url, name);
      if (value === undefined) unfilled.push(name);
      return value ?? '';
    });
    if (unfilled.length > 0) {
      problems.push(`${route.url}: no id for its parameters (teach idOf, or exempt it with a reason)`);
      continue;
    }
    const query = QUERY[route.url];
    const token = await tokenOf(CALLER_OF[route.url] ?? 'admin@demo.example');
    const response = await app.inject({ url: query ? `${filled}?${query}` : filled, ...withSession(token) });
    if (response.statusCode !== 200) {
      problems.push(
        `${route.url}: ${response.statusCode} ${response.body.slice(0, 200)} (give it a query or exempt it)`,
      );
      continue;
    }
    checked++;
    const rows = await auditRowsOf(response);
    if (rows.length !== 1)
      problems.push(`${route.url}: ${rows.length} audit rows for one request (one expected)`);
    if (
      !rows.some((row) => row.actor_user_id !== null && row.details.patientIds?.includes(patient.id) === true)
    )
      unaudited.push(`${route.url} (${rows.map((row) => row.action).join(', ') || 'no audit row'})`);
  }

  // GET routes outside the rule that need no id: an answer showing the patient must be audited too.
  let scanned = 0;
  for (const route of getRoutes.filter(
    (candidate) => !matchesRule(candidate.url) && !candidate.url.includes(':'),
  )) {
    const response = await app.inject({ url: route.url, ...withSession(admin) });
    if (response.statusCode !== 200) continue;
    scanned++;
    if (!response.body.includes(patient.id) && !response.body.includes(patient.patient_code)) continue;
    const rows = await auditRowsOf(response);
    if (!rows.some((row) => row.details.patientIds?.includes(patient.id) === true))
      unaudited.push(`${route.url} (outside the rule, shows the patient, not audited)`);
  }

  console.log(
    `PHI audit: ${patientRoutes.length} patient routes, ${checked} checked with 200, ${unaudited.length} reads without an audit row naming the patient, ${Object.keys(EXEMPT).length} exempt, ${scanned} other GET routes scanned`,
  );
  expect(problems).toEqual([]);
  expect(unaudited).toEqual([]);
  expect(checked).toBe(patientRoutes.length);
  expect(checked).toBeGreaterThanOrEqual(30);

  // A failed read writes nothing: the audit row belongs to the read's own transaction.
  const missing = await app.inject({ url: `/account/sos-cases/${uuidv7()}`, ...withSession(admin) });
  expect(missing.statusCode).toBe(404);
  expect(await auditRowsOf(missing)).toEqual([]);
  // A page of many patients is still one row, naming each of them.
  const page = await app.inject({ url: '/account/patients?size=20', ...withSession(admin) });
  const shown = page.json<{ data: { items: { id: string }[] } }>().data.items.map((item) => item.id);
  expect(shown).toHaveLength(20);
  const rows = await auditRowsOf(page);
  expect(rows).toHaveLength(1);
  expect(rows[0]?.details.patientIds).toEqual(shown);
}, 300_000);
