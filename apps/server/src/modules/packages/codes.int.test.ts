import { randomUUID } from 'node:crypto';
import { CODE_ALPHABET, type ActivationCode, type CodePackage, type PatientSubscriptionsView, type ServicePackage } from '@rpm/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, type AlertOrganisation } from '../alerts/test-support.js';
import { dataOf } from '../doctors/test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let admin: string;
let patient: string;
let gold: ServicePackage;
const clock = new ManualClock(new Date('2026-03-01T03:00:00Z'));

const codeOf = (response: { json: () => unknown }) => (response.json() as { code?: string }).code;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  admin = org.adminToken;
  patient = await logInAs(app, org.tenant.code, org.patientUser);
  const zero = { code: 'ZERO', kind: 'PACKAGE', name: 'Zero', plan: 'ZERO', priceMinor: 0, currency: 'VND', durationMonths: -1 };
  expect((await call(app, admin, 'POST', '/account/packages', zero)).statusCode).toBe(200);
  const created = await call(app, admin, 'POST', '/account/packages', {
    code: 'GOLD12',
    kind: 'PACKAGE',
    name: 'Gold 12 months',
    level: 'GOLD',
    priceMinor: 240_000,
    currency: 'VND',
    durationMonths: 12,
    userFeatures: ['VIDEO_CONSULTATION'],
  });
  gold = dataOf<ServicePackage>(created);
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, $2, 'V19', 'SN-CODE-1', 'AA:BB:CC:00:11:33', $3)`,
    [org.tenant.id, randomUUID(), org.patientA.id],
  );
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function sheetRows(body: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => (value instanceof Date ? value.toISOString() : String(value)))));
  return rows;
}

const batch = (overrides: Record<string, unknown> = {}) => ({
  name: 'Hospital partner cards',
  type: 'PACKAGE',
  prefix: 'HP',
  totalCodes: 5,
  availableFrom: '2026-02-01',
  expiresOn: '2026-12-31',
  purpose: 'Patients discharged from the partner hospital',
  benefit: 'A year of Gold',
  packageId: gold.id,
  recipientOrganization: 'Partner Hospital',
  ...overrides,
});

describe('activation codes', () => {
  let codes: string[][] = [];
  let batchId = '';

  it('generates random codes shown once, stores them hashed, and refuses an incomplete form', async () => {
    const response = await call(app, admin, 'POST', '/account/code-packages', batch());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    batchId = String(response.headers['x-code-package-id']);
    codes = (await sheetRows(response.rawPayload)).slice(1);
    expect(codes.map((row) => row[0])).toEqual(['HP000001', 'HP000002', 'HP000003', 'HP000004', 'HP000005']);
    for (const [, code] of codes) expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{4}-[${CODE_ALPHABET}]{4}-[${CODE_ALPHABET}]{4}$`));
    expect(new Set(codes.map((row) => row[1])).size).toBe(5);
    // Only hashes are stored: no secret appears in the table.
    const stored = await asOwner<{ code_hash: string; state: string }>(testDb.ownerUrl, 'SELECT code_hash, state FROM activation_codes ORDER BY series');
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.code_hash) && row.state === 'NOT_PAID')).toBe(true);
    const secrets = codes.map((row) => (row[1] ?? '').replace(/-/g, ''));
    expect(stored.some((row) => secrets.some((secret) => row.code_hash.includes(secret.toLowerCase())))).toBe(false);

    for (const refused of [batch({ prefix: 'HP' }), batch({ prefix: 'X1', name: '' }), batch({ prefix: 'X2', expiresOn: '2026-01-01' }), batch({ prefix: 'X3', type: 'ADDON' })]) {
      const answer = await call(app, admin, 'POST', '/account/code-packages', refused);
      expect([400, 409]).toContain(answer.statusCode);
    }
    const duplicate = await call(app, admin, 'POST', '/account/code-packages', batch());
    expect([duplicate.statusCode, codeOf(duplicate)]).toEqual([409, 'codePackage.prefixExists']);

    const list = dataOf<{ items: CodePackage[] }>(await call(app, admin, 'GET', '/account/code-packages?search=partner'));
    expect(list.items).toMatchObject([{ prefix: 'HP', counts: { NOT_PAID: 5, PAID: 0, USED: 0, LOCKED: 0 }, package: { code: 'GOLD12' } }]);
    const one = await call(app, admin, 'GET', `/account/code-packages/${batchId}`);
    expect(dataOf<CodePackage>(one)).toMatchObject({ id: batchId, prefix: 'HP', totalCodes: 5, recipientOrganization: 'Partner Hospital', counts: { NOT_PAID: 5 } });
    const missing = await call(app, admin, 'GET', `/account/code-packages/${randomUUID()}`);
    expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'codePackage.notFound']);
  });

  it('redeems a paid code once into the batch’s package; refuses unpaid, wrong, locked and used codes', async () => {
    const [first, second, third] = codes;
    const redeem = (series: string, code: string) => call(app, patient, 'POST', '/health/me/codes/redeem', { series, code });
    // Not paid for yet.
    const unpaid = await redeem(first?.[0] ?? '', first?.[1] ?? '');
    expect([unpaid.statusCode, codeOf(unpaid)]).toEqual([409, 'activationCode.unavailable']);
    const paid = await call(app, admin, 'PUT', `/account/code-packages/${batchId}/state`, { action: 'markPaid' });
    expect(dataOf<CodePackage>(paid).counts).toMatchObject({ NOT_PAID: 0, PAID: 5 });

    const wrong = await redeem(first?.[0] ?? '', 'AAAA-AAAA-AAAA');
    expect([wrong.statusCode, codeOf(wrong)]).toEqual([400, 'activationCode.wrong']);
    const unknown = await redeem('ZZ999999', first?.[1] ?? '');
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([400, 'activationCode.wrong']);

    // Lower case, spaces and no dashes are fine.
    const used = await redeem((first?.[0] ?? '').toLowerCase(), ` ${(first?.[1] ?? '').replace(/-/g, ' ').toLowerCase()} `);
    expect(used.statusCode, used.body).toBe(200);
    expect(dataOf<PatientSubscriptionsView>(used).entitlements).toMatchObject({
      package: { code: 'GOLD12' },
      subscription: { source: 'CODE', receiptId: first?.[0], status: 'ACTIVE' },
    });
    const again = await redeem(first?.[0] ?? '', first?.[1] ?? '');
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'activationCode.used']);

    const { items } = dataOf<{ items: ActivationCode[] }>(await call(app, admin, 'GET', `/account/code-packages/${batchId}/codes?search=${second?.[0] ?? ''}`));
    const lock = await call(app, admin, 'PUT', `/account/activation-codes/${items[0]?.id ?? ''}/state`, { action: 'lock' });
    expect(lock.statusCode, lock.body).toBe(200);
    const locked = await redeem(second?.[0] ?? '', second?.[1] ?? '');
    expect([locked.statusCode, codeOf(locked)]).toEqual([409, 'activationCode.unavailable']);
    expect((await call(app, admin, 'PUT', `/account/activation-codes/${items[0]?.id ?? ''}/state`, { action: 'unlock' })).statusCode).toBe(200);

    // Five refused codes within a day: even a right code is refused until a day has passed.
    const refusedSoFar = await asOwner<{ n: number }>(testDb.ownerUrl, `SELECT count(*)::int AS n FROM activation_attempts WHERE NOT succeeded`);
    expect(refusedSoFar[0]?.n).toBe(5);
    const blocked = await redeem(third?.[0] ?? '', third?.[1] ?? '');
    expect([blocked.statusCode, codeOf(blocked)]).toEqual([429, 'activationCode.tooManyAttempts']);
    // A day later (the refusals dated back a day) the right code goes through.
    await asOwner(testDb.ownerUrl, `UPDATE activation_attempts SET attempted_at = attempted_at - interval '25 hours'`);
    const later = await redeem(third?.[0] ?? '', third?.[1] ?? '');
    expect(later.statusCode, later.body).toBe(200);

    const list = dataOf<{ items: ActivationCode[] }>(await call(app, admin, 'GET', `/account/code-packages/${batchId}/codes?state=USED`));
    expect(list.items.map((code) => [code.series, code.activatedBy?.id])).toEqual([
      [first?.[0], org.patientUser.id],
      [third?.[0], org.patientUser.id],
    ]);
    const exported = await call(app, admin, 'GET', `/account/code-packages/${batchId}/export`);
    expect(exported.statusCode).toBe(200);
    const rows = await sheetRows(exported.rawPayload);
    expect(rows).toHaveLength(6);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['USED', 'PAID', 'USED', 'PAID', 'PAID']);
    // The export never carries a secret code.
    expect(JSON.stringify(rows)).not.toContain(first?.[1] ?? 'none');
  });

  it('keeps code packages from patient sessions and other tenants', async () => {
    const asPatient = await call(app, patient, 'GET', '/account/code-packages');
    expect(asPatient.statusCode).toBe(403);
    const onePackage = await call(app, patient, 'GET', `/account/code-packages/${randomUUID()}`);
    expect(onePackage.statusCode).toBe(403);
    const rows = await testDb.database.withTenant(randomUUID(), (tx) => tx.execute('SELECT count(*)::int AS n FROM activation_codes'));
    expect(rows.rows[0]).toEqual({ n: 0 });
  });
});
