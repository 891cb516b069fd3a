import type { CareRequest, DoctorRequest } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import {
  addLicenseRow,
  auditCount,
  call,
  careOrganisation,
  careTeamRows,
  codeOf,
  dataOf,
  logInAs,
  requestRow,
  tokensOf,
  type CareOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface Page<T> {
  items: T[];
  total: number;
}
const send = (token: string, body: Record<string, unknown>) =>
  call(app, token, 'POST', '/account/requests', body);
const decide = (token: string, id: string, action: 'approve' | 'reject' | 'cancel', body?: unknown) =>
  call(app, token, 'PUT', `/account/requests/${id}/${action}`, body);
const box = async (token: string, which: 'sent' | 'received', query = '') =>
  dataOf<Page<CareRequest>>(await call(app, token, 'GET', `/account/requests?box=${which}&size=100${query}`));
const newPatientA = (overrides: Parameters<typeof createPatient>[2] = {}) =>
  createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id, ...overrides });

describe('sending requests', () => {
  it('lets a doctor ask a patient and staff file a patient’s request to a doctor, both audited', async () => {
    const patient = await newPatientA();
    const fromDoctor = await send(tokens.doctorA, {
      kind: 'DOCTOR_REQUEST',
      patientId: patient.id,
      relation: 'SPECIALIST',
      message: 'Let me follow your readings',
    });
    expect(fromDoctor.statusCode).toBe(200);
    const created = dataOf<CareRequest>(fromDoctor);
    expect(created).toMatchObject({
      kind: 'DOCTOR_REQUEST',
      status: 'WAITING',
      doctor: { id: org.doctorA.id },
      requester: { id: org.doctorA.id },
      patient: { id: patient.id },
    });
    expect(await auditCount(testDb.ownerUrl, 'CARE_REQUEST_CREATED', created.id)).toBe(1);
    const fromStaff = await send(tokens.adminA, {
      kind: 'PATIENT_REQUEST',
      patientId: patient.id,
      doctorId: org.doctorA2.id,
      relation: 'FAMILY',
    });
    expect(fromStaff.statusCode).toBe(200);
    expect((await box(tokens.doctorA, 'sent')).items.map((item) => item.id)).toContain(created.id);
    expect((await box(tokens.doctorA2, 'received')).items.map((item) => item.id)).toContain(
      dataOf<CareRequest>(fromStaff).id,
    );
    // Staff answer doctors' requests for the patients they see; the patient's own account too.
    expect((await box(tokens.adminA, 'received')).items.map((item) => item.id)).toContain(created.id);
    expect((await box(tokens.adminB, 'received')).items.map((item) => item.id)).not.toContain(created.id);
  });

  it('lets a patient ask a doctor for their own record only', async () => {
    const own = await send(tokens.patient, {
      kind: 'PATIENT_REQUEST',
      patientId: org.patientA.id,
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(own.statusCode).toBe(200);
    const other = await send(tokens.patient, {
      kind: 'PATIENT_REQUEST',
      patientId: org.patientA2.id,
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(codeOf(other)).toBe('patient.notFound');
    const asDoctor = await send(tokens.patient, {
      kind: 'DOCTOR_REQUEST',
      patientId: org.patientA.id,
      relation: 'SPECIALIST',
    });
    expect(asDoctor.statusCode).toBe(403);
  });

  it('blocks a duplicate waiting request until the first is canceled', async () => {
    const patient = await newPatientA();
    const first = await send(tokens.doctorA, {
      kind: 'DOCTOR_REQUEST',
      patientId: patient.id,
      relation: 'SPECIALIST',
    });
    expect(first.statusCode).toBe(200);
    const duplicate = await send(tokens.doctorA, {
      kind: 'DOCTOR_REQUEST',
      patientId: patient.id,
      relation: 'FAMILY',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(codeOf(duplicate)).toBe('request.duplicate');
    const waiting = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      "SELECT count(*)::int AS n FROM care_requests WHERE patient_id = $1 AND status = 'WAITING'",
      [patient.id],
    );
    expect(waiting[0]?.n).toBe(1);
    expect((await decide(tokens.doctorA, dataOf<CareRequest>(first).id, 'cancel')).statusCode).toBe(200);
    expect(
      (await send(tokens.doctorA, { kind: 'DOCTOR_REQUEST', patientId: patient.id, relation: 'FAMILY' }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a request to oneself, to a doctor already assigned, and to unknown parties', async () => {
    const toSelf = await send(tokens.adminA, {
      kind: 'PATIENT_REQUEST',
      patientId: org.patientA2.id,
      doctorId: org.adminA.id,
      relation: 'SPECIALIST',
    });
    expect(toSelf.statusCode).toBe(400);
    expect(codeOf(toSelf)).toBe('request.toSelf');
    const ownRecord = await newPatientA({ userId: org.doctorA2.id });
    expect(
      codeOf(
        await send(tokens.doctorA2, {
          kind: 'DOCTOR_REQUEST',
          patientId: ownRecord.id,
          relation: 'SPECIALIST',
        }),
      ),
    ).toBe('request.toSelf');
    const patient = await newPatientA();
    await call(app, tokens.admin, 'POST', `/account/patients/${patient.id}/doctors`, {
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(
      codeOf(
        await send(tokens.doctorA, { kind: 'DOCTOR_REQUEST', patientId: patient.id, relation: 'FAMILY' }),
      ),
    ).toBe('doctor.alreadyAssigned');
    expect(
      codeOf(
        await send(tokens.adminA, {
          kind: 'PATIENT_REQUEST',
          patientId: patient.id,
          doctorId: org.doctorB.id,
          relation: 'FAMILY',
        }),
      ),
    ).toBe('doctor.notFound');
    expect(
      codeOf(
        await send(tokens.doctorA, {
          kind: 'DOCTOR_REQUEST',
          patientId: org.patientB.id,
          relation: 'FAMILY',
        }),
      ),
    ).toBe('patient.notFound');
    expect(
      codeOf(
        await send(tokens.adminA, { kind: 'PATIENT_REQUEST', patientId: patient.id, relation: 'FAMILY' }),
      ),
    ).toBe('common.invalidParameter');
    const notDoctor = await send(tokens.adminA, {
      kind: 'DOCTOR_REQUEST',
      patientId: patient.id,
      relation: 'FAMILY',
    });
    expect(notDoctor.statusCode).toBe(403);
    const rows = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM care_requests WHERE patient_id = $1',
      [patient.id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('deciding requests', () => {
  it('approving puts the doctor on the care team; a new family doctor replaces the current one', async () => {
    const patient = await newPatientA();
    await call(app, tokens.admin, 'POST', `/account/patients/${patient.id}/doctors`, {
      doctorId: org.doctorA2.id,
      relation: 'FAMILY',
    });
    const request = dataOf<CareRequest>(
      await send(tokens.adminA, {
        kind: 'PATIENT_REQUEST',
        patientId: patient.id,
        doctorId: org.doctorA.id,
        relation: 'FAMILY',
      }),
    );
    const approved = await decide(tokens.doctorA, request.id, 'approve');
    expect(approved.statusCode).toBe(200);
    expect(dataOf<CareRequest>(approved)).toMatchObject({
      status: 'APPROVED',
      decidedBy: { id: org.doctorA.id },
    });
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([
      { doctor_id: org.doctorA.id, relation: 'FAMILY' },
    ]);
    expect(await auditCount(testDb.ownerUrl, 'CARE_REQUEST_APPROVED', request.id)).toBe(1);
  });

  it('lets the patient approve a doctor’s request to their record', async () => {
    const request = dataOf<CareRequest>(
      await send(tokens.doctorA2, {
        kind: 'DOCTOR_REQUEST',
        patientId: org.patientA.id,
        relation: 'SPECIALIST',
      }),
    );
    expect((await box(tokens.patient, 'received')).items.map((item) => item.id)).toContain(request.id);
    expect((await decide(tokens.patient, request.id, 'approve')).statusCode).toBe(200);
    expect(await careTeamRows(testDb.ownerUrl, org.patientA.id)).toContainEqual({
      doctor_id: org.doctorA2.id,
      relation: 'SPECIALIST',
    });
  });

  it('refuses to approve when the doctor’s every license has expired, leaving the request waiting', async () => {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
    });
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, doctor.id, -3);
    const doctorToken = await logInAs(app, org.tenant.code, doctor);
    const patient = await newPatientA();
    const request = dataOf<CareRequest>(
      await send(tokens.adminA, {
        kind: 'PATIENT_REQUEST',
        patientId: patient.id,
        doctorId: doctor.id,
        relation: 'SPECIALIST',
      }),
    );
    const approved = await decide(doctorToken, request.id, 'approve');
    expect(approved.statusCode).toBe(409);
    expect(codeOf(approved)).toBe('doctor.licenseExpired');
    expect((await requestRow(testDb.ownerUrl, request.id))?.status).toBe('WAITING');
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([]);
  });

  it('requires a reason to reject and keeps it', async () => {
    const patient = await newPatientA();
    const request = dataOf<CareRequest>(
      await send(tokens.adminA, {
        kind: 'PATIENT_REQUEST',
        patientId: patient.id,
        doctorId: org.doctorA.id,
        relation: 'SPECIALIST',
      }),
    );
    const noReason = await decide(tokens.doctorA, request.id, 'reject', { reason: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect((await requestRow(testDb.ownerUrl, request.id))?.status).toBe('WAITING');
    const rejected = await decide(tokens.doctorA, request.id, 'reject', { reason: 'Not my specialty' });
    expect(rejected.statusCode).toBe(200);
    expect(await requestRow(testDb.ownerUrl, request.id)).toEqual({
      status: 'REJECTED',
      reject_reason: 'Not my specialty',
      decided_by: org.doctorA.id,
    });
  });

  it('follows the state machine: nothing leaves a final state, each party does only their own step', async () => {
    const patient = await newPatientA();
    const request = dataOf<CareRequest>(
      await send(tokens.adminA, {
        kind: 'PATIENT_REQUEST',
        patientId: patient.id,
        doctorId: org.doctorA.id,
        relation: 'SPECIALIST',
      }),
    );
    // The requester cannot approve their own request; the recipient cannot cancel it.
    expect(codeOf(await decide(tokens.adminA, request.id, 'approve'))).toBe('auth.permissionDenied');
    expect(codeOf(await decide(tokens.doctorA, request.id, 'cancel'))).toBe('auth.permissionDenied');
    // Someone else is not told about it at all.
    expect(codeOf(await decide(tokens.doctorA2, request.id, 'approve'))).toBe('request.notFound');
    expect((await decide(tokens.adminA, request.id, 'cancel')).statusCode).toBe(200);
    for (const [token, action] of [
      [tokens.doctorA, 'approve'],
      [tokens.doctorA, 'reject'],
      [tokens.adminA, 'cancel'],
    ] as const) {
      const response = await decide(
        token,
        request.id,
        action,
        action === 'reject' ? { reason: 'late' } : undefined,
      );
      expect(response.statusCode).toBe(409);
      expect(codeOf(response)).toBe('request.alreadyDecided');
    }
    const approvedRequest = dataOf<CareRequest>(
      await send(tokens.adminA, {
        kind: 'PATIENT_REQUEST',
        patientId: patient.id,
        doctorId: org.doctorA.id,
        relation: 'SPECIALIST',
      }),
    );
    await decide(tokens.doctorA, approvedRequest.id, 'approve');
    expect(codeOf(await decide(tokens.adminA, approvedRequest.id, 'cancel'))).toBe('request.alreadyDecided');
    expect(
      codeOf(await decide(tokens.doctorA, approvedRequest.id, 'reject', { reason: 'changed my mind' })),
    ).toBe('request.alreadyDecided');
    expect((await requestRow(testDb.ownerUrl, request.id))?.status).toBe('CANCELED');
    expect((await requestRow(testDb.ownerUrl, approvedRequest.id))?.status).toBe('APPROVED');
  });

  it('filters the boxes by status and kind', async () => {
    const waiting = await box(tokens.doctorA, 'received', '&status=WAITING');
    expect(waiting.items.every((item) => item.status === 'WAITING' && item.kind === 'PATIENT_REQUEST')).toBe(
      true,
    );
    const sent = await box(tokens.adminA, 'sent', '&kind=DOCTOR_REQUEST');
    expect(sent.items).toEqual([]);
  });

  it('answers request.notFound to another tenant and another center, changing nothing', async () => {
    const request = dataOf<CareRequest>(
      await send(tokens.adminB, {
        kind: 'PATIENT_REQUEST',
        patientId: org.patientB.id,
        doctorId: org.doctorB.id,
        relation: 'SPECIALIST',
      }),
    );
    expect(codeOf(await decide(tokens.adminA, request.id, 'cancel'))).toBe('request.notFound');
    const other = await createTenant(testDb.database);
    const stranger = await createTenantUser(testDb.database, other.id, { role: 'DOCTOR' });
    const strangerToken = await logInAs(app, other.code, stranger);
    const response = await decide(strangerToken, request.id, 'approve');
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('request.notFound');
    expect((await requestRow(testDb.ownerUrl, request.id))?.status).toBe('WAITING');
  });
});

describe('doctor requests for admins', () => {
  async function registeredDoctor() {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      status: 'UNACTIVATED',
      firstName: 'New',
      lastName: 'Registrant',
    });
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO otp_challenges (tenant_id, id, purpose, channel, destination, user_id, code_hash, created_at, expires_at, consumed_at)
       VALUES ($1, $2, 'REGISTER', 'EMAIL', $3, $4, '\\x00', now(), now() + interval '5 minutes', now())`,
      [org.tenant.id, uuidv7(), doctor.email, doctor.id],
    );
    return doctor;
  }
  const accountOf = async (id: string) =>
    (
      await asOwner<{
        status: string;
        health_center_id: string | null;
        deactivation_requested_at: Date | null;
      }>(
        testDb.ownerUrl,
        'SELECT status, health_center_id, deactivation_requested_at FROM users WHERE id = $1',
        [id],
      )
    )[0];

  it('lists registrations and deactivation requests, and approves a registration into a center', async () => {
    const registrant = await registeredDoctor();
    const unverified = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      status: 'UNACTIVATED',
    });
    const leaving = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      deactivationRequestedAt: new Date(),
      deactivationRequestedIndefinite: true,
    });
    const list = dataOf<{ items: DoctorRequest[] }>(
      await call(app, tokens.admin, 'GET', '/account/admin/doctor-requests'),
    );
    expect(list.items.map((item) => [item.id, item.kind])).toEqual(
      expect.arrayContaining([
        [registrant.id, 'REGISTRATION'],
        [leaving.id, 'DEACTIVATION'],
      ]),
    );
    expect(list.items.map((item) => item.id)).not.toContain(unverified.id);
    const centerAdmin = dataOf<{ items: DoctorRequest[] }>(
      await call(app, tokens.adminA, 'GET', '/account/admin/doctor-requests?kind=DEACTIVATION'),
    );
    expect(centerAdmin.items.map((item) => item.id)).toEqual([leaving.id]);

    const withoutCenter = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/admin/doctor-requests/${registrant.id}/approve`,
      {},
    );
    expect(codeOf(withoutCenter)).toBe('common.invalidParameter');
    const approved = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/admin/doctor-requests/${registrant.id}/approve`,
      { centerId: org.centerA.id },
    );
    expect(approved.statusCode).toBe(200);
    expect(await accountOf(registrant.id)).toMatchObject({
      status: 'ACTIVE',
      health_center_id: org.centerA.id,
    });
    expect(await auditCount(testDb.ownerUrl, 'DOCTOR_REGISTRATION_APPROVED', registrant.id)).toBe(1);
    expect(
      codeOf(
        await call(app, tokens.admin, 'PUT', `/account/admin/doctor-requests/${registrant.id}/approve`, {}),
      ),
    ).toBe('request.notFound');
  });

  it('approves a deactivation (account disabled, sessions ended) and rejects with a reason', async () => {
    const leaving = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      deactivationRequestedAt: new Date(),
      deactivationRequestedIndefinite: true,
    });
    await logInAs(app, org.tenant.code, leaving);
    const approved = await call(
      app,
      tokens.adminA,
      'PUT',
      `/account/admin/doctor-requests/${leaving.id}/approve`,
      {},
    );
    expect(approved.statusCode).toBe(200);
    expect(await accountOf(leaving.id)).toMatchObject({
      status: 'DISABLED',
      deactivation_requested_at: null,
    });
    const sessions = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
      [leaving.id],
    );
    expect(sessions[0]?.n).toBe(0);

    const staying = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      deactivationRequestedAt: new Date(),
    });
    expect(
      codeOf(
        await call(app, tokens.adminA, 'PUT', `/account/admin/doctor-requests/${staying.id}/reject`, {}),
      ),
    ).toBe('common.invalidParameter');
    expect(
      codeOf(
        await call(app, tokens.adminB, 'PUT', `/account/admin/doctor-requests/${staying.id}/reject`, {
          reason: 'Needed',
        }),
      ),
    ).toBe('request.notFound');
    const rejected = await call(
      app,
      tokens.adminA,
      'PUT',
      `/account/admin/doctor-requests/${staying.id}/reject`,
      { reason: 'Needed this month' },
    );
    expect(rejected.statusCode).toBe(200);
    expect(await accountOf(staying.id)).toMatchObject({ status: 'ACTIVE', deactivation_requested_at: null });
    const registrant = await registeredDoctor();
    expect(
      (
        await call(app, tokens.admin, 'PUT', `/account/admin/doctor-requests/${registrant.id}/reject`, {
          reason: 'Unknown to us',
        })
      ).statusCode,
    ).toBe(200);
    expect((await accountOf(registrant.id))?.status).toBe('DELETED');
  });

  it('is for admins only', async () => {
    expect((await call(app, tokens.doctorA, 'GET', '/account/admin/doctor-requests')).statusCode).toBe(403);
  });
});
