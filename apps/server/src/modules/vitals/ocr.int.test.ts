import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { multipart } from '../../../test/multipart.js';
import { batchOf, call, logInAs, postBatch, setTenantSettings, storedReadings, vitalsOrganisation } from './test-support.js';

/** A photo of a monitor's display: "SYS 128 mmHg / DIA 82 mmHg / PUL 71 /min" in print. */
const DISPLAY = readFileSync(new URL('./ocr-fixtures/blood-pressure-display.png', import.meta.url));

let testDb: TestDatabase;
let app: FastifyInstance;
/** A stand-in for Google Cloud Vision: records each request and answers what the test sets. */
let vision: Server;
const visionRequests: { url: string; apiKey: string | undefined; body: { requests: { image: { content: string }; features: { type: string }[] }[] } }[] = [];
let visionAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let cloudApp: FastifyInstance;

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  vision = createServer((request, response) => {
    void readBody(request).then((text) => {
      const apiKey = request.headers['x-goog-api-key'];
      visionRequests.push({ url: request.url ?? '', apiKey: typeof apiKey === 'string' ? apiKey : undefined, body: JSON.parse(text) as never });
      response.writeHead(visionAnswer.status, { 'content-type': 'application/json' }).end(JSON.stringify(visionAnswer.body));
    });
  });
  await new Promise<void>((resolve) => vision.listen(0, '127.0.0.1', resolve));
  const { port } = vision.address() as AddressInfo;
  cloudApp = await createTestApp(testDb.database, { ocrCloudUrl: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await app.close();
  await cloudApp.close();
  await new Promise((resolve) => vision.close(resolve));
  await testDb.drop();
});

function postPhoto(target: FastifyInstance, token: string, content: Buffer, field = 'image') {
  const body = multipart([{ name: field, filename: 'display.png', content, contentType: 'image/png' }]);
  return target.inject({ method: 'POST', url: '/collector/ocr', payload: body.payload, headers: body.headers, ...withSession(token) });
}

describe('POST /collector/ocr (photo entry)', () => {
  it('reads a monitor’s display with the local tesseract.js adapter; the confirmed values are saved as PHOTO_OCR', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.patientUser);
    const response = await postPhoto(app, token, DISPLAY);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<{ data: { adapter: string; text: string; candidates: unknown[] } }>().data;
    expect(result.adapter).toBe('LOCAL');
    expect(result.text).toMatch(/SYS\s+128/);
    expect(result.candidates).toEqual([
      { measure: 'BLOOD_PRESSURE', systolic: 128, diastolic: 82, unit: 'mmHg' },
      { measure: 'HEART_RATE', value: 71, unit: null },
    ]);
    // Reading a photo stores nothing; what the patient confirms is sent as a PHOTO_OCR batch.
    expect(await storedReadings(testDb.ownerUrl, org.patientA.id)).toEqual([]);
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    const saved = await postBatch(app, token, batchOf(undefined, [
      { measure: 'BLOOD_PRESSURE', systolic: 128, diastolic: 82, measuredAt: at, source: 'PHOTO_OCR' },
      { measure: 'HEART_RATE', value: 71, measuredAt: at, source: 'PHOTO_OCR' },
    ]));
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = await storedReadings(testDb.ownerUrl, org.patientA.id);
    expect(stored.map((row) => [row.measure, row.value, row.source])).toEqual([
      ['DIASTOLIC', 82, 'PHOTO_OCR'],
      ['HEART_RATE', 71, 'PHOTO_OCR'],
      ['SYSTOLIC', 128, 'PHOTO_OCR'],
    ]);
  });

  it('refuses a photo over 5 MB, a file that is not an image, and a missing photo, with the file messages', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.patientUser);
    const oversized = Buffer.concat([DISPLAY, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await postPhoto(app, token, oversized);
    expect([tooLarge.statusCode, tooLarge.json<{ code: string }>().code]).toEqual([413, 'file.tooLarge']);
    const script = await postPhoto(app, token, Buffer.from('<script>alert(1)</script>'));
    expect([script.statusCode, script.json<{ code: string }>().code]).toEqual([415, 'file.unsupportedType']);
    const gif = await postPhoto(app, token, Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'));
    expect([gif.statusCode, gif.json<{ code: string }>().code]).toEqual([415, 'file.unsupportedType']);
    const otherField = await postPhoto(app, token, DISPLAY, 'file');
    expect([otherField.statusCode, otherField.json<{ code: string }>().code]).toEqual([400, 'file.missing']);
    const json = await call(app, token, 'POST', '/collector/ocr', { image: 'x' });
    expect([json.statusCode, json.json<{ code: string }>().code]).toEqual([400, 'file.missing']);
  });

  it('answers staff health.noPatientProfile: the call reads the caller’s own photo', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const response = await postPhoto(app, token, DISPLAY);
    expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([404, 'health.noPatientProfile']);
  });

  it('uses the cloud adapter (Google Cloud Vision images:annotate) when the tenant has an OCR API key', async () => {
    const org = await vitalsOrganisation(testDb);
    await setTenantSettings(testDb, org.tenant.id, { OCR_HEALTH_DEVICE_API_KEY: 'vision-key-123' });
    const token = await logInAs(cloudApp, org.tenant.code, org.patientUser);
    visionAnswer = {
      status: 200,
      body: { responses: [{ fullTextAnnotation: { text: 'SpO2 96 %\nPR 64 bpm\n' }, textAnnotations: [{ description: 'SpO2 96 %' }] }] },
    };
    visionRequests.length = 0;
    const response = await postPhoto(cloudApp, token, DISPLAY);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: unknown }>().data).toEqual({
      adapter: 'CLOUD',
      text: 'SpO2 96 %\nPR 64 bpm\n',
      candidates: [
        { measure: 'HEART_RATE', value: 64, unit: null },
        { measure: 'SPO2', value: 96, unit: null },
      ],
    });
    expect(visionRequests).toHaveLength(1);
    const [sent] = visionRequests;
    expect(sent?.url).toBe('/v1/images:annotate');
    expect(sent?.apiKey).toBe('vision-key-123');
    expect(sent?.body.requests[0]?.features).toEqual([{ type: 'TEXT_DETECTION' }]);
    expect(Buffer.from(sent?.body.requests[0]?.image.content ?? '', 'base64').equals(DISPLAY)).toBe(true);

    // A failing service: 503, and the patient types the values instead.
    visionAnswer = { status: 403, body: { error: { code: 403, message: 'API key not valid' } } };
    const failed = await postPhoto(cloudApp, token, DISPLAY);
    expect([failed.statusCode, failed.json<{ code: string }>().code]).toEqual([503, 'common.unavailable']);
    visionAnswer = { status: 200, body: { responses: [{ error: { code: 3, message: 'Bad image data' } }] } };
    const refused = await postPhoto(cloudApp, token, DISPLAY);
    expect(refused.statusCode).toBe(503);
  });

  it('answers no candidates for a photo without readings', async () => {
    const org = await vitalsOrganisation(testDb);
    await setTenantSettings(testDb, org.tenant.id, { OCR_HEALTH_DEVICE_API_KEY: 'vision-key-456' });
    const token = await logInAs(cloudApp, org.tenant.code, org.patientUser);
    visionAnswer = { status: 200, body: { responses: [{}] } };
    const response = await postPhoto(cloudApp, token, DISPLAY);
    expect(response.json<{ data: unknown }>().data).toEqual({ adapter: 'CLOUD', text: '', candidates: [] });
  });
});

describe('GET /collector/me/thresholds', () => {
  it('gives a patient its own thresholds, audited; staff get health.noPatientProfile', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.patientUser);
    const response = await call(app, token, 'GET', '/collector/me/thresholds');
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<{ data: { thresholds: { SPO2: { HIGH_RISK: { lower: number } } } } }>().data;
    expect(view.thresholds.SPO2.HIGH_RISK.lower).toBe(92);
    const rows = await asOwner<{ action: string; details: { patientIds?: string[] } }>(
      testDb.ownerUrl,
      'SELECT action, details FROM audit_log WHERE request_id = $1',
      [String(response.headers['x-request-id'])],
    );
    expect(rows.map((row) => [row.action, row.details.patientIds])).toEqual([['THRESHOLDS_VIEWED', [org.patientA.id]]]);

    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    const refused = await call(app, doctor, 'GET', '/collector/me/thresholds');
    expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([404, 'health.noPatientProfile']);
  });
});
