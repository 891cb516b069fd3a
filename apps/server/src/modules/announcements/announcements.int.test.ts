import { ANNOUNCEMENT_BATCH_SIZE, type AnnouncementDetail, type AnnouncementPage, type AnnouncementView, type InboxPage } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';
import { runDueJobsOf } from '../../../test/jobs.js';
import { ManualClock } from '../../lib/clock.js';
import { call, careOrganisation, codeOf, dataOf, logInAs, type CareOrganisation } from '../doctors/test-support.js';
import { sanitizeAnnouncementHtml } from './sanitize.js';
import { runPublishStep } from './service.js';

/**
 * Announcements (spec §1, §2 compose and list, §6): composing at each level, the sanitized body,
 * who receives one, scheduled publishing by the durable job, cancel, read counts, and isolation.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
const clock = new ManualClock(new Date('2026-12-01T06:00:00Z'));
const tokens: Record<string, string> = {};
let scopeAdmin: { id: string };
let coach: { id: string };
let patientB: { id: string };

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  const { database } = testDb;
  scopeAdmin = await createTenantUser(database, org.tenant.id, { role: 'SCOPE_ADMIN', scopeId: org.north });
  coach = await createTenantUser(database, org.tenant.id, { role: 'COACH' });
  const patientBUser = await createTenantUser(database, org.tenant.id, { role: 'PATIENT' });
  await asOwner(testDb.ownerUrl, 'UPDATE patients SET user_id = $1 WHERE id = $2', [patientBUser.id, org.patientB.id]);
  patientB = patientBUser;
  // A patient of no center: only the whole tenant reaches them.
  const loneUser = await createTenantUser(database, org.tenant.id, { role: 'PATIENT' });
  await createPatient(database, org.tenant.id, { userId: loneUser.id });
  const superAdmin = await createPlatformUser(database);
  Object.assign(people, {
    superAdmin,
    admin: org.admin,
    adminA: org.adminA,
    scopeAdmin,
    doctorA: org.doctorA,
    doctorB: org.doctorB,
    patient: org.patientUser,
    patientB: patientBUser,
  });
  await logInEveryone();
});

const people: Record<string, { email: string | null }> = {};
async function logInEveryone() {
  for (const [name, user] of Object.entries(people)) tokens[name] = await logInAs(app, org.tenant.code, user);
}
/** Moves the clock (sessions last 15 minutes, so everyone logs in again). */
async function moveClockTo(at: Date) {
  clock.advance(at.getTime() - clock.now().getTime());
  await logInEveryone();
}
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const as = (who: string) => {
  const token = tokens[who];
  if (token === undefined) throw new Error(`no token for ${who}`);
  return token;
};
const compose = (who: string, body: Record<string, unknown>) => call(app, as(who), 'POST', '/manage/announcements', body);
const write = (overrides: Record<string, unknown> = {}, audience: Record<string, unknown> = {}) => ({
  title: 'Clinic hours',
  body: '<p>We open at <strong>8:00</strong>.</p>',
  audience: { staffRoles: ['DOCTOR'], patients: true, ...audience },
  action: 'publish',
  ...overrides,
});
const recipientsOf = async (id: string) =>
  (
    await asOwner<{ recipient_id: string }>(
      testDb.ownerUrl,
      `SELECT recipient_id FROM notifications WHERE kind = 'announcement.published' AND params ->> 'announcementId' = $1 ORDER BY recipient_id`,
      [id],
    )
  ).map((row) => row.recipient_id);
const sorted = (ids: string[]) => [...ids].sort();
const inbox = async (who: string) => dataOf<InboxPage>(await call(app, as(who), 'GET', '/notification/notification/inbox?type=ANNOUNCEMENT'));

describe('sanitizing the body', () => {
  it('keeps basic formatting, lists and safe links; drops scripts, handlers, styles and javascript: links', () => {
    const html = sanitizeAnnouncementHtml(
      '<h2>Title</h2><p onclick="x()">Hi <b>bold</b> <em>it</em><script>alert(1)</script></p><img src=x onerror="alert(1)"><ul><li>one</li></ul>' +
        '<a href="javascript:alert(1)">bad</a> <a href="https://example.org" onmouseover="x()">good</a><style>p{}</style><iframe src="https://e.x"></iframe>',
    );
    expect(html).toBe(
      '<h2>Title</h2><p>Hi <b>bold</b> <em>it</em></p><ul><li>one</li></ul><a target="_blank" rel="noopener noreferrer">bad</a> <a href="https://example.org" target="_blank" rel="noopener noreferrer">good</a>',
    );
  });

  it('stores the sanitized body and refuses one with nothing left', async () => {
    const response = await compose('admin', write({ action: 'save', body: '<p>Read <a href="javascript:alert(1)">this</a></p><script>alert(1)</script><img src=x onerror=alert(1)>' }));
    expect(response.statusCode, response.body).toBe(200);
    const [stored] = await asOwner<{ body_html: string; status: string }>(testDb.ownerUrl, 'SELECT body_html, status FROM announcements WHERE id = $1', [
      dataOf<AnnouncementDetail>(response).id,
    ]);
    expect(stored).toEqual({ body_html: '<p>Read <a target="_blank" rel="noopener noreferrer">this</a></p>', status: 'DRAFT' });
    const empty = await compose('admin', write({ body: '<script>alert(1)</script><img src=x>' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field)).toEqual(['body.body']);
  });

  it('validates the fields', async () => {
    for (const [body, field] of [
      [write({ title: '' }), 'body.title'],
      [write({}, { staffRoles: [], patients: false }), 'body.audience.staffRoles'],
      [write({}, { scopeId: org.north, centerId: org.centerA.id }), 'body.audience.centerId'],
      [write({ action: 'schedule' }), 'body.publishAt'],
      [write({}, { staffRoles: ['PATIENT'] }), 'body.audience.staffRoles.0'],
    ] as const) {
      const response = await compose('admin', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field)).toContain(field);
    }
    const past = await compose('admin', write({ action: 'schedule', publishAt: '2026-11-30T06:00:00Z' }));
    expect(past.statusCode).toBe(400);
    expect(past.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field)).toEqual(['body.publishAt']);
  });
});

describe('audiences', () => {
  it('the whole tenant: staff of the chosen roles everywhere and every patient account, a notice each linking to the view', async () => {
    const response = await compose('superAdmin', write({}, { staffRoles: ['DOCTOR', 'COACH'], patients: true }));
    expect(response.statusCode, response.body).toBe(200);
    const detail = dataOf<AnnouncementDetail>(response);
    expect(detail).toMatchObject({ status: 'PUBLISHED', publishedAt: clock.now().toISOString(), audience: { scope: null, center: null } });
    const recipients = await recipientsOf(detail.id);
    expect(recipients).toContain(org.doctorA.id);
    expect(recipients).toContain(org.doctorA2.id);
    expect(recipients).toContain(org.doctorB.id);
    expect(recipients).toContain(coach.id);
    expect(recipients).toContain(org.patientUser.id);
    expect(recipients).toContain(patientB.id);
    expect(recipients).not.toContain(org.adminA.id);
    expect(recipients).toHaveLength(7); // 3 doctors, a coach, 3 patient accounts (one of no center)
    const [notice] = (await inbox('doctorA')).items;
    expect(notice).toMatchObject({ kind: 'announcement.published', type: 'ANNOUNCEMENT', link: `/announcements/${detail.id}`, params: { announcementId: detail.id, title: 'Clinic hours' } });
  });

  it('a center: its staff of the roles and its patients only', async () => {
    const detail = dataOf<AnnouncementDetail>(await compose('admin', write({}, { centerId: org.centerA.id })));
    expect(await recipientsOf(detail.id)).toEqual(sorted([org.doctorA.id, org.doctorA2.id, org.patientUser.id]));
    expect(detail.audience.center).toEqual({ id: org.centerA.id, name: 'Center A' });
  });

  it('a scope: the staff and patients of its centers (and below), roles narrowing the staff', async () => {
    const doctors = dataOf<AnnouncementDetail>(await compose('admin', write({}, { scopeId: org.south, patients: false })));
    expect(await recipientsOf(doctors.id)).toEqual([org.doctorB.id]);
    const everyoneNorth = dataOf<AnnouncementDetail>(await compose('admin', write({}, { scopeId: org.north, staffRoles: ['SCOPE_ADMIN', 'MHSC_ADMIN'], patients: false })));
    expect(await recipientsOf(everyoneNorth.id)).toEqual(sorted([scopeAdmin.id, org.adminA.id]));
    const patientsOnly = dataOf<AnnouncementDetail>(await compose('admin', write({}, { scopeId: org.south, staffRoles: [], patients: true })));
    expect(await recipientsOf(patientsOnly.id)).toEqual([patientB.id]);
  });
});

describe('levels', () => {
  it('a center admin composes for their center only: the tenant, a scope or another center are refused, nothing stored', async () => {
    const before = await asOwner<{ n: string }>(testDb.ownerUrl, 'SELECT count(*) AS n FROM announcements');
    const whole = await compose('adminA', write());
    expect(whole.statusCode).toBe(403);
    expect(codeOf(whole)).toBe('auth.permissionDenied');
    const scope = await compose('adminA', write({}, { scopeId: org.north }));
    expect(scope.statusCode).toBe(403);
    const other = await compose('adminA', write({}, { centerId: org.centerB.id }));
    expect(other.statusCode).toBe(404);
    expect(codeOf(other)).toBe('center.notFound');
    expect(await asOwner<{ n: string }>(testDb.ownerUrl, 'SELECT count(*) AS n FROM announcements')).toEqual(before);
    const own = await compose('adminA', write({}, { centerId: org.centerA.id }));
    expect(own.statusCode, own.body).toBe(200);
  });

  it('a scope admin composes for their scope and its centers, not the tenant or another scope', async () => {
    expect((await compose('scopeAdmin', write({}, { scopeId: org.north }))).statusCode).toBe(200);
    expect((await compose('scopeAdmin', write({}, { centerId: org.centerA.id }))).statusCode).toBe(200);
    expect(codeOf(await compose('scopeAdmin', write({}, { scopeId: org.south })))).toBe('auth.permissionDenied');
    expect(codeOf(await compose('scopeAdmin', write()))).toBe('auth.permissionDenied');
    expect(codeOf(await compose('scopeAdmin', write({}, { centerId: org.centerB.id })))).toBe('center.notFound');
  });

  it('lists only what lies within the caller’s level, and refuses staff without the permission', async () => {
    const forCenterA = dataOf<AnnouncementPage>(await call(app, as('adminA'), 'GET', '/manage/announcements?size=200'));
    expect(forCenterA.items.length).toBeGreaterThan(0);
    expect(forCenterA.items.every((item) => item.audience.center?.id === org.centerA.id)).toBe(true);
    const all = dataOf<AnnouncementPage>(await call(app, as('admin'), 'GET', '/manage/announcements?size=200'));
    expect(all.total).toBeGreaterThan(forCenterA.total);
    const wholeTenant = all.items.find((item) => item.audience.center === null && item.audience.scope === null);
    if (wholeTenant === undefined) throw new Error('a whole-tenant announcement expected');
    expect(codeOf(await call(app, as('adminA'), 'GET', `/manage/announcements/${wholeTenant.id}`))).toBe('announcement.notFound');
    const doctor = await call(app, as('doctorA'), 'GET', '/manage/announcements');
    expect(doctor.statusCode).toBe(403);
    expect((await compose('doctorA', write({}, { centerId: org.centerA.id }))).statusCode).toBe(403);
  });
});

describe('scheduling, cancel and edits', () => {
  it('publishes a scheduled announcement when the job runs at its time, not before', async () => {
    const at = new Date(clock.now().getTime() + 60 * 60 * 1000);
    const response = await compose('admin', write({ action: 'schedule', publishAt: at.toISOString(), title: 'Later' }, { centerId: org.centerA.id }));
    const detail = dataOf<AnnouncementDetail>(response);
    expect(detail).toMatchObject({ status: 'SCHEDULED', publishAt: at.toISOString(), publishedAt: null, recipients: 0 });
    await runDueJobsOf(app, testDb, { now: new Date(at.getTime() - 1000) });
    expect(await recipientsOf(detail.id)).toEqual([]);
    await moveClockTo(at);
    expect(await runDueJobsOf(app, testDb, { now: at })).toMatchObject({ failed: 0 });
    const after = dataOf<AnnouncementDetail>(await call(app, as('admin'), 'GET', `/manage/announcements/${detail.id}`));
    expect(after).toMatchObject({ status: 'PUBLISHED', publishedAt: at.toISOString(), recipients: 3, read: 0 });
    // Published: no more edits, no cancel.
    const edit = await call(app, as('admin'), 'PUT', `/manage/announcements/${detail.id}`, write({ action: 'save' }, { centerId: org.centerA.id }));
    expect(edit.statusCode).toBe(409);
    expect(codeOf(edit)).toBe('announcement.notEditable');
    expect(codeOf(await call(app, as('admin'), 'POST', `/manage/announcements/${detail.id}/cancel`))).toBe('announcement.notEditable');
  });

  it('a canceled scheduled announcement is never published; a rescheduled one runs at its new time', async () => {
    const at = new Date(clock.now().getTime() + 60_000);
    const canceled = dataOf<AnnouncementDetail>(await compose('admin', write({ action: 'schedule', publishAt: at.toISOString() }, { centerId: org.centerA.id })));
    const cancel = await call(app, as('admin'), 'POST', `/manage/announcements/${canceled.id}/cancel`);
    expect(dataOf<AnnouncementDetail>(cancel).status).toBe('CANCELED');
    const moved = dataOf<AnnouncementDetail>(await compose('admin', write({ action: 'schedule', publishAt: at.toISOString() }, { centerId: org.centerA.id })));
    const later = new Date(at.getTime() + 60 * 60_000);
    const edited = await call(app, as('admin'), 'PUT', `/manage/announcements/${moved.id}`, write({ action: 'schedule', publishAt: later.toISOString(), title: 'Moved' }, { centerId: org.centerA.id }));
    expect(dataOf<AnnouncementDetail>(edited)).toMatchObject({ title: 'Moved', status: 'SCHEDULED' });
    await runDueJobsOf(app, testDb, { now: new Date(at.getTime() + 1000) });
    expect(await recipientsOf(canceled.id)).toEqual([]);
    expect(await recipientsOf(moved.id)).toEqual([]);
    await moveClockTo(later);
    await runDueJobsOf(app, testDb);
    expect(await recipientsOf(canceled.id)).toEqual([]);
    expect(await recipientsOf(moved.id)).toHaveLength(3);
    const audits = await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY occurred_at, id`, [moved.id]);
    expect(audits.map((row) => row.action)).toEqual(['ANNOUNCEMENT_CREATED', 'ANNOUNCEMENT_UPDATED', 'ANNOUNCEMENT_PUBLISHED']);
  });
});

describe('large audiences', () => {
  it('notifies the first batch at once and the rest from the job, each person once', async () => {
    const center = await createHealthCenter(testDb.database, org.tenant.id, 'Big center');
    await asOwner(
      testDb.ownerUrl,
      `WITH made AS (
         INSERT INTO users (tenant_id, id, email, first_name, last_name, role, health_center_id)
         SELECT $1, gen_random_uuid(), 'bulk-' || n || '-' || $2 || '@test.example', 'Bulk', 'Patient', 'PATIENT', $2::uuid FROM generate_series(1, 620) AS n
         RETURNING id)
       INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, health_center_id, user_id)
       SELECT $1, gen_random_uuid(), 'B' || substr(id::text, 1, 8) || substr(id::text, 25), 'Bulk', 'Patient', $2::uuid, id FROM made`,
      [org.tenant.id, center.id],
    );
    const detail = dataOf<AnnouncementDetail>(await compose('admin', write({}, { centerId: center.id, staffRoles: [], patients: true })));
    expect(detail.recipients).toBe(ANNOUNCEMENT_BATCH_SIZE);
    expect(await runDueJobsOf(app, testDb)).toMatchObject({ failed: 0 });
    await runDueJobsOf(app, testDb);
    const recipients = await recipientsOf(detail.id);
    expect(recipients).toHaveLength(620);
    expect(new Set(recipients).size).toBe(620);
    // A job run again changes nothing.
    await runPublishStep(app.database, app.clock, org.tenant.id, detail.id);
    expect(await recipientsOf(detail.id)).toHaveLength(620);
  });
});

describe('reading', () => {
  it('recipients read it (their notice marked read, counted); others get not found', async () => {
    const detail = dataOf<AnnouncementDetail>(await compose('admin', write({ title: 'Read me' }, { centerId: org.centerA.id })));
    const view = await call(app, as('patient'), 'GET', `/notification/announcements/${detail.id}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(dataOf<AnnouncementView>(view)).toMatchObject({ id: detail.id, title: 'Read me', bodyHtml: '<p>We open at <strong>8:00</strong>.</p>' });
    expect((await call(app, as('doctorA'), 'GET', `/notification/announcements/${detail.id}`)).statusCode).toBe(200);
    for (const outsider of ['patientB', 'doctorB', 'adminA']) {
      const refused = await call(app, as(outsider), 'GET', `/notification/announcements/${detail.id}`);
      expect(refused.statusCode, outsider).toBe(404);
      expect(codeOf(refused)).toBe('announcement.notFound');
    }
    const listed = dataOf<AnnouncementPage>(await call(app, as('admin'), 'GET', '/manage/announcements?search=read%20me'));
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ recipients: 3, read: 2 });
  });

  it('a draft is read by no one, even by those it would reach', async () => {
    const draft = dataOf<AnnouncementDetail>(await compose('admin', write({ action: 'save' }, { centerId: org.centerA.id })));
    expect((await call(app, as('patient'), 'GET', `/notification/announcements/${draft.id}`)).statusCode).toBe(404);
  });

  it('sorts and filters the list', async () => {
    const byTitle = dataOf<AnnouncementPage>(await call(app, as('admin'), 'GET', '/manage/announcements?sortField=title&sortType=asc&size=200'));
    const titles = byTitle.items.map((item) => item.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const canceled = dataOf<AnnouncementPage>(await call(app, as('admin'), 'GET', '/manage/announcements?status=CANCELED'));
    expect(canceled.items.every((item) => item.status === 'CANCELED')).toBe(true);
    expect(canceled.total).toBe(1);
  });
});

describe('other tenants', () => {
  it('another tenant’s admin sees none, reads none and changes none', async () => {
    const other = await createTenant(testDb.database);
    const otherAdmin = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const token = await logInAs(app, other.code, otherAdmin);
    const mine = dataOf<AnnouncementDetail>(await compose('admin', write({ action: 'save', title: 'Ours' }, { centerId: org.centerA.id })));
    expect(dataOf<AnnouncementPage>(await call(app, token, 'GET', '/manage/announcements')).total).toBe(0);
    expect((await call(app, token, 'GET', `/manage/announcements/${mine.id}`)).statusCode).toBe(404);
    expect((await call(app, token, 'POST', `/manage/announcements/${mine.id}/cancel`)).statusCode).toBe(404);
    expect((await call(app, token, 'PUT', `/manage/announcements/${mine.id}`, write({ action: 'publish' }))).statusCode).toBe(404);
    expect((await call(app, token, 'GET', `/notification/announcements/${mine.id}`)).statusCode).toBe(404);
    const [row] = await asOwner<{ status: string; title: string }>(testDb.ownerUrl, 'SELECT status, title FROM announcements WHERE id = $1', [mine.id]);
    expect(row).toEqual({ status: 'DRAFT', title: 'Ours' });
    // Their announcement to their whole tenant reaches none of ours.
    const theirs = await call(app, token, 'POST', '/manage/announcements', write({}, { staffRoles: ['DOCTOR'], patients: true }));
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(await recipientsOf(dataOf<AnnouncementDetail>(theirs).id)).toEqual([]);
  });
});
