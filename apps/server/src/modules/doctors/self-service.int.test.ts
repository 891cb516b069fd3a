import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CareRequest, DeactivatedDoctor, DoctorProfile } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import {
  auditCount,
  call,
  careOrganisation,
  codeOf,
  dataOf,
  logInAs,
  PNG,
  tokensOf,
  type CareOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-self-service-'));
  app = await createTestApp(testDb.database, { dataDir });
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Page<T> {
  items: T[];
  total: number;
}

const licenseCount = async (doctorId: string) =>
  (
    await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM doctor_licenses WHERE doctor_id = $1',
      [doctorId],
    )
  )[0]?.n;

describe('a doctor’s own licenses', () => {
  const upload = (token: string, fields: Record<string, string>, image?: Buffer) => {
    const body = multipart([
      ...Object.entries(fields).map(([name, content]) => ({ name, content })),
      ...(image === undefined
        ? []
        : [{ name: 'image', filename: 'license.png', contentType: 'image/png', content: image }]),
    ]);
    return app.inject({
      method: 'POST',
      url: '/account/doctor/me/licenses',
      payload: body.payload,
      headers: { ...body.headers, cookie: `rpm_session=${token}` },
    });
  };

  it('adds, shows and removes the calling doctor’s license, with the admin’s file rules', async () => {
    const added = await upload(
      tokens.doctorA2,
      { name: 'Practising certificate', expiresOn: '2099-12-31' },
      PNG,
    );
    expect(added.statusCode, added.body).toBe(200);
    const profile = dataOf<DoctorProfile>(added);
    expect(profile.id).toBe(org.doctorA2.id);
    const license = profile.licenses.find((candidate) => candidate.name === 'Practising certificate');
    expect(license).toMatchObject({ expiresOn: '2099-12-31', expired: false, hasImage: true });
    const licenseId = license?.id ?? '';
    expect(await auditCount(testDb.ownerUrl, 'DOCTOR_LICENSE_ADDED', licenseId)).toBe(1);

    const image = await call(app, tokens.doctorA2, 'GET', `/account/doctor/me/licenses/${licenseId}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(PNG)).toBe(true);

    // Another doctor's call names only their own licenses: this one is not found for them.
    const byOther = await call(app, tokens.doctorA, 'DELETE', `/account/doctor/me/licenses/${licenseId}`);
    expect(codeOf(byOther)).toBe('doctor.licenseNotFound');
    expect(
      (await call(app, tokens.doctorA, 'GET', `/account/doctor/me/licenses/${licenseId}/image`)).statusCode,
    ).toBe(404);
    expect(await licenseCount(org.doctorA2.id)).toBe(1);

    const removed = await call(app, tokens.doctorA2, 'DELETE', `/account/doctor/me/licenses/${licenseId}`);
    expect(removed.statusCode).toBe(200);
    expect(dataOf<DoctorProfile>(removed).licenses).toEqual([]);
    expect(await licenseCount(org.doctorA2.id)).toBe(0);
  });

  it('refuses a bad image or fields and stores nothing', async () => {
    const notImage = await upload(
      tokens.doctorA2,
      { name: 'Fake', expiresOn: '2099-01-01' },
      Buffer.from('GIF89a not really'),
    );
    expect(codeOf(notImage)).toBe('file.unsupportedType');
    const tooLarge = await upload(
      tokens.doctorA2,
      { name: 'Big', expiresOn: '2099-01-01' },
      Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10)]),
    );
    expect(codeOf(tooLarge)).toBe('file.tooLarge');
    expect(codeOf(await upload(tokens.doctorA2, { name: 'None', expiresOn: '2099-01-01' }))).toBe(
      'file.missing',
    );
    expect(codeOf(await upload(tokens.doctorA2, { name: 'Date', expiresOn: '31/12/2099' }, PNG))).toBe(
      'common.invalidParameter',
    );
    expect(await licenseCount(org.doctorA2.id)).toBe(0);
  });

  it('is for doctors only', async () => {
    for (const token of [tokens.admin, tokens.patient]) {
      const refused = await upload(token, { name: 'Mine', expiresOn: '2099-01-01' }, PNG);
      expect(refused.statusCode).toBe(403);
      expect(codeOf(refused)).toBe('auth.permissionDenied');
    }
    expect(await licenseCount(org.admin.id)).toBe(0);
  });
});

describe('a patient’s care requests', () => {
  it('lists the requests about the patient for staff who see it, audited, and a sent one can be canceled', async () => {
    const sent = await call(app, tokens.adminA, 'POST', '/account/requests', {
      kind: 'PATIENT_REQUEST',
      patientId: org.patientA2.id,
      doctorId: org.doctorA.id,
      relation: 'SPECIALIST',
      message: 'Please follow her blood pressure',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const request = dataOf<CareRequest>(sent);

    const listed = await call(app, tokens.adminA, 'GET', `/account/patients/${org.patientA2.id}/requests`);
    expect(listed.statusCode).toBe(200);
    const page = dataOf<Page<CareRequest>>(listed);
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id: request.id,
      status: 'WAITING',
      message: 'Please follow her blood pressure',
      doctor: { id: org.doctorA.id },
    });
    const [audit] = await asOwner<{ details: { patientIds: string[] } }>(
      testDb.ownerUrl,
      `SELECT details FROM audit_log WHERE request_id = $1 AND action = 'CARE_REQUESTS_LISTED'`,
      [String(listed.headers['x-request-id'])],
    );
    expect(audit?.details.patientIds).toEqual([org.patientA2.id]);

    // Another center's admin does not see the patient.
    expect(
      codeOf(await call(app, tokens.adminB, 'GET', `/account/patients/${org.patientA2.id}/requests`)),
    ).toBe('patient.notFound');

    const canceled = await call(app, tokens.adminA, 'PUT', `/account/requests/${request.id}/cancel`);
    expect(dataOf<CareRequest>(canceled).status).toBe('CANCELED');
    const after = dataOf<Page<CareRequest>>(
      await call(app, tokens.adminA, 'GET', `/account/patients/${org.patientA2.id}/requests`),
    );
    expect(after.items[0]?.status).toBe('CANCELED');
  });
});

describe('restoring a deactivated doctor', () => {
  const deactivate = async (doctorId: string, daysAgo: number) => {
    await asOwner(
      testDb.ownerUrl,
      `UPDATE users SET status = 'DISABLED', disabled_until = NULL, updated_at = now() - make_interval(days => $2) WHERE id = $1`,
      [doctorId, daysAgo],
    );
  };
  const statusOf = async (doctorId: string) =>
    (
      await asOwner<{ status: string; deactivated_at: Date | null }>(
        testDb.ownerUrl,
        'SELECT status, deactivated_at FROM users WHERE id = $1',
        [doctorId],
      )
    )[0];

  it('records when a doctor was deactivated, lists the days left and restores within 30 days', async () => {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      firstName: 'Recent',
      lastName: 'Leave',
    });
    await deactivate(doctor.id, 10);
    const stored = await statusOf(doctor.id);
    expect(stored?.deactivated_at).not.toBeNull();

    const list = await call(app, tokens.adminA, 'GET', '/account/admin/deactivated-doctors?search=Recent');
    expect(list.statusCode).toBe(200);
    const item = dataOf<Page<DeactivatedDoctor>>(list).items.find((candidate) => candidate.id === doctor.id);
    expect(item).toMatchObject({ fullName: 'Recent Leave', restorable: true });
    expect(item?.daysLeft).toBeGreaterThanOrEqual(19);
    expect(item?.daysLeft).toBeLessThanOrEqual(20);
    // Another center's admin does not see the doctor.
    const otherCenter = await call(
      app,
      tokens.adminB,
      'GET',
      '/account/admin/deactivated-doctors?search=Recent',
    );
    expect(dataOf<Page<DeactivatedDoctor>>(otherCenter).total).toBe(0);
    expect(
      codeOf(
        await call(app, tokens.adminB, 'PUT', `/account/admin/deactivated-doctors/${doctor.id}/restore`),
      ),
    ).toBe('doctor.notFound');
    // Doctors may not restore anyone.
    expect(
      (await call(app, tokens.doctorA, 'PUT', `/account/admin/deactivated-doctors/${doctor.id}/restore`))
        .statusCode,
    ).toBe(403);
    expect((await statusOf(doctor.id))?.status).toBe('DISABLED');

    const restored = await call(
      app,
      tokens.adminA,
      'PUT',
      `/account/admin/deactivated-doctors/${doctor.id}/restore`,
    );
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await statusOf(doctor.id)).toMatchObject({ status: 'ACTIVE', deactivated_at: null });
    expect(await auditCount(testDb.ownerUrl, 'STAFF_ENABLED', doctor.id)).toBe(1);
    const again = await call(
      app,
      tokens.adminA,
      'PUT',
      `/account/admin/deactivated-doctors/${doctor.id}/restore`,
    );
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('doctor.notDeactivated');
  });

  it('refuses to restore a doctor deactivated more than 30 days ago, with a clear message', async () => {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      firstName: 'Long',
      lastName: 'Gone',
    });
    await deactivate(doctor.id, 31);
    const list = await call(app, tokens.adminA, 'GET', '/account/admin/deactivated-doctors?search=Long');
    const item = dataOf<Page<DeactivatedDoctor>>(list).items[0];
    expect(item).toMatchObject({ id: doctor.id, restorable: false });
    expect(item?.daysLeft).toBeLessThan(0);
    const refused = await call(
      app,
      tokens.adminA,
      'PUT',
      `/account/admin/deactivated-doctors/${doctor.id}/restore`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'doctor.restorePeriodOver',
      message: 'A deactivated doctor can be restored within 30 days only; this period is over',
    });
    expect((await statusOf(doctor.id))?.status).toBe('DISABLED');
  });

  it('counts the 30 days from an approved deactivation request', async () => {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      firstName: 'Asked',
      lastName: 'Leave',
    });
    const token = await logInAs(app, org.tenant.code, doctor);
    const asked = await call(app, token, 'POST', '/account/me/deactivate', {
      duration: 'INDEFINITE',
      password: TEST_PASSWORD,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(
      (await call(app, tokens.adminA, 'PUT', `/account/admin/doctor-requests/${doctor.id}/approve`, {}))
        .statusCode,
    ).toBe(200);
    const item = dataOf<Page<DeactivatedDoctor>>(
      await call(app, tokens.adminA, 'GET', '/account/admin/deactivated-doctors?search=Asked'),
    ).items[0];
    expect(item).toMatchObject({ id: doctor.id, daysLeft: 29, restorable: true, disabledUntil: null });
  });
});
