import { PROFILE_HEADER, type AppCareTeamEntry, type AppDoctorDetail, type AppDoctorSummary, type CareRequest, type SubUser } from '@rpm/contracts';
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
  await call(app, tokens.admin, 'PUT', `/account/doctors/${org.doctorA.id}/profile`, {
    specialties: ['CARDIOLOGY', 'DERMATOLOGY'],
    degreeCode: 3,
    yearsOfExperience: 12,
    introduction: 'Heart and skin.',
    officeAddress: '1 Main Street',
    kind: 'FAMILY_DOCTOR',
  });
  await call(app, tokens.admin, 'PUT', `/account/doctors/${org.doctorB.id}/profile`, {
    specialties: ['DERMATOLOGY'],
    kind: 'SPECIALIST',
  });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface Page<T> {
  items: T[];
  total: number;
}
const search = async (token: string, query = '') =>
  dataOf<Page<AppDoctorSummary>>(await call(app, token, 'GET', `/health/me/doctors?size=50${query}`));
const detail = (token: string, doctorId: string) => call(app, token, 'GET', `/health/me/doctors/${doctorId}`);
const send = (token: string, body: Record<string, unknown>) => call(app, token, 'POST', '/health/me/requests', body);
const box = async (token: string, which: 'sent' | 'received') =>
  dataOf<Page<CareRequest>>(await call(app, token, 'GET', `/health/me/requests?box=${which}&size=100`));
const careTeam = async (token: string) =>
  dataOf<AppCareTeamEntry[]>(await call(app, token, 'GET', '/health/me/care-team'));

/** A patient with an account of its own in center A, logged in. */
async function newPatientSession(firstName: string) {
  const user = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
    firstName,
    lastName: 'Tran',
  });
  const patient = await createPatient(testDb.database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    userId: user.id,
    firstName,
    lastName: 'Tran',
  });
  return { user, patient, token: await logInAs(app, org.tenant.code, user) };
}

const newDoctorA = (firstName: string) =>
  createTenantUser(testDb.database, org.tenant.id, {
    role: 'DOCTOR',
    healthCenterId: org.centerA.id,
    firstName,
    lastName: 'Nguyen',
  });

describe('doctor search from the app', () => {
  it('lists the tenant’s active doctors of every center by name, searched by name only, filtered and paged', async () => {
    const disabled = await newDoctorA('Retired');
    await asOwner(testDb.ownerUrl, "UPDATE users SET status = 'DISABLED' WHERE id = $1", [disabled.id]);
    const far = await createTenant(testDb.database);
    await createTenantUser(testDb.database, far.id, { role: 'DOCTOR', firstName: 'Far', lastName: 'Away' });

    const all = await search(tokens.patient);
    const ids = all.items.map((doctor) => doctor.id);
    expect(ids).toEqual(expect.arrayContaining([org.doctorA.id, org.doctorA2.id, org.doctorB.id]));
    expect(ids).not.toContain(disabled.id);
    expect(all.items.every((doctor) => doctor.fullName !== 'Far Away')).toBe(true);
    // Staff accounts that are not doctors are not listed; no contact details are shown.
    expect(ids).not.toContain(org.admin.id);
    expect(all.items[0]).not.toHaveProperty('email');

    const anh = all.items.find((doctor) => doctor.id === org.doctorA.id);
    expect(anh).toMatchObject({
      fullName: 'Doctor Anh',
      specialties: ['CARDIOLOGY', 'DERMATOLOGY'],
      degreeCode: 3,
      kind: 'FAMILY_DOCTOR',
      yearsOfExperience: 12,
      centerName: 'Center A',
    });

    expect((await search(tokens.patient, '&search=binh')).items.map((doctor) => doctor.id)).toEqual([org.doctorB.id]);
    const email = org.doctorB.email ?? '';
    expect((await search(tokens.patient, `&search=${encodeURIComponent(email)}`)).total).toBe(0);
    const dermatology = await search(tokens.patient, '&specialty=DERMATOLOGY');
    expect(dermatology.items.map((doctor) => doctor.id).sort()).toEqual([org.doctorA.id, org.doctorB.id].sort());
    expect((await search(tokens.patient, '&kind=FAMILY_DOCTOR')).items.map((doctor) => doctor.id)).toEqual([org.doctorA.id]);

    const first = await call(app, tokens.patient, 'GET', '/health/me/doctors?size=1&page=0');
    const second = await call(app, tokens.patient, 'GET', '/health/me/doctors?size=1&page=1');
    expect(dataOf<Page<AppDoctorSummary>>(first).items).toHaveLength(1);
    expect(dataOf<Page<AppDoctorSummary>>(first).total).toBe(all.total);
    expect(dataOf<Page<AppDoctorSummary>>(second).items[0]?.id).not.toBe(dataOf<Page<AppDoctorSummary>>(first).items[0]?.id);

    const badKind = await call(app, tokens.patient, 'GET', '/health/me/doctors?kind=NURSE');
    expect(badKind.statusCode).toBe(400);
    expect(codeOf(badKind)).toBe('common.invalidParameter');
  });

  it('is for patient sessions only: staff get 404 health.noPatientProfile on every call', async () => {
    const anyId = org.doctorA.id;
    for (const [method, url, body] of [
      ['GET', '/health/me/doctors'],
      ['GET', `/health/me/doctors/${anyId}`],
      ['GET', '/health/me/care-team'],
      ['GET', '/health/me/requests?box=sent'],
      ['POST', '/health/me/requests', { doctorId: anyId, relation: 'FAMILY' }],
      ['PUT', `/health/me/requests/${anyId}/cancel`],
    ] as const) {
      const response = await call(app, tokens.doctorA2, method, url, body);
      expect(response.statusCode, url).toBe(404);
      expect(codeOf(response), url).toBe('health.noPatientProfile');
    }
    expect((await call(app, '', 'GET', '/health/me/doctors')).statusCode).toBe(401);
  });
});

describe('doctor detail from the app', () => {
  it('shows specialties, degree, experience, licenses flagged expired, rating and the care-team place; audited', async () => {
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, org.doctorA.id, 365);
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, org.doctorA.id, -10);
    const { patient, token } = await newPatientSession('Detail');
    const before = await auditCount(testDb.ownerUrl, 'CARE_TEAM_VIEWED', patient.id);
    const response = await detail(token, org.doctorA.id);
    expect(response.statusCode, response.body).toBe(200);
    const doctor = dataOf<AppDoctorDetail>(response);
    expect(doctor).toMatchObject({
      id: org.doctorA.id,
      specialties: ['CARDIOLOGY', 'DERMATOLOGY'],
      degreeCode: 3,
      yearsOfExperience: 12,
      introduction: 'Heart and skin.',
      officeAddress: '1 Main Street',
      ratingAverage: 0,
      ratingCount: 0,
      centerName: 'Center A',
      licenseState: 'VALID',
      careTeamRelation: null,
      waitingRequest: null,
    });
    expect(doctor.licenses.map((license) => license.expired)).toEqual([false, true]);
    expect(doctor.licenses[0]).not.toHaveProperty('hasImage');
    expect(doctor).not.toHaveProperty('email');
    expect(await auditCount(testDb.ownerUrl, 'CARE_TEAM_VIEWED', patient.id)).toBe(before + 1);
  });

  it('answers doctor.notFound for a disabled doctor, a staff member who is not a doctor and another tenant’s doctor', async () => {
    const disabled = await newDoctorA('Away');
    await asOwner(testDb.ownerUrl, "UPDATE users SET status = 'DISABLED' WHERE id = $1", [disabled.id]);
    const far = await createTenant(testDb.database);
    const farDoctor = await createTenantUser(testDb.database, far.id, { role: 'DOCTOR' });
    for (const id of [disabled.id, org.admin.id, farDoctor.id]) {
      const response = await detail(tokens.patient, id);
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('doctor.notFound');
    }
    expect((await detail(tokens.patient, 'not-an-id')).statusCode).toBe(400);
  });
});

describe('care requests from the app', () => {
  it('sends a family-doctor request, blocks a duplicate until it is canceled, and the sender cancels it', async () => {
    const { patient, token } = await newPatientSession('Cancel');
    const doctor = await newDoctorA('Cancelled');
    const sent = await send(token, { doctorId: doctor.id, relation: 'FAMILY', message: 'Please take me on' });
    expect(sent.statusCode, sent.body).toBe(200);
    const request = dataOf<CareRequest>(sent);
    expect(request).toMatchObject({
      kind: 'PATIENT_REQUEST',
      status: 'WAITING',
      relation: 'FAMILY',
      message: 'Please take me on',
      patient: { id: patient.id },
      doctor: { id: doctor.id },
    });
    expect(await auditCount(testDb.ownerUrl, 'CARE_REQUEST_CREATED', request.id)).toBe(1);

    const again = await send(token, { doctorId: doctor.id, relation: 'SPECIALIST' });
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('request.duplicate');

    const waiting = dataOf<AppDoctorDetail>(await detail(token, doctor.id)).waitingRequest;
    expect(waiting).toMatchObject({ id: request.id, relation: 'FAMILY', canCancel: true });
    expect((await box(token, 'sent')).items.map((item) => item.id)).toEqual([request.id]);
    expect((await box(token, 'received')).items).toEqual([]);

    // Another patient cannot cancel it: it is not theirs to see.
    const stranger = await call(app, tokens.patient, 'PUT', `/health/me/requests/${request.id}/cancel`);
    expect(stranger.statusCode).toBe(404);
    expect(codeOf(stranger)).toBe('request.notFound');

    const canceled = await call(app, token, 'PUT', `/health/me/requests/${request.id}/cancel`);
    expect(dataOf<CareRequest>(canceled).status).toBe('CANCELED');
    expect((await requestRow(testDb.ownerUrl, request.id))?.status).toBe('CANCELED');
    const twice = await call(app, token, 'PUT', `/health/me/requests/${request.id}/cancel`);
    expect(twice.statusCode).toBe(409);
    expect(codeOf(twice)).toBe('request.alreadyDecided');
    expect(dataOf<AppDoctorDetail>(await detail(token, doctor.id)).waitingRequest).toBeNull();
    expect((await send(token, { doctorId: doctor.id, relation: 'FAMILY' })).statusCode).toBe(200);
  });

  it('refuses a request to oneself, to someone who is not an active doctor, and bad input, writing nothing', async () => {
    const { user, patient, token } = await newPatientSession('Refused');
    const toSelf = await send(token, { doctorId: user.id, relation: 'FAMILY' });
    expect(toSelf.statusCode).toBe(400);
    expect(codeOf(toSelf)).toBe('request.toSelf');
    const toAdmin = await send(token, { doctorId: org.admin.id, relation: 'FAMILY' });
    expect(toAdmin.statusCode).toBe(404);
    expect(codeOf(toAdmin)).toBe('doctor.notFound');
    for (const body of [
      { doctorId: org.doctorA.id, relation: 'FRIEND' },
      { doctorId: 'nope', relation: 'FAMILY' },
      { relation: 'FAMILY' },
      { doctorId: org.doctorA.id, relation: 'FAMILY', message: 'x'.repeat(501) },
    ]) {
      const response = await send(token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(codeOf(response)).toBe('common.invalidParameter');
    }
    const [row] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM care_requests WHERE patient_id = $1',
      [patient.id],
    );
    expect(row?.n).toBe(0);
  });

  it('puts the doctor on the care team on approval; a new family doctor replaces the current one', async () => {
    const { patient, token } = await newPatientSession('Family');
    const first = await newDoctorA('First');
    const second = await newDoctorA('Second');
    const request = dataOf<CareRequest>(await send(token, { doctorId: first.id, relation: 'FAMILY' }));
    const firstToken = await logInAs(app, org.tenant.code, first);
    expect((await call(app, firstToken, 'PUT', `/account/requests/${request.id}/approve`)).statusCode).toBe(200);
    expect((await careTeam(token)).map((entry) => [entry.doctor.id, entry.relation])).toEqual([[first.id, 'FAMILY']]);
    expect(dataOf<AppDoctorDetail>(await detail(token, first.id)).careTeamRelation).toBe('FAMILY');
    expect((await box(token, 'sent')).items[0]?.status).toBe('APPROVED');

    const onTeam = await send(token, { doctorId: first.id, relation: 'SPECIALIST' });
    expect(onTeam.statusCode).toBe(409);
    expect(codeOf(onTeam)).toBe('doctor.alreadyAssigned');

    const replacing = dataOf<CareRequest>(await send(token, { doctorId: second.id, relation: 'FAMILY' }));
    const secondToken = await logInAs(app, org.tenant.code, second);
    expect((await call(app, secondToken, 'PUT', `/account/requests/${replacing.id}/approve`)).statusCode).toBe(200);
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([{ doctor_id: second.id, relation: 'FAMILY' }]);
    expect((await careTeam(token)).map((entry) => entry.doctor.fullName)).toEqual(['Second Nguyen']);
  });

  it('lists doctors’ requests as received; the patient rejects with a reason or approves (licence checked)', async () => {
    const { patient, token } = await newPatientSession('Received');
    const asking = await newDoctorA('Asking');
    const expired = await newDoctorA('Expired');
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, expired.id, -1);
    const askingToken = await logInAs(app, org.tenant.code, asking);
    const expiredToken = await logInAs(app, org.tenant.code, expired);
    const fromAsking = dataOf<CareRequest>(
      await call(app, askingToken, 'POST', '/account/requests', {
        kind: 'DOCTOR_REQUEST',
        patientId: patient.id,
        relation: 'SPECIALIST',
        message: 'I follow your heart',
      }),
    );
    const fromExpired = dataOf<CareRequest>(
      await call(app, expiredToken, 'POST', '/account/requests', {
        kind: 'DOCTOR_REQUEST',
        patientId: patient.id,
        relation: 'SPECIALIST',
      }),
    );
    expect((await box(token, 'received')).items.map((item) => item.id).sort()).toEqual(
      [fromAsking.id, fromExpired.id].sort(),
    );
    // The sender cannot decide its own request, nor the patient cancel a doctor's.
    expect((await call(app, token, 'PUT', `/health/me/requests/${fromAsking.id}/cancel`)).statusCode).toBe(403);

    const noReason = await call(app, token, 'PUT', `/health/me/requests/${fromExpired.id}/reject`, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    const licence = await call(app, token, 'PUT', `/health/me/requests/${fromExpired.id}/approve`);
    expect(licence.statusCode).toBe(409);
    expect(codeOf(licence)).toBe('doctor.licenseExpired');
    const rejected = await call(app, token, 'PUT', `/health/me/requests/${fromExpired.id}/reject`, {
      reason: 'I have a doctor',
    });
    expect(dataOf<CareRequest>(rejected)).toMatchObject({ status: 'REJECTED', rejectReason: 'I have a doctor' });

    const approved = await call(app, token, 'PUT', `/health/me/requests/${fromAsking.id}/approve`);
    expect(dataOf<CareRequest>(approved).status).toBe('APPROVED');
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([{ doctor_id: asking.id, relation: 'SPECIALIST' }]);
    expect(await auditCount(testDb.ownerUrl, 'CARE_REQUEST_APPROVED', fromAsking.id)).toBe(1);
  });
});

describe('care requests for the profile the app shows', () => {
  const asProfile = (token: string, profile: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie: `rpm_session=${token}`, [PROFILE_HEADER]: profile },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  it('lets a holder ask a doctor for a sub-user and answer a doctor’s request to it, apart from the own record', async () => {
    const { token } = await newPatientSession('Holder');
    const subUser = dataOf<SubUser>(
      await call(app, token, 'POST', '/health/me/sub-users', {
        firstName: 'Little',
        lastName: 'Tran',
        birthday: '1950-04-02',
        relation: 'PARENT',
        smoking: false,
      }),
    );
    const doctor = await newDoctorA('Parents');
    const sent = await asProfile(token, subUser.id, 'POST', '/health/me/requests', { doctorId: doctor.id, relation: 'FAMILY' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(dataOf<CareRequest>(sent).patient.id).toBe(subUser.id);
    const waiting = dataOf<AppDoctorDetail>(await asProfile(token, subUser.id, 'GET', `/health/me/doctors/${doctor.id}`));
    expect(waiting.waitingRequest?.canCancel).toBe(true);
    // The own record's view knows nothing of it.
    expect(dataOf<AppDoctorDetail>(await detail(token, doctor.id)).waitingRequest).toBeNull();
    expect((await box(token, 'sent')).items).toEqual([]);
    const subSent = dataOf<{ items: CareRequest[] }>(await asProfile(token, subUser.id, 'GET', '/health/me/requests?box=sent'));
    expect(subSent.items.map((item) => item.patient.id)).toEqual([subUser.id]);

    const doctorToken = await logInAs(app, org.tenant.code, doctor);
    expect((await call(app, doctorToken, 'PUT', `/account/requests/${dataOf<CareRequest>(sent).id}/approve`)).statusCode).toBe(200);
    const team = dataOf<AppCareTeamEntry[]>(await asProfile(token, subUser.id, 'GET', '/health/me/care-team'));
    expect(team.map((entry) => [entry.doctor.id, entry.relation])).toEqual([[doctor.id, 'FAMILY']]);
    expect(await careTeam(token)).toEqual([]);

    const specialist = await newDoctorA('Specialist');
    const specialistToken = await logInAs(app, org.tenant.code, specialist);
    const asked = dataOf<CareRequest>(
      await call(app, specialistToken, 'POST', '/account/requests', {
        kind: 'DOCTOR_REQUEST',
        patientId: subUser.id,
        relation: 'SPECIALIST',
      }),
    );
    const received = dataOf<{ items: CareRequest[] }>(await asProfile(token, subUser.id, 'GET', '/health/me/requests?box=received'));
    expect(received.items.map((item) => item.id)).toEqual([asked.id]);
    expect((await box(token, 'received')).items).toEqual([]);
    const approved = await asProfile(token, subUser.id, 'PUT', `/health/me/requests/${asked.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await careTeamRows(testDb.ownerUrl, subUser.id)).toEqual([
      { doctor_id: doctor.id, relation: 'FAMILY' },
      { doctor_id: specialist.id, relation: 'SPECIALIST' },
    ]);
  });

  it('keeps a followed patient’s doctors and requests from the follower, and refuses a request for them', async () => {
    const followedUser = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerA.id });
    const followed = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id, userId: followedUser.id });
    await asOwner(
      testDb.ownerUrl,
      'INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, $4)',
      [org.tenant.id, followed.id, org.doctorA.id, 'FAMILY'],
    );
    const { token } = await newPatientSession('Follower');
    const [follower] = await asOwner<{ user_id: string }>(testDb.ownerUrl, 'SELECT user_id FROM patients WHERE first_name = $1', ['Follower']);
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status,
                                     follower_user_id, confirmed_at)
       VALUES ($1, $2, $3, 'CARING', 'Anh', '0903000077', 'FRIEND', 'CONFIRMED', $4, now())`,
      [org.tenant.id, uuidv7(), followed.id, follower?.user_id],
    );
    expect(dataOf<AppCareTeamEntry[]>(await asProfile(token, followed.id, 'GET', '/health/me/care-team'))).toEqual([]);
    const refused = await asProfile(token, followed.id, 'POST', '/health/me/requests', { doctorId: org.doctorA2.id, relation: 'SPECIALIST' });
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('profile.readOnly');
    const stranger = await asProfile(tokens.patient, followed.id, 'GET', '/health/me/care-team');
    expect(stranger.statusCode).toBe(404);
    expect(codeOf(stranger)).toBe('profile.notFound');
  });
});
