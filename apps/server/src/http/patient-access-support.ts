import {
  DEFAULT_ROLE_PERMISSIONS,
  FOLLOWER_DATA_KINDS,
  isPatientRole,
  PATIENT_RELATIONS,
  PLATFORM_ROLES,
  ROLE_PLACEMENT,
  TENANT_ROLES,
  type PatientAccessSubject,
  type PatientData,
  type PatientFacts,
  type PatientRelation,
  type RoleCode,
} from '@rpm/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { logIn, withSession } from '../../test/app.js';
import type { OwnerPool, TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPatient, createPlatformUser, createTenant, createTenantUser } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { platformStaffTenants, scopes } from '../db/schema.js';
import { storeTestRecording } from '../modules/alerts/test-support.js';
import { patientBody } from '../modules/patients/test-support.js';
import type { Access } from './access.js';
import { accessGrants } from './access.js';

/**
 * The world of the patient access tests (patient-access*.int.test.ts): a tenant with two centers
 * (one in a scope) and a second tenant; every role placed where it works, signed in; one patient
 * per relation with data of every kind; and the tables that say which routes concern a patient,
 * how to address each one for a patient, and what part of a patient's data each one touches.
 */

export type Method = NonNullable<InjectOptions['method']>;
const suffix = () => randomBytes(4).toString('hex');
const phone = () => `09${String(parseInt(suffix(), 16)).padStart(8, '0').slice(0, 8)}`;
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A caller of the tests: a role placed where it works, signed in, with its subject of the rule. */
export interface Caller {
  name: string;
  role: RoleCode;
  token: string;
  subject: PatientAccessSubject;
}

/** One patient of a relation to the callers, with the ids of its objects. */
export interface Fixture {
  relation: PatientRelation;
  facts: PatientFacts;
  patientId: string;
  centerId: string | null;
  /** A token of an admin of the patient's tenant, to make the patient's objects. */
  adminToken: string;
  doctorId: string;
  ids: Record<string, string>;
}

/** How to fill a route's path and body for a patient. */
export interface Target {
  url: string;
  payload?: unknown;
  multipart?: boolean;
}

/**
 * Answers refused for access: permission denied, or not found (what an invisible patient is), or
 * for a patient account a change through the profile of a patient it only follows (read only).
 */
export const isRefusal = (status: number, code: string | undefined) =>
  (status === 403 && (code === 'auth.permissionDenied' || code === 'profile.readOnly' || code === 'video.notAParty')) || status === 404;

export const HEART_RATE_MARK = 71.375;
/** The day of each fixture's one dose (the dose lists are asked for that day). */
export const INTAKE_DAY = '2026-12-01';
export const THRESHOLD_MARK = 41.125;
const DAILY = { times: [{ label: 'Morning', time: '08:00' }], repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] }, startDate: '2026-01-01', endDate: null };

// Routes with a path parameter that do not address a patient's data, each with its reason. A new
// route with a parameter must be placed in one list or the other.
export const NOT_PATIENT_DATA: RegExp[] = [
  /^\/manage\//, // tenants, scopes, centers, staff, trial requests: the organisation, not patients
  /^\/account\/schedules\b/, // doctors' working hours: staff, not patients
  /^\/account\/(role|roles|admin|user|doctor|doctors|centers|scopes|levels|imports|requests|care-requests|doctor-requests)\b/,
  /^\/account\/packages\b/, // the tenant's offer of packages and add-ons: no patient
  // Scratch-card batches and their codes (transaction.view / manage: whole-tenant admins and
  // customer care); a used code names its account, and the list is audited as a read of it.
  /^\/account\/(code-packages|activation-codes)\b/,
  // Orders by their own id, coupons and CDR files (transaction.view / export / manage: whole-tenant
  // admins and customer care): an order is seen only with its patient (the database's
  // center_visibility and not_followers on orders; modules/orders tests), and every read is audited.
  /^\/account\/(transactions|coupons)\b/,
  /^\/account\/(sadmin|smadmin)\/(mhsc|system-admin)\b/, // health centers, scopes and platform staff
  // Feedback about the product: the sender's own (by session) or customer care's (user.feedback,
  // the centers it sees); no health data of a patient (modules/feedback/feedback.int.test.ts).
  /^\/account\/feedback\b/,
  /^\/health\/(device|phone|device-connection-history|phone-history)\b/,
  /^\/auth\//,
  // The caller's own records, found from the session (and its profile header: the reads are
  // checked below): another patient's id is not found (vitals/sport-routes.int.test.ts).
  /^\/health\/me\//,
  // Reviews of doctors: seen where both the doctor and the author are (the database's rule), by
  // staff holding staff.view; reviews/integration tests check the authors' centers and tenants.
  /^\/account\/reviews\//,
  // An announcement, read only by an account its notice names (modules/announcements tests): the
  // organisation's words to its people, no patient's data.
  /^\/notification\/announcements\/:id$/,
];
export const bodyPatientRoutes = new Set(['POST /account/tickets', 'POST /collector/readings', 'POST /health/manual', 'POST /health/sos/hotline', 'PUT /account/devices/:id/bind']);

// A patient route is allowed when the permission catalogue grants the call (a patient's own
// session may send its own readings, manual entries and hotline calls) and the rule lets the
// caller read the patient.
const SERVICE_PERMISSION: Record<string, string> = { 'POST /collector/readings': 'health.update', 'POST /health/manual': 'health.update' };
export const isPermitted = (caller: Caller, method: string, url: string, access: Access) => {
  const held = DEFAULT_ROLE_PERMISSIONS[caller.role] as readonly string[];
  const needed = SERVICE_PERMISSION[`${method} ${url}`];
  if (needed !== undefined) return isPatientRole(caller.role) || held.includes(needed);
  return accessGrants(access, held);
};

// What part of a patient's data each route reads or changes (contracts PatientData), which is what
// decides a follower's read. Anything not listed is private: a follower is refused it.
const PATIENT_DATA: { pattern: RegExp; data: PatientData }[] = [
  { pattern: /^\/account\/patients\/:id(\/status)?$/, data: 'record' },
  // A follower reads the patient's contacts list with its own row only (the database's not_followers).
  { pattern: /^\/account\/patients\/:patientId\/contacts(\/:id)?$/, data: 'record' },
  { pattern: /^\/account\/patients\/:patientId\/alerts$/, data: 'alerts' },
  { pattern: /^\/account\/patients\/:patientId\/sos$|^\/health\/sos\/hotline$|^\/account\/sos-cases\/:id(\/[a-z]+)?$/, data: 'sos' },
  { pattern: /^\/health\/patients\/:patientId\/ecg(\/:recordId)?$/, data: 'ECG' },
  { pattern: /^\/health\/patients\/:patientId\/sleep(\/:recordId)?$/, data: 'SLEEP' },
  { pattern: /^\/health\/patients\/:patientId\/sport$/, data: 'ACTIVITY' },
  { pattern: /^\/health\/patients\/:patientId\/data$|^\/collector\/readings$|^\/health\/manual$/, data: 'HEART_RATE' },
  // The status with the latest value of each measure: the database leaves out the hidden kinds.
  { pattern: /^\/health\/patients\/:patientId\/latest$/, data: 'record' },
];
export const dataOf = (url: string): PatientData => PATIENT_DATA.find((entry) => entry.pattern.test(url))?.data ?? 'private';
// Lists of health data: the fixture's record in the body exactly when the caller may read its kind.
export const LIST_MARKS: { pattern: RegExp; mark: (fixture: Fixture) => string }[] = [
  { pattern: /^\/health\/patients\/:patientId\/ecg$/, mark: (f) => f.ids.ecgId ?? '' },
  { pattern: /^\/health\/patients\/:patientId\/sleep$/, mark: (f) => f.ids.sleepId ?? '' },
  { pattern: /^\/health\/patients\/:patientId\/sport$/, mark: (f) => f.ids.sportId ?? '' },
  { pattern: /^\/health\/patients\/:patientId\/data$/, mark: () => String(HEART_RATE_MARK) },
  // Private: the patient's own thresholds (a follower's answer falls back to the tenant's).
  { pattern: /^\/health\/patients\/:patientId\/thresholds$/, mark: () => String(THRESHOLD_MARK) },
  // Private: the care plan (a follower's answer is an empty list: the database keeps it from followers).
  { pattern: /^\/health\/patients\/:patientId\/prescriptions$/, mark: (f) => f.ids.prescriptionId ?? '' },
  { pattern: /^\/health\/patients\/:patientId\/intakes$/, mark: (f) => f.ids.intakeId ?? '' },
  { pattern: /^\/health\/patients\/:patientId\/reminders$/, mark: (f) => f.ids.reminderId ?? '' },
  { pattern: /^\/health\/patients\/:patientId\/events$/, mark: (f) => f.ids.eventId ?? '' },
  // Private: medical records (a follower never reaches them: no staff permission).
  { pattern: /^\/account\/patients\/:id\/records$/, mark: (f) => f.ids.recordId ?? '' },
];

// The app's self reads (GET /health/me/…), which work on the session's profile, and the part of
// the patient's data each shows (marked by the fixture's object it lists). Reads of the account
// itself, where the profile header plays no part, are ACCOUNT_READS.
export const SELF_READS: { pattern: RegExp; data?: PatientData; mark?: (fixture: Fixture) => string }[] = [
  { pattern: /^\/health\/me\/sleep$/, data: 'SLEEP', mark: (f) => f.ids.sleepId ?? '' },
  { pattern: /^\/health\/me\/sport$/, data: 'ACTIVITY', mark: (f) => f.ids.sportId ?? '' },
  { pattern: /^\/health\/me\/devices$/, data: 'private', mark: (f) => f.ids.deviceId ?? '' },
  { pattern: /^\/health\/me\/care-team$/, data: 'private', mark: (f) => f.doctorId },
  // A follower sees its own contact among the patient's followers, no other.
  { pattern: /^\/health\/me\/followers$/, data: 'private', mark: (f) => f.ids.contactId ?? '' },
  { pattern: /^\/health\/me\/prescriptions$/, data: 'private', mark: (f) => f.ids.prescriptionId ?? '' },
  { pattern: /^\/health\/me\/intakes$/, data: 'private', mark: (f) => f.ids.intakeId ?? '' },
  { pattern: /^\/health\/me\/reminders$/, data: 'private', mark: (f) => f.ids.reminderId ?? '' },
  { pattern: /^\/health\/me\/events$/, data: 'private', mark: (f) => f.ids.eventId ?? '' },
  { pattern: /^\/health\/me\/records$/, data: 'private', mark: (f) => f.ids.recordId ?? '' },
  { pattern: /^\/health\/me\/appointments$/, data: 'private', mark: (f) => f.ids.appointmentId ?? '' },
  { pattern: /^\/health\/me\/reviews$/, data: 'private' },
  // What the patient pays for is its own business: a follower reads nothing of it.
  { pattern: /^\/health\/me\/subscription$/, data: 'private' },
  { pattern: /^\/health\/me\/orders$/, data: 'private' },
  // Tickets are the patient's own business: a follower's list is empty.
  { pattern: /^\/health\/me\/tickets$/, data: 'private', mark: (f) => f.ids.ticketId ?? '' },
  { pattern: /^\/health\/me\/(latest|dashboard|data|weight|alerts\/waiting|notifications|requests)$/ },
];
export const ACCOUNT_READS = /^\/health\/me\/(invitations|following|sub-users|profiles|doctors|feedback|packages)$/;

export type PatientAccessWorld = Awaited<ReturnType<typeof setUpPatientAccess>>;

/**
 * Makes the world: tenants, centers, callers, one patient per relation, and `targetOf`, which fills
 * a route's path and body for a patient (a fresh object where the call may remove or move what it
 * addresses). Owner statements go through `owner`, whose connections stay open.
 */
export async function setUpPatientAccess(testDb: TestDatabase, owner: OwnerPool, app: FastifyInstance) {
  const { database } = testDb;
  const tenant = await createTenant(database);
  const far = await createTenant(database);
  const centerA = await createHealthCenter(database, tenant.id);
  const centerB = await createHealthCenter(database, tenant.id);
  const farCenter = await createHealthCenter(database, far.id);
  const scopeId = randomUUID();
  await database.withTenant(tenant.id, (tx) => tx.insert(scopes).values({ tenantId: tenant.id, id: scopeId, name: 'Region', level: 1 }));
  await owner.query('UPDATE health_centers SET scope_id = $1 WHERE id = $2', [scopeId, centerA.id]);
  const admin = await createTenantUser(database, tenant.id, { role: 'ADMIN' });
  const farAdmin = await createTenantUser(database, far.id, { role: 'ADMIN' });
  const adminToken = await logIn(app, tenant.code, admin.email ?? '');
  const farAdminToken = await logIn(app, far.code, farAdmin.email ?? '');
  const patientUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA.id });

  // The callers: every role placed where it works; roles that may work tenant-wide or in one
  // center, both ways. Each with its subject of the rule, derived from its placement.
  const callers: Caller[] = [];
  for (const role of TENANT_ROLES) {
    const placement = ROLE_PLACEMENT[role];
    const ways: ('center' | 'scope' | 'tenant' | 'own')[] =
      placement === 'none' ? ['own'] : placement === 'center' ? ['center'] : placement === 'scope' ? ['scope'] : placement === 'tenantOrCenter' ? ['center', 'tenant'] : ['tenant'];
    for (const way of ways) {
      const user =
        way === 'own'
          ? patientUser
          : await createTenantUser(database, tenant.id, {
              role,
              ...(way === 'center' ? { healthCenterId: centerA.id } : way === 'scope' ? { scopeId } : {}),
            });
      callers.push({
        name: `${role}@${way}`,
        role,
        token: await logIn(app, tenant.code, user.email ?? ''),
        subject: isPatientRole(role) ? { kind: 'patient', userId: user.id } : { kind: 'staff', centers: way === 'tenant' ? 'all' : [centerA.id] },
      });
    }
  }
  for (const role of PLATFORM_ROLES) {
    const user = await createPlatformUser(database, { role });
    if (role === 'SYSTEM_ADMIN') await database.system.insert(platformStaffTenants).values({ userId: user.id, tenantId: tenant.id });
    callers.push({ name: `${role}@platform`, role, token: await logIn(app, tenant.code, user.email ?? ''), subject: { kind: 'staff', centers: 'all' } });
  }

  // The patients, one per relation, each with a doctor of its center, a follower, an SOS case and
  // its ticket, a file, an ECG and a sleep record, and a bound watch.
  async function makePatient(tenantId: string, centerId: string | null, userId: string | null, holderUserId: string | null = null) {
    return createPatient(database, tenantId, {
      healthCenterId: centerId,
      userId,
      birthday: '1960-01-01',
      phone: phone(),
      ...(holderUserId === null ? {} : { accountKind: 'SUB_USER', holderUserId, relation: 'CHILD' }),
    });
  }
  const callAs = (token: string, method: Method, url: string, payload?: unknown) =>
    app.inject({ method, url, ...withSession(token), ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });
  const okData = async <T>(response: ReturnType<typeof callAs>): Promise<T> => {
    const answer = await response;
    if (answer.statusCode !== 200) throw new Error(`fixture call failed: ${String(answer.statusCode)} ${answer.body}`);
    return answer.json<{ data: T }>().data;
  };
  const contactBody = () => ({ contactType: 'CARING', name: 'Lan', phone: phone(), relationship: 'FRIEND', favourite: false });
  const newContact = async (fixture: Pick<Fixture, 'adminToken' | 'patientId'> & { ids?: Record<string, string> }) => {
    // At most 5 of a kind per patient: make room, keeping the fixture's own follower.
    // The patient account's own contact (followed relations) stays.
    await owner.query('DELETE FROM patient_contacts WHERE patient_id = $1 AND id::text <> $2 AND follower_user_id IS NULL', [fixture.patientId, fixture.ids?.contactId ?? '']);
    const contact = await okData<{ id: string }>(callAs(fixture.adminToken, 'POST', `/account/patients/${fixture.patientId}/contacts`, contactBody()));
    return contact.id;
  };
  const recordBody = { title: 'Blood test', type: 'RESULT_CARD', examinationDate: '2026-01-05' };
  const newRecord = async (fixture: Pick<Fixture, 'adminToken' | 'patientId'>, examinationDate = recordBody.examinationDate) =>
    (await okData<{ id: string }>(callAs(fixture.adminToken, 'POST', `/account/patients/${fixture.patientId}/records`, { ...recordBody, examinationDate }))).id;
  const newFile = async (fixture: Pick<Fixture, 'adminToken' | 'patientId'>, recordId: string) => {
    const form = multipart([{ name: 'file', filename: 'scan.png', contentType: 'image/png', content: PNG }]);
    const answer = await app.inject({
      method: 'POST',
      url: `/account/patients/${fixture.patientId}/records/${recordId}/files`,
      ...withSession(fixture.adminToken),
      payload: form.payload,
      headers: form.headers,
    });
    if (answer.statusCode !== 200) throw new Error(`file not attached: ${answer.body}`);
    return answer.json<{ data: { id: string } }>().data.id;
  };
  // Appointments of a fixture's patient with its doctor, stored as the owner in an approved schedule
  // of that doctor: each at its own time (the doctor's next half hour of the day: 1 + 17 callers'
  // of 46), so changes (transitions) get one of their own.
  const slotsTaken = new Map<string, number>();
  const newAppointment = async (fixture: Pick<Fixture, 'patientId' | 'doctorId' | 'centerId' | 'facts'>) => {
    const id = randomUUID();
    const slot = (slotsTaken.get(fixture.doctorId) ?? 0) + 1;
    slotsTaken.set(fixture.doctorId, slot);
    await owner.query(
      `WITH schedule AS (
         INSERT INTO doctor_schedules (tenant_id, id, doctor_id, health_center_id, kind, start_date, end_date, weekdays, start_time, end_time, slot_minutes, time_zone, status, requested_at)
         VALUES ($1, $2, $3, $4, 'SINGLE', current_date + 30, current_date + 30, ARRAY[extract(isodow FROM current_date + 30)::smallint], '00:00', '23:30', 30, 'UTC', 'APPROVED', now())
         RETURNING id)
       INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, created_at, updated_at)
       SELECT $1, $5, $6, $3, schedule.id, (current_date + 30) + make_interval(mins => $7 * 30), (current_date + 30) + make_interval(mins => $7 * 30 + 30), 'Review', 'CLINIC', 'UPCOMING', now(), now()
         FROM schedule`,
      [fixture.facts.tenantId, randomUUID(), fixture.doctorId, fixture.centerId, id, fixture.patientId, slot % 46],
    );
    return id;
  };
  const newDevice = async (tenantId: string, patientId: string | null) => {
    const id = randomUUID();
    const mac = randomBytes(6).toString('hex').toUpperCase().match(/../g)?.join(':') ?? '';
    await owner.query(
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, $2, 'V19', $3, $4, $5)`,
      [tenantId, id, `S${suffix()}`, mac, patientId],
    );
    return id;
  };
  // The tenant's free default package (a subscription to it needs no wearable and writes no row).
  const defaultPackage = async (tenantId: string) => {
    await owner.query(
      `INSERT INTO service_packages (tenant_id, id, code, kind, name, plan, price_minor, currency, duration_months, is_default, created_at, updated_at)
         VALUES ($1, gen_random_uuid(), 'ZERO', 'PACKAGE', 'Zero', 'ZERO', 0, 'VND', -1, true, now(), now()) ON CONFLICT DO NOTHING`,
      [tenantId],
    );
    const [row] = await owner.query<{ id: string }>('SELECT id FROM service_packages WHERE tenant_id = $1 AND is_default', [tenantId]);
    return row?.id ?? '';
  };

  let ticketNumber = 900_000;
  // A prescription with one medicine on schedule and one dose due on INTAKE_DAY, stored as the owner.
  const newPrescription = async (fixture: Pick<Fixture, 'facts' | 'patientId' | 'doctorId'>) => {
    const id = randomUUID();
    const medicineId = randomUUID();
    const { tenantId } = fixture.facts;
    await owner.query(
      `INSERT INTO prescriptions (tenant_id, id, patient_id, name, doctor_in_charge_id, start_date, end_date, created_by, created_at)
         VALUES ($1, $2, $3, 'Plan', $4, '2026-01-01', '2099-12-31', $4, now())`,
      [tenantId, id, fixture.patientId, fixture.doctorId],
    );
    await owner.query(
      `INSERT INTO prescription_medicines (tenant_id, id, prescription_id, patient_id, position, name, dose, dose_unit, route, form, frequency_cycle, meal, mode, schedule)
         VALUES ($1, $2, $3, $4, 0, 'Metformin', 1, 'PILL', 'ORAL', 'TABLET', 'DAY', 'ANYTIME', 'ON_SCHEDULE', $5::jsonb)`,
      [tenantId, medicineId, id, fixture.patientId, JSON.stringify({ times: [{ label: 'Morning', time: '08:00' }], repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] }, startDate: '2026-01-01', endDate: null })],
    );
    return { id, medicineId };
  };
  const newReminder = async (fixture: Pick<Fixture, 'facts' | 'patientId' | 'doctorId'>) => {
    const id = randomUUID();
    await owner.query(
      `INSERT INTO care_reminders (tenant_id, id, patient_id, title, schedule, created_by, created_at) VALUES ($1, $2, $3, 'Walk', $4::jsonb, $5, now())`,
      [fixture.facts.tenantId, id, fixture.patientId, JSON.stringify(DAILY), fixture.doctorId],
    );
    return id;
  };
  const prescriptionBody = (doctorId: string) => ({
    name: 'Plan',
    doctorInChargeId: doctorId,
    startDate: '2026-01-01',
    endDate: '2026-01-31',
    refills: 0,
    medicines: [{ name: 'Metformin', dose: 1, doseUnit: 'PILL', route: 'ORAL', form: 'TABLET', frequencyCycle: 'DAY', timesOfDay: [], meal: 'ANYTIME', mode: 'ON_DEMAND', schedule: null }],
  });
  const storedSosCase = async (tenantId: string, patientId: string) => {
    const id = randomUUID();
    const ticketId = randomUUID();
    await owner.query(
      `INSERT INTO sos_cases (tenant_id, id, patient_id, reason, source, opened_at, kpi_due_at) VALUES ($1, $2, $3, 'Fall', 'FALL', now(), now() + interval '1 hour')`,
      [tenantId, id, patientId],
    );
    await owner.query(
      `INSERT INTO tickets (tenant_id, id, number, type, title, patient_id, sos_case_id, kpi_due_at, created_at) VALUES ($1, $2, $3, 'SOS', 'SOS', $4, $5, now() + interval '1 hour', now())`,
      [tenantId, ticketId, ticketNumber++, patientId, id],
    );
    return { id, ticketId };
  };

  async function makeFixture(relation: PatientRelation): Promise<Fixture> {
    const isFar = relation === 'otherTenant';
    const tenantId = isFar ? far.id : tenant.id;
    const centerId = relation === 'otherCenter' ? centerB.id : relation === 'centerless' ? null : isFar ? farCenter.id : centerA.id;
    // A sub-user has no account: the patient account holds it.
    const isHeld = relation === 'heldSubUser';
    const ownerUser = relation === 'own' ? patientUser : isHeld ? null : await createTenantUser(database, tenantId, { role: 'PATIENT', ...(centerId === null ? {} : { healthCenterId: centerId }) });
    const patient = await makePatient(tenantId, centerId, ownerUser?.id ?? null, isHeld ? patientUser.id : null);
    // The patient account follows the patient (a confirmed contact: the database's grant), with every
    // data kind hidden from it, or followed it once (the contact deleted).
    const followers: { userId: string; hiddenKinds: string[] }[] = [];
    if (relation === 'followed' || relation === 'followedHidden' || relation === 'unfollowed') {
      const hiddenKinds = relation === 'followedHidden' ? [...FOLLOWER_DATA_KINDS] : [];
      const status = relation === 'unfollowed' ? 'DELETED' : 'CONFIRMED';
      await owner.query(
        `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status, follower_user_id, confirmed_at, deleted_at, hidden_kinds)
           VALUES ($1, $2, $3, 'CARING', 'Me', $4, 'FRIEND', $5, $6, now(), CASE WHEN $5 = 'DELETED' THEN now() END, $7)`,
        [tenantId, randomUUID(), patient.id, phone(), status, patientUser.id, hiddenKinds],
      );
      if (status === 'CONFIRMED') followers.push({ userId: patientUser.id, hiddenKinds });
    }
    const token = isFar ? farAdminToken : adminToken;
    const doctor = await createTenantUser(database, tenantId, { role: 'DOCTOR', ...(centerId === null ? {} : { healthCenterId: centerId }) });
    await owner.query(`INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`, [tenantId, patient.id, doctor.id]);
    const fixture: Fixture = {
      relation,
      facts: { tenantId, userId: ownerUser?.id ?? null, healthCenterId: centerId, holderUserId: isHeld ? patientUser.id : null, followers },
      patientId: patient.id,
      centerId,
      adminToken: token,
      doctorId: doctor.id,
      ids: {},
    };
    // A sub-user never raises SOS (sosCase.subUser): its case and ticket are stored as they are.
    const sosCase = isHeld ? await storedSosCase(tenantId, patient.id) : await okData<{ id: string; ticketId: string }>(callAs(token, 'POST', `/account/patients/${patient.id}/sos`, { note: 'Hotline' }));
    const ecgId = randomUUID();
    const sleepId = randomUUID();
    await owner.query(
      `INSERT INTO ecg_records (tenant_id, id, patient_id, measured_at, duration_seconds, sample_rate, samples, source)
         VALUES ($1, $2, $3, now() - interval '1 hour', 1, 250, decode(repeat('00', 1000), 'hex'), 'WIRELESS_DEVICE')`,
      [tenantId, ecgId, patient.id],
    );
    await owner.query(
      `INSERT INTO sleep_records (tenant_id, id, patient_id, start_at, end_at, total_minutes, deep_minutes, light_minutes, rem_minutes, wake_count)
         VALUES ($1, $2, $3, now() - interval '9 hours', now() - interval '1 hour', 480, 100, 300, 80, 1)`,
      [tenantId, sleepId, patient.id],
    );
    const sportId = randomUUID();
    await owner.query(`INSERT INTO sport_records (tenant_id, id, patient_id, sport, start_at, practice_seconds) VALUES ($1, $2, $3, 'WALK', now() - interval '2 hours', 600)`, [tenantId, sportId, patient.id]);
    // A heart rate the day view shows (HEART_RATE_MARK: seen in a body exactly when the reading is).
    await owner.query(`INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source) VALUES ($1, $2, 'HEART_RATE', now() - interval '30 minutes', $3, 'MANUAL')`, [tenantId, patient.id, HEART_RATE_MARK]);
    await owner.query(`INSERT INTO patient_thresholds (tenant_id, patient_id, metric, level, lower_bound) VALUES ($1, $2, 'HEART_RATE', 'AT_RISK', $3)`, [tenantId, patient.id, THRESHOLD_MARK]);
    fixture.ids = {
      caseId: sosCase.id,
      ticketId: sosCase.ticketId,
      contactId: await newContact(fixture),
      // The latest examination: first in the lists, whatever the calls below add.
      recordId: await newRecord(fixture, '2026-10-01'),
      ecgId,
      sleepId,
      sportId,
      deviceId: await newDevice(tenantId, patient.id),
    };
    const plan = await newPrescription(fixture);
    const intakeId = randomUUID();
    await owner.query(
      `INSERT INTO medication_intakes (tenant_id, id, patient_id, medicine_id, due_at, local_date, local_time, label) VALUES ($1, $2, $3, $4, $5::date + time '01:00', $5::date, '08:00', 'Morning')`,
      [tenantId, intakeId, patient.id, plan.medicineId, INTAKE_DAY],
    );
    fixture.ids.fileId = await newFile(fixture, fixture.ids.recordId ?? '');
    fixture.ids.prescriptionId = plan.id;
    fixture.ids.intakeId = intakeId;
    fixture.ids.reminderId = await newReminder(fixture);
    fixture.ids.appointmentId = await newAppointment(fixture);
    fixture.ids.eventId = randomUUID();
    await owner.query(
      `INSERT INTO patient_events (tenant_id, id, patient_id, arrival_at, label, icon, created_by, created_at, updated_at) VALUES ($1, $2, $3, '2099-01-01T08:00:00Z', 'Blood test', 'TEST', $4, now(), now())`,
      [tenantId, fixture.ids.eventId, patient.id, fixture.doctorId],
    );
    return fixture;
  }
  // The patients are made at once; the map keeps the relations' order.
  const made = await Promise.all(PATIENT_RELATIONS.map((relation) => makeFixture(relation)));
  const fixtures = new Map<PatientRelation, Fixture>(made.map((fixture) => [fixture.relation, fixture]));

  // Which routes concern a patient, and how to fill each one's path and body for a patient.
  const thresholdsOf = new Map<string, unknown>();
  // The start of each fixture's appointment (an edit keeps it).
  const startsOf = new Map<string, string | undefined>();
  const recordings = new Map<string, string>();
  const recordingOf = async (f: Fixture) => {
    const known = recordings.get(f.patientId);
    if (known !== undefined) return known;
    const id = await storeTestRecording(testDb.ownerUrl, path.resolve('.tmp/test-data'), { tenantId: f.facts.tenantId, patientId: f.patientId, sosCaseId: f.ids.caseId ?? '' });
    recordings.set(f.patientId, id);
    return id;
  };
  const routeTargets: { pattern: RegExp; target: (fixture: Fixture, url: string, method: string) => Promise<Target> | Target }[] = [
    // Changes that remove or fill a record (at most 10 files) get a record of their own.
    {
      pattern: /^\/account\/patients\/:id\/records\/:recordId\/files\/:fileId$/,
      target: async (f, url, method) => {
        const recordId = method === 'DELETE' ? await newRecord(f) : (f.ids.recordId ?? '');
        const fileId = method === 'DELETE' ? await newFile(f, recordId) : (f.ids.fileId ?? '');
        return { url: url.replace(':id', f.patientId).replace(':recordId', recordId).replace(':fileId', fileId) };
      },
    },
    { pattern: /^\/account\/patients\/:id\/records\/:recordId\/files$/, target: async (f, url) => ({ url: url.replace(':id', f.patientId).replace(':recordId', await newRecord(f)), multipart: true }) },
    {
      pattern: /^\/account\/patients\/:id\/records\/:recordId$/,
      target: async (f, url, method) => ({
        url: url.replace(':id', f.patientId).replace(':recordId', method === 'DELETE' ? await newRecord(f) : (f.ids.recordId ?? '')),
        // An edit keeps the fixture's record the latest, first in the lists.
        payload: method === 'PUT' ? { ...recordBody, examinationDate: '2026-10-01' } : undefined,
      }),
    },
    { pattern: /^\/account\/patients\/:id\/records$/, target: (f, url, method) => ({ url: `${url.replace(':id', f.patientId)}${method === 'GET' ? '?size=200' : ''}`, payload: method === 'POST' ? recordBody : undefined }) },
    // Appointments (a doctor sees its own only: see below). A transition changes what it addresses.
    { pattern: /^\/account\/appointments\/:id\/transitions$/, target: async (f, url) => ({ url: url.replace(':id', await newAppointment(f)), payload: { action: 'checkIn' } }) },
    { pattern: /^\/account\/appointments\/:id\/(check-in|video)$/, target: (f, url) => ({ url: url.replace(':id', f.ids.appointmentId ?? '') }) },
    {
      pattern: /^\/account\/appointments\/:id$/,
      target: async (f, url, method) => {
        const id = f.ids.appointmentId ?? '';
        if (method !== 'PUT') return { url: url.replace(':id', id) };
        // The same start: an edit that keeps its slot.
        if (!startsOf.has(id)) {
          const [row] = await owner.query<{ starts_at: Date }>('SELECT starts_at FROM appointments WHERE id = $1', [id]);
          startsOf.set(id, row?.starts_at.toISOString());
        }
        return { url: url.replace(':id', id), payload: { startAt: startsOf.get(id), reason: 'Review', place: 'CLINIC' } };
      },
    },
    { pattern: /^\/account\/patients\/:id\/status$/, target: (f, url) => ({ url: url.replace(':id', f.patientId), payload: { status: 'AT_RISK', reason: 'Checked by phone' } }) },
    {
      pattern: /^\/account\/patients\/:id$/,
      target: async (f, url, method) => {
        if (method === 'DELETE') {
          // Each deletion gets a patient of its own in the same place. Without an account: a patient
          // account may not delete (the permission refuses it first), and a second record of the
          // same account would change what "own" means for the calls after it.
          const fresh = await makePatient(f.facts.tenantId, f.centerId, null);
          return { url: url.replace(':id', fresh.id), payload: { confirmPatientCode: fresh.patientCode } };
        }
        return { url: url.replace(':id', f.patientId), payload: method === 'PUT' ? patientBody(f.centerId) : undefined };
      },
    },
    { pattern: /^\/account\/patients\/:id\/status-history$/, target: (f, url) => ({ url: url.replace(':id', f.patientId) }) },
    {
      pattern: /^\/account\/patients\/:patientId\/doctors\/:doctorId$/,
      target: async (f, url) => {
        await owner.query(`INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST') ON CONFLICT DO NOTHING`, [f.facts.tenantId, f.patientId, f.doctorId]);
        return { url: url.replace(':patientId', f.patientId).replace(':doctorId', f.doctorId) };
      },
    },
    { pattern: /^\/account\/patients\/:patientId\/doctors$/, target: (f, url) => ({ url: url.replace(':patientId', f.patientId), payload: { doctorId: f.doctorId, relation: 'SPECIALIST' } }) },
    {
      pattern: /^\/account\/patients\/:patientId\/contacts\/:id\/resend$/,
      target: async (f, url) => {
        // A pending invitation past its 5-minute wait, so an allowed caller's resend succeeds.
        const id = await newContact(f);
        await owner.query(`UPDATE patient_contacts SET last_sent_at = now() - interval '10 minutes' WHERE id = $1`, [id]);
        return { url: url.replace(':patientId', f.patientId).replace(':id', id) };
      },
    },
    { pattern: /^\/account\/patients\/:patientId\/contacts\/:id$/, target: async (f, url, method) => ({ url: url.replace(':patientId', f.patientId).replace(':id', method === 'DELETE' ? await newContact(f) : (f.ids.contactId ?? '')), payload: method === 'PUT' ? contactBody() : undefined }) },
    { pattern: /^\/account\/patients\/:patientId\/contacts$/, target: (f, url, method) => ({ url: url.replace(':patientId', f.patientId), payload: method === 'POST' ? contactBody() : undefined }) },
    { pattern: /^\/account\/patients\/:patientId\/sos$/, target: (f, url) => ({ url: url.replace(':patientId', f.patientId), payload: { note: 'Hotline' } }) },
    { pattern: /^\/account\/sos-cases\/:id\/recordings\/:recordingId$/, target: async (f, url) => ({ url: url.replace(':id', f.ids.caseId ?? '').replace(':recordingId', await recordingOf(f)) }) },
    { pattern: /^\/account\/sos-cases\/:id\/actions$/, target: (f, url) => ({ url: url.replace(':id', f.ids.caseId ?? ''), payload: { type: 'CALL_PATIENT', note: 'No answer' } }) },
    { pattern: /^\/account\/sos-cases\/:id(\/[a-z]+)?$/, target: (f, url, method) => ({ url: url.replace(':id', f.ids.caseId ?? ''), payload: method === 'PUT' ? { reason: 'Checked with the family' } : undefined }) },
    { pattern: /^\/account\/tickets\/:id\/rating$/, target: (f, url) => ({ url: url.replace(':id', f.ids.ticketId ?? ''), payload: { kpiRating: 5 } }) },
    { pattern: /^\/account\/tickets\/:id(\/[a-z]+)?$/, target: (f, url, method) => ({ url: url.replace(':id', f.ids.ticketId ?? ''), payload: method === 'PUT' ? { reason: 'Checked', assigneeId: admin.id } : undefined }) },
    { pattern: /^\/account\/patients\/:patientId\/(alerts|devices|requests|sub-users)$/, target: (f, url) => ({ url: url.replace(':patientId', f.patientId) }) },
    { pattern: /^\/health\/patients\/:patientId\/ecg\/:recordId$/, target: (f, url) => ({ url: url.replace(':patientId', f.patientId).replace(':recordId', f.ids.ecgId ?? '') }) },
    { pattern: /^\/health\/patients\/:patientId\/sleep\/:recordId$/, target: (f, url) => ({ url: url.replace(':patientId', f.patientId).replace(':recordId', f.ids.sleepId ?? '') }) },
    {
      pattern: /^\/health\/patients\/:patientId\/data$/,
      target: (f, url) => ({ url: `${url.replace(':patientId', f.patientId)}?measure=HEART_RATE&view=day&from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date().toISOString()}` }),
    },
    {
      pattern: /^\/health\/patients\/:patientId\/thresholds$/,
      target: async (f, url, method) => {
        if (method !== 'PUT') return { url: url.replace(':patientId', f.patientId) };
        if (!thresholdsOf.has(f.patientId)) {
          const view = await okData<{ thresholds: unknown }>(callAs(f.adminToken, 'GET', url.replace(':patientId', f.patientId)));
          thresholdsOf.set(f.patientId, view.thresholds);
        }
        return { url: url.replace(':patientId', f.patientId), payload: { thresholds: thresholdsOf.get(f.patientId) } };
      },
    },
    {
      pattern: /^\/health\/patients\/:patientId\/prescriptions\/:prescriptionId(\/[a-z]+)?$/,
      target: async (f, url, method) => ({
        // A change deactivates what it addresses: each call gets its own prescription.
        url: url.replace(':patientId', f.patientId).replace(':prescriptionId', method === 'GET' ? (f.ids.prescriptionId ?? '') : (await newPrescription(f)).id),
        payload: method === 'PUT' && !url.endsWith('/deactivate') ? prescriptionBody(f.doctorId) : undefined,
      }),
    },
    { pattern: /^\/health\/patients\/:patientId\/prescriptions$/, target: (f, url, method) => ({ url: `${url.replace(':patientId', f.patientId)}${method === 'GET' ? '?size=200' : ''}`, payload: method === 'POST' ? prescriptionBody(f.doctorId) : undefined }) },
    { pattern: /^\/health\/patients\/:patientId\/reminders\/:reminderId$/, target: async (f, url) => ({ url: url.replace(':patientId', f.patientId).replace(':reminderId', await newReminder(f)) }) },
    { pattern: /^\/health\/patients\/:patientId\/reminders$/, target: (f, url, method) => ({ url: url.replace(':patientId', f.patientId), payload: method === 'POST' ? { title: 'Walk', schedule: DAILY } : undefined }) },
    { pattern: /^\/health\/patients\/:patientId\/intakes$/, target: (f, url) => ({ url: `${url.replace(':patientId', f.patientId)}?date=${INTAKE_DAY}` }) },
    { pattern: /^\/health\/patients\/:patientId\/[a-z]+$/, target: (f, url) => ({ url: url.replace(':patientId', f.patientId) }) },
    { pattern: /^\/account\/devices\/:id\/bind$/, target: async (f, url) => ({ url: url.replace(':id', await newDevice(f.facts.tenantId, null)), payload: { patientId: f.patientId } }) },
    { pattern: /^\/account\/devices\/:id\/unbind$/, target: async (f, url) => ({ url: url.replace(':id', await newDevice(f.facts.tenantId, f.patientId)) }) },
    {
      pattern: /^\/account\/devices\/:id$/,
      target: async (f, url, method) => ({
        url: url.replace(':id', method === 'GET' ? (f.ids.deviceId ?? '') : await newDevice(f.facts.tenantId, f.patientId)),
        payload: method === 'PUT' ? { model: 'V19', serialNumber: `S${suffix()}`, macAddress: randomBytes(6).toString('hex').toUpperCase() } : undefined,
      }),
    },
    // The patient is named in the body.
    {
      pattern: /^\/account\/patients\/:id\/subscriptions?$/,
      target: async (f, url, method) => ({ url: url.replace(':id', f.patientId), payload: method === 'POST' ? { packageId: await defaultPackage(f.facts.tenantId) } : undefined }),
    },
    { pattern: /^\/account\/tickets$/, target: (f, url) => ({ url, payload: { patientId: f.patientId, type: 'SUPPORT', title: 'Call back' } }) },
    {
      pattern: /^\/collector\/readings$/,
      target: (f, url) => ({ url, payload: { batchId: randomUUID(), patientId: f.patientId, readings: [{ measure: 'HEART_RATE', value: 72, measuredAt: new Date(Date.now() - 60_000).toISOString() }] } }),
    },
    { pattern: /^\/health\/manual$/, target: (f, url) => ({ url, payload: { patientId: f.patientId, measure: 'HEART_RATE', value: 72, measuredAt: new Date(Date.now() - 60_000).toISOString() } }) },
    { pattern: /^\/health\/sos\/hotline$/, target: (f, url) => ({ url, payload: { patientId: f.patientId, note: 'Hotline' } }) },
  ];
  const scoped = app.apiRoutes.filter((route) => route.access !== 'public' && (route.url.includes(':') || bodyPatientRoutes.has(`${route.method} ${route.url}`)));
  const unclassified = scoped.filter(
    (route) => !routeTargets.some((entry) => entry.pattern.test(route.url)) && !NOT_PATIENT_DATA.some((pattern) => pattern.test(route.url)),
  );
  const patientRoutes = scoped.filter((route) => routeTargets.some((entry) => entry.pattern.test(route.url)));
  const targetOf = (route: { method: string; url: string }, fixture: Fixture): Promise<Target> | Target => {
    const entry = routeTargets.find((candidate) => candidate.pattern.test(route.url));
    if (entry === undefined) throw new Error(`no target for ${route.url}`);
    return entry.target(fixture, route.url, route.method);
  };
  return { tenant, callers, fixtures, patientRoutes, unclassified, targetOf, callAs };
}
