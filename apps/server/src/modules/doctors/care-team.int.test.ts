import type { CareTeamEntry } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import {
  addLicenseRow,
  call,
  careOrganisation,
  careTeamRows,
  codeOf,
  dataOf,
  logInAs,
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

const assign = (token: string, patientId: string, body: Record<string, unknown>) =>
  call(app, token, 'POST', `/account/patients/${patientId}/doctors`, body);
const audits = async (action: string, patientId: string) =>
  (
    await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND target_id = $2',
      [action, patientId],
    )
  )[0]?.n;

describe('care team assignment', () => {
  it('assigns a family doctor and a specialist, audited, and lists the family doctor first', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const specialist = await assign(tokens.adminA, patient.id, {
      doctorId: org.doctorA2.id,
      relation: 'SPECIALIST',
    });
    expect(specialist.statusCode).toBe(200);
    const family = await assign(tokens.adminA, patient.id, { doctorId: org.doctorA.id, relation: 'FAMILY' });
    expect(family.statusCode).toBe(200);
    const team = dataOf<CareTeamEntry[]>(family);
    expect(team.map((entry) => [entry.doctor.id, entry.relation])).toEqual([
      [org.doctorA.id, 'FAMILY'],
      [org.doctorA2.id, 'SPECIALIST'],
    ]);
    expect(team[0]?.assignedBy?.id).toBe(org.adminA.id);
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toHaveLength(2);
    expect(await audits('CARE_TEAM_ASSIGNED', patient.id)).toBe(2);
    const read = await call(app, tokens.doctorA, 'GET', `/account/patients/${patient.id}/doctors`);
    expect(dataOf<CareTeamEntry[]>(read)).toHaveLength(2);
  });

  it('refuses a doctor already on the team and a second family doctor unless replace is set', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    expect(
      (await assign(tokens.admin, patient.id, { doctorId: org.doctorA.id, relation: 'FAMILY' })).statusCode,
    ).toBe(200);
    const again = await assign(tokens.admin, patient.id, {
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('doctor.alreadyAssigned');
    const second = await assign(tokens.admin, patient.id, { doctorId: org.doctorA2.id, relation: 'FAMILY' });
    expect(second.statusCode).toBe(409);
    expect(codeOf(second)).toBe('careTeam.limitReached');
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([
      { doctor_id: org.doctorA.id, relation: 'FAMILY' },
    ]);
    const replaced = await assign(tokens.admin, patient.id, {
      doctorId: org.doctorA2.id,
      relation: 'FAMILY',
      replace: true,
    });
    expect(replaced.statusCode).toBe(200);
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([
      { doctor_id: org.doctorA2.id, relation: 'FAMILY' },
    ]);
    expect(await audits('CARE_TEAM_UNASSIGNED', patient.id)).toBe(1);
  });

  it('refuses a doctor whose every license has expired, and accepts one with any valid license', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
    });
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, doctor.id, -1);
    const expired = await assign(tokens.admin, patient.id, { doctorId: doctor.id, relation: 'SPECIALIST' });
    expect(expired.statusCode).toBe(409);
    expect(codeOf(expired)).toBe('doctor.licenseExpired');
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([]);
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, doctor.id, 0);
    expect(
      (await assign(tokens.admin, patient.id, { doctorId: doctor.id, relation: 'SPECIALIST' })).statusCode,
    ).toBe(200);
  });

  it('answers doctor.notFound for a non-doctor, a disabled doctor and a doctor of another center', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    expect(
      codeOf(await assign(tokens.admin, patient.id, { doctorId: org.adminA.id, relation: 'SPECIALIST' })),
    ).toBe('doctor.notFound');
    const disabled = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      status: 'DISABLED',
    });
    expect(
      codeOf(await assign(tokens.admin, patient.id, { doctorId: disabled.id, relation: 'SPECIALIST' })),
    ).toBe('doctor.notFound');
    const otherCenter = await assign(tokens.adminA, patient.id, {
      doctorId: org.doctorB.id,
      relation: 'SPECIALIST',
    });
    expect(otherCenter.statusCode).toBe(404);
    expect(codeOf(otherCenter)).toBe('doctor.notFound');
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([]);
  });

  it('answers patient.notFound for a patient of another center or tenant, and changes nothing', async () => {
    const inB = await assign(tokens.adminA, org.patientB.id, {
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(inB.statusCode).toBe(404);
    expect(codeOf(inB)).toBe('patient.notFound');
    expect(
      codeOf(await call(app, tokens.adminA, 'GET', `/account/patients/${org.patientB.id}/doctors`)),
    ).toBe('patient.notFound');
    const other = await createTenant(testDb.database);
    const stranger = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const strangerToken = await logInAs(app, other.code, stranger);
    const crossTenant = await assign(strangerToken, org.patientA2.id, {
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(crossTenant.statusCode).toBe(404);
    expect(await careTeamRows(testDb.ownerUrl, org.patientB.id)).toEqual([]);
    expect(await careTeamRows(testDb.ownerUrl, org.patientA2.id)).toEqual([]);
  });

  it('refuses assignment to roles without user.assign (a doctor)', async () => {
    const response = await assign(tokens.doctorA, org.patientA2.id, {
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
    });
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('auth.permissionDenied');
    expect(await careTeamRows(testDb.ownerUrl, org.patientA2.id)).toEqual([]);
  });

  it('validates the body', async () => {
    const response = await assign(tokens.admin, org.patientA2.id, {
      doctorId: org.doctorA.id,
      relation: 'COACH',
    });
    expect(response.statusCode).toBe(400);
    expect(codeOf(response)).toBe('common.invalidParameter');
  });
});

describe('care team removal', () => {
  it('removes a doctor, audited, and answers doctor.noRelationship for one not on the team', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    await assign(tokens.admin, patient.id, { doctorId: org.doctorA.id, relation: 'FAMILY' });
    const removed = await call(
      app,
      tokens.adminA,
      'DELETE',
      `/account/patients/${patient.id}/doctors/${org.doctorA.id}`,
    );
    expect(removed.statusCode).toBe(200);
    expect(dataOf<CareTeamEntry[]>(removed)).toEqual([]);
    expect(await careTeamRows(testDb.ownerUrl, patient.id)).toEqual([]);
    expect(await audits('CARE_TEAM_UNASSIGNED', patient.id)).toBe(1);
    const again = await call(
      app,
      tokens.adminA,
      'DELETE',
      `/account/patients/${patient.id}/doctors/${org.doctorA.id}`,
    );
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('doctor.noRelationship');
  });

  it('refuses removal from another center’s patient', async () => {
    await assign(tokens.admin, org.patientB.id, { doctorId: org.doctorB.id, relation: 'FAMILY' });
    const response = await call(
      app,
      tokens.adminA,
      'DELETE',
      `/account/patients/${org.patientB.id}/doctors/${org.doctorB.id}`,
    );
    expect(codeOf(response)).toBe('patient.notFound');
    expect(await careTeamRows(testDb.ownerUrl, org.patientB.id)).toEqual([
      { doctor_id: org.doctorB.id, relation: 'FAMILY' },
    ]);
  });
});
