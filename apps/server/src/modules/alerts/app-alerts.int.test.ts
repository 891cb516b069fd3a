import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { LIVE_BEARER_PROTOCOL, type LiveServerMessage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { multipart } from '../../../test/multipart.js';
import { ManualClock } from '../../lib/clock.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { purgeDeletedPatients } from '../patients/purge-job.js';
import { alertOrganisation, call, logInAs, signal, storeTestRecording, type AlertOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let dataDir: string;
let patientToken: string;
const clock = new ManualClock(new Date('2025-03-01T08:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-sos-recordings-'));
  app = await createTestApp(testDb.database, { dataDir }, clock);
  org = await alertOrganisation(testDb, app);
  patientToken = await logInAs(app, org.tenant.code, org.patientUser);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The first bytes of a WebM file (EBML header), then filler: what MediaRecorder writes first. */
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81]), Buffer.alloc(3000, 7)]);
const OGG = Buffer.concat([Buffer.from('OggS', 'latin1'), Buffer.alloc(500, 3)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects
const dataOf = <T,>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;

function upload(token: string, fields: Record<string, string>, content: Buffer, contentType = 'audio/webm') {
  const form = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, content: value })),
    { name: 'file', filename: 'sos.webm', content, contentType },
  ]);
  return app.inject({ method: 'POST', url: '/health/me/sos/recordings', payload: form.payload, headers: form.headers, ...withSession(token) });
}

describe('the patient app’s SOS with its message and voice recording', () => {
  let sosCaseId = '';

  it('records the chosen message on the case the SOS opens', async () => {
    const raised = await call(app, patientToken, 'POST', '/health/alerts/sos', {
      source: 'SOS_BUTTON',
      location: { lat: 10.77, lng: 106.7 },
      message: 'CHEST_PAIN',
    });
    expect(raised.statusCode, raised.body).toBe(200);
    sosCaseId = dataOf<{ sosCaseId: string }>(raised).sosCaseId;
    const detail = dataOf<{ history: { kind: string; note: string }[]; location: unknown }>(
      await call(app, org.adminToken, 'GET', `/account/sos-cases/${sosCaseId}`),
    );
    expect(detail.history.map((entry) => [entry.kind, entry.note])).toContainEqual(['PATIENT_MESSAGE', 'CHEST_PAIN']);
    expect(detail.location).toEqual({ lat: 10.77, lng: 106.7 });
  });

  it('refuses a message that is not one of the choices, and opens nothing more', async () => {
    const refused = await call(app, patientToken, 'POST', '/health/alerts/sos', { source: 'SOS_BUTTON', message: 'HELLO' });
    expect(refused.statusCode).toBe(400);
  });

  it('attaches a recording once per upload id; the console lists it and plays its bytes, audited', async () => {
    const uploadId = randomUUID();
    const fields = { sosCaseId, uploadId, durationSeconds: '12' };
    const first = await upload(patientToken, fields, WEBM);
    expect(first.statusCode, first.body).toBe(200);
    const again = await upload(patientToken, fields, WEBM);
    expect(dataOf<{ id: string }>(again).id).toBe(dataOf<{ id: string }>(first).id);
    const listed = await call(app, org.adminToken, 'GET', `/account/sos-cases/${sosCaseId}/recordings`);
    const recordings = dataOf<{ id: string; contentType: string; durationSeconds: number; sizeBytes: number }[]>(listed);
    expect(recordings.map((recording) => [recording.contentType, recording.durationSeconds, recording.sizeBytes])).toEqual([
      ['audio/webm', 12, WEBM.length],
    ]);
    const played = await call(app, org.adminToken, 'GET', `/account/sos-cases/${sosCaseId}/recordings/${recordings[0]?.id ?? ''}`);
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/webm');
    expect(played.rawPayload.equals(WEBM)).toBe(true);
    const audits = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      `SELECT action FROM audit_log WHERE request_id = $1`,
      [String(played.headers['x-request-id'])],
    );
    expect(audits.map((row) => row.action)).toEqual(['SOS_RECORDING_PLAYED']);
    const history = dataOf<{ history: { kind: string }[] }>(await call(app, org.adminToken, 'GET', `/account/sos-cases/${sosCaseId}`)).history;
    expect(history.filter((entry) => entry.kind === 'RECORDING')).toHaveLength(1);
  });

  it('accepts Ogg audio; refuses another type, a file over 2 MB, a bad length and a case that is not the patient’s', async () => {
    const ok = await upload(patientToken, { sosCaseId, uploadId: randomUUID(), durationSeconds: '3' }, OGG, 'audio/ogg');
    expect(dataOf<{ contentType: string }>(ok).contentType).toBe('audio/ogg');
    const png = await upload(patientToken, { sosCaseId, uploadId: randomUUID(), durationSeconds: '3' }, PNG);
    expect([png.statusCode, png.json<{ code: string }>().code]).toEqual([415, 'file.unsupportedType']);
    const huge = Buffer.concat([WEBM, Buffer.alloc(2 * 1024 * 1024, 1)]);
    const tooLarge = await upload(patientToken, { sosCaseId, uploadId: randomUUID(), durationSeconds: '3' }, huge);
    expect([tooLarge.statusCode, tooLarge.json<{ code: string }>().code]).toEqual([413, 'file.tooLarge']);
    const tooLong = await upload(patientToken, { sosCaseId, uploadId: randomUUID(), durationSeconds: '61' }, WEBM);
    expect(tooLong.statusCode).toBe(400);
    const otherCase = await call(app, org.adminToken, 'POST', `/account/patients/${org.patientB.id}/sos`, { note: 'Hotline' });
    const notOwn = await upload(patientToken, { sosCaseId: dataOf<{ id: string }>(otherCase).id, uploadId: randomUUID(), durationSeconds: '3' }, WEBM);
    expect([notOwn.statusCode, notOwn.json<{ code: string }>().code]).toEqual([404, 'sosCase.notFound']);
    const stored = await asOwner<{ total: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS total FROM sos_recordings', []);
    expect(stored[0]?.total).toBe(2);
  });

  it('answers a staff login with health.noPatientProfile', async () => {
    const staff = await upload(org.adminToken, { sosCaseId, uploadId: randomUUID(), durationSeconds: '3' }, WEBM);
    expect([staff.statusCode, staff.json<{ code: string }>().code]).toEqual([404, 'health.noPatientProfile']);
  });
});

describe('the waiting high-risk alert and the notifications list', () => {
  it('shows the waiting alert with its deadline (the tenant’s seconds), and none once "I am fine" answered it', async () => {
    await asOwner(testDb.ownerUrl, `UPDATE sos_cases SET status = 'CLOSED', closed_at = now() WHERE patient_id = $1`, [org.patientA.id]);
    await asOwner(testDb.ownerUrl, `UPDATE patients SET status = 'NORMAL', alerts_suppressed_until_normal = false WHERE id = $1`, [org.patientA.id]);
    await call(app, org.adminToken, 'PUT', '/account/alert-settings', { highRiskConfirmSeconds: 20, sosKpiMinutes: 5 });
    const outcome = await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientA.id, level: 'HIGH_RISK' });
    const waiting = dataOf<{ alert: { id: string; createdAt: string; deadline: string } | null; confirmSeconds: number }>(
      await call(app, patientToken, 'GET', '/health/me/alerts/waiting'),
    );
    expect(waiting.alert?.id).toBe(outcome.alertId);
    expect(waiting.confirmSeconds).toBe(20);
    expect(Date.parse(waiting.alert?.deadline ?? '') - Date.parse(waiting.alert?.createdAt ?? '')).toBe(20_000);
    await call(app, patientToken, 'POST', '/health/alerts/i-am-fine');
    const after = dataOf<{ alert: unknown }>(await call(app, patientToken, 'GET', '/health/me/alerts/waiting'));
    expect(after.alert).toBeNull();
  });

  it('lists the patient’s alerts newest first, unread until read; one or all marked read; another’s alert is not found', async () => {
    const page = dataOf<{ items: { id: string; level: string; read: boolean }[]; unread: number; total: number; size: number }>(
      await call(app, patientToken, 'GET', '/health/me/notifications'),
    );
    expect(page.size).toBe(15);
    expect(page.items[0]?.level).toBe('HIGH_RISK');
    expect(page.items.every((item) => !item.read)).toBe(true);
    expect(page.unread).toBe(page.total);
    const first = page.items[0]?.id ?? '';
    const marked = dataOf<{ unread: number }>(await call(app, patientToken, 'POST', '/health/me/notifications/read', { id: first }));
    expect(marked.unread).toBe(page.total - 1);
    const twice = dataOf<{ unread: number }>(await call(app, patientToken, 'POST', '/health/me/notifications/read', { id: first }));
    expect(twice.unread).toBe(page.total - 1);
    const reread = dataOf<{ items: { id: string; read: boolean }[] }>(await call(app, patientToken, 'GET', '/health/me/notifications'));
    expect(reread.items.find((item) => item.id === first)?.read).toBe(true);
    const other = await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientB.id, level: 'AT_RISK' });
    const foreign = await call(app, patientToken, 'POST', '/health/me/notifications/read', { id: other.alertId });
    expect([foreign.statusCode, foreign.json<{ code: string }>().code]).toEqual([404, 'alert.notFound']);
    const all = dataOf<{ unread: number }>(await call(app, patientToken, 'POST', '/health/me/notifications/read-all'));
    expect(all.unread).toBe(0);
    const reads = await asOwner<{ patient_id: string }>(testDb.ownerUrl, 'SELECT DISTINCT patient_id FROM alert_reads', []);
    expect(reads).toEqual([{ patient_id: org.patientA.id }]);
  });

  it('answers staff with health.noPatientProfile', async () => {
    const response = await call(app, org.adminToken, 'GET', '/health/me/notifications');
    expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([404, 'health.noPatientProfile']);
  });
});

describe('the live channel for a patient app (no Authorization header in a browser WebSocket)', () => {
  it('accepts the access token as a subprotocol; the patient gets its own alerts and not another patient’s', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    // The session token a login gives (the app keeps it and sends it as a bearer token).
    const token = await logIn(app, org.tenant.code, org.patientUser.email ?? '');
    const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/ws`, [LIVE_BEARER_PROTOCOL, token]);
    const messages: LiveServerMessage[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as LiveServerMessage));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => { resolve(); });
      socket.once('error', reject);
    });
    expect(socket.protocol).toBe(LIVE_BEARER_PROTOCOL);
    socket.send(JSON.stringify({ type: 'resume', after: null }));
    const until = async (condition: () => boolean) => {
      for (let tries = 0; tries < 100 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    };
    await until(() => messages.some((message) => message.type === 'resumed'));
    await asOwner(testDb.ownerUrl, `UPDATE patients SET status = 'NORMAL', alerts_suppressed_until_normal = false WHERE id IN ($1, $2)`, [org.patientA.id, org.patientB.id]);
    await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientB.id, level: 'HIGH_RISK' });
    const own = await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientA.id, level: 'HIGH_RISK' });
    await until(() => messages.some((message) => message.type === 'alert.raised'));
    socket.close();
    const raised = messages.filter((message) => message.type === 'alert.raised');
    expect(raised.map((message) => ('payload' in message ? message.payload.alertId : null))).toEqual([own.alertId]);
    expect(raised.every((message) => 'patientId' in message && message.patientId === org.patientA.id)).toBe(true);
  });

  it('refuses the upgrade with a subprotocol token that is no session', async () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/ws`, [LIVE_BEARER_PROTOCOL, 'not-a-token']);
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => { resolve(response.statusCode ?? 0); });
      socket.once('open', () => { resolve(101); });
      socket.once('error', () => { resolve(-1); });
    });
    expect(status).toBe(401);
  });
});

describe('a purged patient', () => {
  it('leaves no voice message behind: rows by cascade, bytes removed from the storage', async () => {
    const [open] = await asOwner<{ id: string }>(testDb.ownerUrl, `SELECT id FROM sos_cases WHERE patient_id = $1 LIMIT 1`, [org.patientB.id]);
    const recordingId = await storeTestRecording(testDb.ownerUrl, dataDir, { tenantId: org.tenant.id, patientId: org.patientB.id, sosCaseId: open?.id ?? '' });
    const [stored] = await asOwner<{ storage_key: string }>(testDb.ownerUrl, 'SELECT storage_key FROM sos_recordings WHERE id = $1', [recordingId]);
    const storage = createLocalFileStorage(path.join(dataDir, 'files'));
    expect(await storage.open(stored?.storage_key ?? '')).toBeDefined();
    await asOwner(testDb.ownerUrl, `UPDATE patients SET account_state = 'DISABLED', deletion_requested_at = now(), purge_after = $2 WHERE id = $1`, [
      org.patientB.id,
      clock.now(),
    ]);
    expect(await purgeDeletedPatients(testDb.database, clock, storage)).toBe(1);
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM sos_recordings WHERE id = $1', [recordingId])).toEqual([]);
    expect(await storage.open(stored?.storage_key ?? '')).toBeUndefined();
  });
});
