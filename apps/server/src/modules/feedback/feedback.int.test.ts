import type { Feedback, InboxPage } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { multipart, type Part } from '../../../test/multipart.js';
import { call, careOrganisation, codeOf, dataOf, logInAs, PNG, type CareOrganisation } from '../doctors/test-support.js';

/**
 * Feedback (spec §3 Feedback, §5 files and feedback, §2 feedback form / question and feedback): sent
 * with images by patients and staff, triaged and answered by customer care, the reply reaching
 * the sender's notification centre; each sees only what the database lets it see.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let dataDir: string;
let tokens: { admin: string; adminA: string; adminB: string; doctorA: string; patient: string; otherPatient: string; cskh: string };

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-feedback-'));
  app = await createTestApp(testDb.database, { dataDir });
  org = await careOrganisation(testDb);
  const code = org.tenant.code;
  const otherUser = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerA.id });
  await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id, userId: otherUser.id });
  const cskh = await createTenantUser(testDb.database, org.tenant.id, { role: 'CSKH', firstName: 'Care', lastName: 'Desk' });
  tokens = {
    admin: await logInAs(app, code, org.admin),
    adminA: await logInAs(app, code, org.adminA),
    adminB: await logInAs(app, code, org.adminB),
    doctorA: await logInAs(app, code, org.doctorA),
    patient: await logInAs(app, code, org.patientUser),
    otherPatient: await logInAs(app, code, otherUser),
    cskh: await logInAs(app, code, cskh),
  };
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const FIELDS = { type: 'ERROR', category: 'SOFTWARE', description: 'The chart does not load', suggestion: 'Load it faster' };
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40, 0)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(30, 0)]);

function send(token: string, url: string, fields: Record<string, string>, images: { content: Buffer; filename: string }[] = []) {
  const parts: Part[] = [
    ...Object.entries(fields).map(([name, content]) => ({ name, content })),
    ...images.map((image) => ({ name: 'images', filename: image.filename, content: image.content, contentType: 'application/octet-stream' })),
  ];
  const body = multipart(parts);
  return app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers, ...withSession(token) });
}
const sendFromApp = (fields: Record<string, string>, images: { content: Buffer; filename: string }[] = [], token = tokens.patient) =>
  send(token, '/health/me/feedback', fields, images);
const sentOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<Feedback>(response);
};
const pageOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<{ items: Feedback[]; total: number; page: number; size: number }>(response);
};
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}
const countRows = async () => (await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM feedback'))[0]?.n ?? 0;

describe('sending feedback', () => {
  it('stores a patient’s feedback with its images (recognised by content), audited, and serves the images back', async () => {
    const sent = sentOf(await sendFromApp(FIELDS, [{ content: PNG, filename: 'screen.png' }, { content: GIF, filename: 'anim.gif' }, { content: WEBP, filename: 'photo.webp' }]));
    expect(sent).toMatchObject({ type: 'ERROR', category: 'SOFTWARE', status: 'NEW', description: FIELDS.description, suggestion: FIELDS.suggestion, replies: [] });
    expect(sent.sender).toMatchObject({ id: org.patientUser.id, kind: 'PATIENT', fullName: 'Hung Pham' });
    expect(sent.images.map((image) => [image.name, image.contentType])).toEqual([
      ['screen.png', 'image/png'],
      ['anim.gif', 'image/gif'],
      ['photo.webp', 'image/webp'],
    ]);
    const [image] = sent.images;
    const served = await app.inject({ url: `/health/me/feedback/${sent.id}/images/${image?.id ?? ''}`, ...withSession(tokens.patient) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const audit = await asOwner<{ action: string; actor_user_id: string }>(testDb.ownerUrl, "SELECT action, actor_user_id FROM audit_log WHERE target_id = $1", [sent.id]);
    expect(audit).toEqual([{ action: 'FEEDBACK_SENT', actor_user_id: org.patientUser.id }]);
  });

  it('takes feedback without an image (the image is optional) from staff too', async () => {
    const sent = sentOf(await send(tokens.doctorA, '/account/feedback', { type: 'IMPROVE', category: 'SERVICE', description: 'Add a dark theme' }));
    expect(sent).toMatchObject({ images: [], suggestion: null, sender: { id: org.doctorA.id, kind: 'STAFF' } });
    const mine = pageOf(await call(app, tokens.doctorA, 'GET', '/account/feedback/mine'));
    expect(mine.items.map((item) => item.id)).toEqual([sent.id]);
  });

  it('refuses a file that is not an image by its content, whatever its name, and keeps nothing', async () => {
    const rows = await countRows();
    const files = await storedFiles();
    const response = await sendFromApp(FIELDS, [{ content: PNG, filename: 'ok.png' }, { content: Buffer.from('<script>alert(1)</script>'.repeat(4)), filename: 'evil.png' }]);
    expect(response.statusCode).toBe(415);
    expect(codeOf(response)).toBe('file.unsupportedType');
    const pdf = await sendFromApp(FIELDS, [{ content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 32)]), filename: 'doc.jpg' }]);
    expect(codeOf(pdf)).toBe('file.unsupportedType');
    expect(await countRows()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('refuses an image over 5 MB and an empty file', async () => {
    const rows = await countRows();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 1)]);
    const tooLarge = await sendFromApp(FIELDS, [{ content: big, filename: 'big.png' }]);
    expect(tooLarge.statusCode).toBe(413);
    expect(codeOf(tooLarge)).toBe('file.tooLarge');
    const empty = await sendFromApp(FIELDS, [{ content: Buffer.alloc(0), filename: 'empty.png' }]);
    expect(empty.statusCode).toBe(400);
    expect(codeOf(empty)).toBe('file.empty');
    expect(empty.json<{ message: string }>().message).toBe('The file is empty');
    expect(await countRows()).toBe(rows);
  });

  it('refuses more than 5 images, a missing description, and unknown type or category', async () => {
    const rows = await countRows();
    const six = Array.from({ length: 6 }, (_, index) => ({ content: PNG, filename: `${String(index)}.png` }));
    expect(codeOf(await sendFromApp(FIELDS, six))).toBe('feedback.tooManyImages');
    const blank = await sendFromApp({ ...FIELDS, description: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field)).toEqual(['description']);
    const wrong = await sendFromApp({ ...FIELDS, type: 'PRAISE', category: 'FOOD' });
    expect(wrong.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field).sort()).toEqual(['category', 'type']);
    expect(await countRows()).toBe(rows);
  });

  it('keeps the app’s route to patient sessions', async () => {
    const response = await send(tokens.doctorA, '/health/me/feedback', FIELDS);
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('health.noPatientProfile');
  });
});

describe('triage by customer care', () => {
  it('lists, filters, searches, sorts and pages the feedback; refuses those without user.feedback', async () => {
    const marker = `marker${String(Date.now())}`;
    const ids: string[] = [];
    for (const [type, category] of [['ERROR', 'HARDWARE'], ['IMPROVE', 'HARDWARE'], ['ERROR', 'SERVICE']] as const)
      ids.push(sentOf(await sendFromApp({ type, category, description: `${marker} ${type} ${category}` })).id);
    const byMarker = pageOf(await call(app, tokens.cskh, 'GET', `/account/feedback?search=${marker}`));
    expect(byMarker.total).toBe(3);
    expect(byMarker.items.map((item) => item.id)).toEqual([...ids].reverse());
    const hardware = pageOf(await call(app, tokens.cskh, 'GET', `/account/feedback?search=${marker}&category=HARDWARE&type=ERROR`));
    expect(hardware.items.map((item) => item.id)).toEqual([ids[0]]);
    const paged = pageOf(await call(app, tokens.cskh, 'GET', `/account/feedback?search=${marker}&size=2&page=1&sortField=created&sortType=asc`));
    expect(paged).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(paged.items.map((item) => item.id)).toEqual([ids[2]]);
    const bySender = pageOf(await call(app, tokens.cskh, 'GET', `/account/feedback?search=Hung&senderKind=PATIENT&size=200`));
    expect(bySender.items.map((item) => item.id)).toEqual(expect.arrayContaining(ids));
    expect(pageOf(await call(app, tokens.cskh, 'GET', `/account/feedback?search=${marker}&status=RESOLVED`)).total).toBe(0);
    for (const token of [tokens.doctorA, tokens.patient]) {
      const refused = await call(app, token, 'GET', '/account/feedback');
      expect(refused.statusCode).toBe(403);
    }
  });

  it('moves the status along the workflow only, audited; a closed feedback stays closed', async () => {
    const sent = sentOf(await sendFromApp(FIELDS));
    const move = (status: string) => call(app, tokens.cskh, 'PUT', `/account/feedback/${sent.id}/status`, { status });
    expect(dataOf<Feedback>(await move('IN_PROGRESS')).status).toBe('IN_PROGRESS');
    const back = await move('NEW');
    expect(back.statusCode).toBe(409);
    expect(codeOf(back)).toBe('feedback.invalidTransition');
    expect(dataOf<Feedback>(await move('RESOLVED')).status).toBe('RESOLVED');
    expect(dataOf<Feedback>(await move('CLOSED')).status).toBe('CLOSED');
    expect(codeOf(await move('IN_PROGRESS'))).toBe('feedback.invalidTransition');
    const reply = await call(app, tokens.cskh, 'POST', `/account/feedback/${sent.id}/replies`, { body: 'Too late' });
    expect(reply.statusCode).toBe(409);
    expect(codeOf(reply)).toBe('feedback.closed');
    const audit = await asOwner<{ details: { from: string; to: string } }>(testDb.ownerUrl, "SELECT details FROM audit_log WHERE target_id = $1 AND action = 'FEEDBACK_STATUS_CHANGED' ORDER BY occurred_at, id", [sent.id]);
    expect(audit.map((row) => `${row.details.from}>${row.details.to}`)).toEqual(['NEW>IN_PROGRESS', 'IN_PROGRESS>RESOLVED', 'RESOLVED>CLOSED']);
  });

  it('stores a reply, takes the feedback up, and tells the sender in its notification centre', async () => {
    const sent = sentOf(await sendFromApp(FIELDS, [{ content: PNG, filename: 'screen.png' }]));
    const detail = dataOf<Feedback>(await call(app, tokens.cskh, 'GET', `/account/feedback/${sent.id}`));
    const image = await app.inject({ url: `/account/feedback/${sent.id}/images/${detail.images[0]?.id ?? ''}`, ...withSession(tokens.cskh) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const before = dataOf<InboxPage>(await call(app, tokens.patient, 'GET', '/notification/notification/inbox')).unread;
    const replied = dataOf<Feedback>(await call(app, tokens.cskh, 'POST', `/account/feedback/${sent.id}/replies`, { body: 'Fixed in the next version.' }));
    expect(replied.status).toBe('IN_PROGRESS');
    expect(replied.replies).toMatchObject([{ body: 'Fixed in the next version.', author: { fullName: 'Care Desk' } }]);
    const inbox = dataOf<InboxPage>(await call(app, tokens.patient, 'GET', '/notification/notification/inbox'));
    expect(inbox.unread).toBe(before + 1);
    expect(inbox.items[0]).toMatchObject({ kind: 'feedback.replied', type: 'MESSAGE', params: { feedbackId: sent.id, excerpt: 'Fixed in the next version.' }, link: '/feedback' });
    const mine = pageOf(await call(app, tokens.patient, 'GET', '/health/me/feedback?size=100'));
    expect(mine.items.find((item) => item.id === sent.id)?.replies.map((reply) => reply.body)).toEqual(['Fixed in the next version.']);
    const audit = await asOwner(testDb.ownerUrl, "SELECT 1 FROM audit_log WHERE target_id = $1 AND action = 'FEEDBACK_REPLIED'", [sent.id]);
    expect(audit).toHaveLength(1);
    // Nobody else was told.
    expect(dataOf<InboxPage>(await call(app, tokens.otherPatient, 'GET', '/notification/notification/inbox')).items.filter((item) => item.kind === 'feedback.replied')).toEqual([]);
  });
});

describe('who sees what', () => {
  it('shows a patient its own feedback only, and refuses another’s image', async () => {
    const mine = sentOf(await sendFromApp(FIELDS, [{ content: PNG, filename: 'mine.png' }]));
    const theirs = pageOf(await call(app, tokens.otherPatient, 'GET', '/health/me/feedback?size=100'));
    expect(theirs.items.map((item) => item.id)).not.toContain(mine.id);
    const image = await app.inject({ url: `/health/me/feedback/${mine.id}/images/${mine.images[0]?.id ?? ''}`, ...withSession(tokens.otherPatient) });
    expect(image.statusCode).toBe(404);
    expect(codeOf(image)).toBe('feedback.notFound');
    expect(pageOf(await call(app, tokens.patient, 'GET', '/health/me/feedback?size=100')).items.map((item) => item.id)).toContain(mine.id);
  });

  it('shows a center’s admins their center’s feedback, and another tenant nothing', async () => {
    const fromA = sentOf(await sendFromApp(FIELDS));
    const ofA = await call(app, tokens.adminA, 'GET', `/account/feedback/${fromA.id}`);
    expect(ofA.statusCode).toBe(200);
    const ofB = await call(app, tokens.adminB, 'GET', `/account/feedback/${fromA.id}`);
    expect(ofB.statusCode).toBe(404);
    expect(pageOf(await call(app, tokens.adminB, 'GET', '/account/feedback?size=200')).items.map((item) => item.id)).not.toContain(fromA.id);
    const refusedMove = await call(app, tokens.adminB, 'PUT', `/account/feedback/${fromA.id}/status`, { status: 'CLOSED' });
    expect(refusedMove.statusCode).toBe(404);

    const other = await createTenant(testDb.database);
    const intruder = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const token = await logInAs(app, other.code, intruder);
    expect(pageOf(await call(app, token, 'GET', '/account/feedback?size=200')).total).toBe(0);
    for (const [method, url, payload] of [
      ['GET', `/account/feedback/${fromA.id}`, undefined],
      ['PUT', `/account/feedback/${fromA.id}/status`, { status: 'CLOSED' }],
      ['POST', `/account/feedback/${fromA.id}/replies`, { body: 'Hello' }],
    ] as const) {
      const response = await call(app, token, method, url, payload);
      expect(response.statusCode, url).toBe(404);
    }
    const [row] = await asOwner<{ status: string }>(testDb.ownerUrl, 'SELECT status FROM feedback WHERE id = $1', [fromA.id]);
    expect(row?.status).toBe('NEW');
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM feedback_replies WHERE feedback_id = $1', [fromA.id])).toEqual([]);
  });
});
