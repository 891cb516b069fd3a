import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DoctorProfile, DoctorSummary } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import {
  addLicenseRow,
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
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-licenses-'));
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
const profileBody = (overrides: Record<string, unknown> = {}) => ({
  specialties: ['CARDIOLOGY', 'GERIATRICS'],
  degreeCode: 3,
  placeOfEducation: 'Hanoi Medical University',
  yearsOfExperience: 14,
  examinationCost: 250000,
  officeAddress: '1 Trang Tien',
  officeEmail: 'office@test.example',
  officePhone: '0281234567',
  introduction: 'Heart health.\nOlder patients.',
  kind: 'FAMILY_DOCTOR',
  ...overrides,
});
const storedProfile = async (doctorId: string) =>
  (
    await asOwner<{ specialties: string[]; degree_code: number; kind: string }>(
      testDb.ownerUrl,
      'SELECT specialties, degree_code, kind FROM doctor_profiles WHERE doctor_id = $1',
      [doctorId],
    )
  )[0];

describe('doctor profiles', () => {
  it('lets an admin replace a doctor’s profile, audited, and reads it back with its fields', async () => {
    const response = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/doctors/${org.doctorA.id}/profile`,
      profileBody(),
    );
    expect(response.statusCode).toBe(200);
    const profile = dataOf<DoctorProfile>(response);
    expect(profile).toMatchObject({
      id: org.doctorA.id,
      hasProfile: true,
      specialties: ['CARDIOLOGY', 'GERIATRICS'],
      degreeCode: 3,
      kind: 'FAMILY_DOCTOR',
      yearsOfExperience: 14,
      examinationCost: 250000,
      licenseState: 'NONE',
    });
    expect(await storedProfile(org.doctorA.id)).toEqual({
      specialties: ['CARDIOLOGY', 'GERIATRICS'],
      degree_code: 3,
      kind: 'FAMILY_DOCTOR',
    });
    expect(await auditCount(testDb.ownerUrl, 'DOCTOR_PROFILE_UPDATED', org.doctorA.id)).toBe(1);
    const read = await call(app, tokens.adminA, 'GET', `/account/doctors/${org.doctorA.id}`);
    expect(dataOf<DoctorProfile>(read)).toMatchObject({
      introduction: 'Heart health.\nOlder patients.',
      officeEmail: 'office@test.example',
      center: { id: org.centerA.id },
    });
  });

  it('refuses unknown specialties and more than five, writing nothing', async () => {
    const unknown = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/doctors/${org.doctorB.id}/profile`,
      profileBody({ specialties: ['CARDIOLOGY', 'ASTROLOGY'] }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(codeOf(unknown)).toBe('doctor.unknownSpecialty');
    const six = ['CARDIOLOGY', 'NEUROLOGY', 'ONCOLOGY', 'UROLOGY', 'PSYCHIATRY', 'DERMATOLOGY'];
    const tooMany = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/doctors/${org.doctorB.id}/profile`,
      profileBody({ specialties: six }),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(codeOf(tooMany)).toBe('doctor.tooManySpecialties');
    const badDegree = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/doctors/${org.doctorB.id}/profile`,
      profileBody({ degreeCode: 8 }),
    );
    expect(codeOf(badDegree)).toBe('common.invalidParameter');
    expect(await storedProfile(org.doctorB.id)).toBeUndefined();
    const five = await call(
      app,
      tokens.admin,
      'PUT',
      `/account/doctors/${org.doctorB.id}/profile`,
      profileBody({ specialties: six.slice(0, 5) }),
    );
    expect(five.statusCode).toBe(200);
  });

  it('answers doctor.notFound for a doctor of another center, of another tenant, or a non-doctor', async () => {
    const otherCenter = await call(
      app,
      tokens.adminA,
      'PUT',
      `/account/doctors/${org.doctorB.id}/profile`,
      profileBody(),
    );
    expect(otherCenter.statusCode).toBe(404);
    expect(codeOf(otherCenter)).toBe('doctor.notFound');
    expect(codeOf(await call(app, tokens.adminA, 'GET', `/account/doctors/${org.doctorB.id}`))).toBe(
      'doctor.notFound',
    );
    expect(codeOf(await call(app, tokens.admin, 'GET', `/account/doctors/${org.adminA.id}`))).toBe(
      'doctor.notFound',
    );
    const other = await createTenant(testDb.database);
    const stranger = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const strangerToken = await logInAs(app, other.code, stranger);
    const before = await storedProfile(org.doctorA.id);
    const crossTenant = await call(
      app,
      strangerToken,
      'PUT',
      `/account/doctors/${org.doctorA.id}/profile`,
      profileBody({ specialties: ['UROLOGY'] }),
    );
    expect(crossTenant.statusCode).toBe(404);
    expect(await storedProfile(org.doctorA.id)).toEqual(before);
  });

  it('refuses the profile edit to a role without staff.update (a doctor)', async () => {
    const response = await call(
      app,
      tokens.doctorA,
      'PUT',
      `/account/doctors/${org.doctorA.id}/profile`,
      profileBody(),
    );
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('auth.permissionDenied');
  });

  it('lets a doctor save and read their own qualification; others may not call it', async () => {
    const saved = await call(
      app,
      tokens.doctorA2,
      'POST',
      '/account/doctor/v2/register/qualification',
      profileBody({ specialties: ['NEUROLOGY'], kind: 'SPECIALIST' }),
    );
    expect(saved.statusCode).toBe(200);
    expect(await storedProfile(org.doctorA2.id)).toEqual({
      specialties: ['NEUROLOGY'],
      degree_code: 3,
      kind: 'SPECIALIST',
    });
    const read = await call(app, tokens.doctorA2, 'GET', '/account/doctor/me/qualification');
    expect(dataOf<DoctorProfile>(read).specialties).toEqual(['NEUROLOGY']);
    const tooMany = await call(
      app,
      tokens.doctorA2,
      'POST',
      '/account/doctor/v2/register/qualification',
      profileBody({
        specialties: ['NEUROLOGY', 'UROLOGY', 'ONCOLOGY', 'NEPHROLOGY', 'GENETICS', 'DERMATOLOGY'],
      }),
    );
    expect(codeOf(tooMany)).toBe('doctor.tooManySpecialties');
    const byAdmin = await call(
      app,
      tokens.admin,
      'POST',
      '/account/doctor/v2/register/qualification',
      profileBody(),
    );
    expect(byAdmin.statusCode).toBe(403);
    expect(codeOf(await call(app, tokens.patient, 'GET', '/account/doctor/me/qualification'))).toBe(
      'auth.permissionDenied',
    );
  });
});

describe('doctor list', () => {
  it('lists the doctors the caller sees, searchable, filterable and sortable', async () => {
    const all = dataOf<Page<DoctorSummary>>(await call(app, tokens.admin, 'GET', '/account/doctors?size=50'));
    expect(all.items.map((doctor) => doctor.id).sort()).toEqual(
      [org.doctorA.id, org.doctorA2.id, org.doctorB.id].sort(),
    );
    const centerA = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.adminA, 'GET', '/account/doctors?size=50'),
    );
    expect(centerA.items.map((doctor) => doctor.id).sort()).toEqual([org.doctorA.id, org.doctorA2.id].sort());
    expect(centerA.total).toBe(2);
    const bySpecialty = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.admin, 'GET', '/account/doctors?specialty=NEUROLOGY'),
    );
    expect(bySpecialty.items.map((doctor) => doctor.id).sort()).toEqual(
      [org.doctorA2.id, org.doctorB.id].sort(),
    );
    const search = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.admin, 'GET', '/account/doctors?search=second'),
    );
    expect(search.items.map((doctor) => doctor.id)).toEqual([org.doctorA2.id]);
    const family = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.admin, 'GET', '/account/doctors?kind=FAMILY_DOCTOR'),
    );
    expect(family.items.map((doctor) => doctor.id).sort()).toEqual([org.doctorA.id, org.doctorB.id].sort());
    const paged = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.admin, 'GET', '/account/doctors?size=1&page=1&sortField=name'),
    );
    expect(paged).toMatchObject({ total: 3 });
    expect(paged.items).toHaveLength(1);
    expect((await call(app, tokens.admin, 'GET', '/account/doctors?sortField=salary')).statusCode).toBe(400);
  });

  it('flags expired licenses by the server clock and filters by license state', async () => {
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, org.doctorB.id, -1);
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, org.doctorA2.id, -30);
    await addLicenseRow(testDb.ownerUrl, org.tenant.id, org.doctorA2.id, 0);
    const expired = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.admin, 'GET', '/account/doctors?licenseState=EXPIRED'),
    );
    expect(expired.items.map((doctor) => doctor.id)).toEqual([org.doctorB.id]);
    const valid = dataOf<Page<DoctorSummary>>(
      await call(app, tokens.admin, 'GET', '/account/doctors?licenseState=VALID'),
    );
    expect(valid.items.map((doctor) => doctor.id)).toEqual([org.doctorA2.id]);
    const profile = dataOf<DoctorProfile>(
      await call(app, tokens.admin, 'GET', `/account/doctors/${org.doctorA2.id}`),
    );
    expect(profile.licenses.map((license) => license.expired)).toEqual([false, true]);
  });
});

describe('medical licenses', () => {
  const licenseForm = (
    fields: Record<string, string>,
    image?: { content: Buffer | string; contentType?: string },
  ) =>
    multipart([
      ...Object.entries(fields).map(([name, content]) => ({ name, content })),
      ...(image === undefined
        ? []
        : [
            {
              name: 'image',
              filename: 'license.png',
              contentType: image.contentType ?? 'image/png',
              content: image.content,
            },
          ]),
    ]);
  const upload = (token: string, doctorId: string, body: ReturnType<typeof multipart>) =>
    app.inject({
      method: 'POST',
      url: `/account/doctors/${doctorId}/licenses`,
      payload: body.payload,
      headers: { ...body.headers, cookie: `rpm_session=${token}` },
    });
  const licenseCount = async (doctorId: string) =>
    (
      await asOwner<{ n: number }>(
        testDb.ownerUrl,
        'SELECT count(*)::int AS n FROM doctor_licenses WHERE doctor_id = $1',
        [doctorId],
      )
    )[0]?.n;

  it('adds a license with its image, serves the image back, and deletes both', async () => {
    const added = await upload(
      tokens.admin,
      org.doctorA.id,
      licenseForm({ name: 'Practising certificate', expiresOn: '2099-12-31' }, { content: PNG }),
    );
    expect(added.statusCode).toBe(200);
    const license = dataOf<DoctorProfile>(added).licenses.find(
      (candidate) => candidate.name === 'Practising certificate',
    );
    expect(license).toMatchObject({ expiresOn: '2099-12-31', expired: false, hasImage: true });
    const image = await call(
      app,
      tokens.adminA,
      'GET',
      `/account/doctors/${org.doctorA.id}/licenses/${license?.id ?? ''}/image`,
    );
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect(await auditCount(testDb.ownerUrl, 'DOCTOR_LICENSE_ADDED', license?.id ?? '')).toBe(1);
    const removed = await call(
      app,
      tokens.admin,
      'DELETE',
      `/account/doctors/${org.doctorA.id}/licenses/${license?.id ?? ''}`,
    );
    expect(removed.statusCode).toBe(200);
    expect(await licenseCount(org.doctorA.id)).toBe(0);
    expect(
      codeOf(
        await call(
          app,
          tokens.admin,
          'DELETE',
          `/account/doctors/${org.doctorA.id}/licenses/${license?.id ?? ''}`,
        ),
      ),
    ).toBe('doctor.licenseNotFound');
  });

  it('checks the image by its bytes and size, and the fields, storing nothing on failure', async () => {
    const notImage = await upload(
      tokens.admin,
      org.doctorA.id,
      licenseForm(
        { name: 'Fake', expiresOn: '2099-01-01' },
        { content: 'GIF89a not really', contentType: 'image/png' },
      ),
    );
    expect(notImage.statusCode).toBe(415);
    expect(codeOf(notImage)).toBe('file.unsupportedType');
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10)]);
    const tooLarge = await upload(
      tokens.admin,
      org.doctorA.id,
      licenseForm({ name: 'Big', expiresOn: '2099-01-01' }, { content: big }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(codeOf(tooLarge)).toBe('file.tooLarge');
    const missing = await upload(
      tokens.admin,
      org.doctorA.id,
      licenseForm({ name: 'No image', expiresOn: '2099-01-01' }),
    );
    expect(codeOf(missing)).toBe('file.missing');
    const badDate = await upload(
      tokens.admin,
      org.doctorA.id,
      licenseForm({ name: 'Bad date', expiresOn: '31/12/2099' }, { content: PNG }),
    );
    expect(codeOf(badDate)).toBe('common.invalidParameter');
    expect(await licenseCount(org.doctorA.id)).toBe(0);
  });

  it('refuses license changes to doctors and to admins of another center', async () => {
    const byDoctor = await upload(
      tokens.doctorA,
      org.doctorA.id,
      licenseForm({ name: 'Mine', expiresOn: '2099-01-01' }, { content: PNG }),
    );
    expect(byDoctor.statusCode).toBe(403);
    const otherCenter = await upload(
      tokens.adminB,
      org.doctorA.id,
      licenseForm({ name: 'Theirs', expiresOn: '2099-01-01' }, { content: PNG }),
    );
    expect(codeOf(otherCenter)).toBe('doctor.notFound');
    expect(await licenseCount(org.doctorA.id)).toBe(0);
  });
});
