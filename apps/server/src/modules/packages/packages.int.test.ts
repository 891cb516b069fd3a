import { randomUUID } from 'node:crypto';
import type { PatientSubscriptionsView, ServicePackage } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { DAY, ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, type AlertOrganisation } from '../alerts/test-support.js';
import { dataOf } from '../doctors/test-support.js';
import { runLifecycleStep } from './subscriptions.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let admin: string;
let operator: string;
let patient: string;
const clock = new ManualClock(new Date('2026-01-10T03:00:00Z'));

const ZERO = { code: 'ZERO', kind: 'PACKAGE', name: 'Zero', plan: 'ZERO', level: 'STANDARD', priceMinor: 0, currency: 'VND', durationMonths: -1, followerLimit: 1, subUserLimit: 0 };
const BASIC12 = {
  code: 'BASIC12',
  kind: 'PACKAGE',
  name: 'Basic 12 months',
  plan: '12MCARE',
  level: 'SILVER',
  priceMinor: 120_000,
  currency: 'VND',
  durationMonths: 12,
  userFeatures: ['VIDEO_CONSULTATION', 'FAMILY_SHARING'],
  followerLimit: 5,
  subUserLimit: 3,
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  admin = org.adminToken;
  operator = await logInAs(app, org.tenant.code, org.operator);
  patient = await logInAs(app, org.tenant.code, org.patientUser);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const codeOf = (response: { json: () => unknown }) => (response.json() as { code?: string }).code;

async function create(body: Record<string, unknown>): Promise<ServicePackage> {
  const response = await call(app, admin, 'POST', '/account/packages', body);
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<ServicePackage>(response);
}

describe('packages and subscriptions', () => {
  it('limits nothing by package while the tenant sells none', async () => {
    const response = await call(app, patient, 'GET', '/health/me/subscription');
    expect(response.statusCode, response.body).toBe(200);
    expect(dataOf<PatientSubscriptionsView>(response).entitlements).toMatchObject({
      packagesEnabled: false,
      package: null,
      followerLimit: -1,
    });
    expect(dataOf<PatientSubscriptionsView>(response).entitlements.features).toEqual(expect.arrayContaining(['VIDEO_CONSULTATION', 'PHOTO_ENTRY']));
  });

  it('keeps package ids and names unique and checks the rules of the form', async () => {
    await create(ZERO);
    const basic = await create(BASIC12);
    expect(basic).toMatchObject({ code: 'BASIC12', priceMinor: 120_000, isDefault: false, enabled: true, subscribers: 0 });

    const sameCode = await call(app, admin, 'POST', '/account/packages', { ...BASIC12, code: 'basic12', name: 'Another' });
    expect([sameCode.statusCode, codeOf(sameCode)]).toEqual([409, 'package.codeExists']);
    const sameName = await call(app, admin, 'POST', '/account/packages', { ...BASIC12, code: 'OTHER', name: ' basic 12 MONTHS ' });
    expect([sameName.statusCode, codeOf(sameName)]).toEqual([409, 'package.nameExists']);
    for (const refused of [
      { ...BASIC12, code: 'BASIC 12!', name: 'x1' },
      { ...BASIC12, code: 'NOFEAT', name: 'x2', userFeatures: [] },
      { ...BASIC12, code: 'FLOAT', name: 'x3', priceMinor: 10.5 },
      { ...BASIC12, code: 'PRICEYZERO', name: 'x4', plan: 'ZERO' },
      { ...BASIC12, code: 'ADDON1', name: 'x5', kind: 'ADDON' },
      { ...BASIC12, code: 'LONG', name: 'x6', durationMonths: 0 },
    ]) {
      const response = await call(app, admin, 'POST', '/account/packages', refused);
      expect(response.statusCode, `${refused.code}: ${response.body}`).toBe(400);
    }
    // A second free default is refused: there is one ZERO package.
    const secondDefault = await call(app, admin, 'POST', '/account/packages', { ...ZERO, code: 'ZERO2', name: 'Zero again' });
    expect([secondDefault.statusCode, codeOf(secondDefault)]).toEqual([409, 'package.defaultLocked']);

    const list = await call(app, admin, 'GET', '/account/packages?search=basic&sortField=price&sortType=desc');
    expect(dataOf<{ items: ServicePackage[]; total: number }>(list)).toMatchObject({ total: 1, items: [{ code: 'BASIC12' }] });
    // Operators neither read nor manage the offer; customer care reads it.
    expect((await call(app, operator, 'GET', '/account/packages')).statusCode).toBe(403);
    expect((await call(app, operator, 'POST', '/account/packages', { ...BASIC12, code: 'OP', name: 'Op' })).statusCode).toBe(403);
  });

  it('subscribes, changes, cancels back to the default, and never disables the default', async () => {
    const { items } = dataOf<{ items: ServicePackage[] }>(await call(app, admin, 'GET', '/account/packages?size=50'));
    const zero = items.find((item) => item.code === 'ZERO');
    const basic = items.find((item) => item.code === 'BASIC12');
    if (zero === undefined || basic === undefined) throw new Error('packages missing');
    const gold = await create({ ...BASIC12, code: 'GOLD24', name: 'Gold 24 months', plan: '24MCARE', level: 'GOLD', priceMinor: 192_000, durationMonths: 24 });

    const zeroOff = await call(app, admin, 'PUT', `/account/packages/${zero.id}/state`, { enabled: false });
    expect([zeroOff.statusCode, codeOf(zeroOff)]).toEqual([409, 'package.defaultLocked']);

    // On the default package the patient has the default's limits and no paid feature.
    const before = dataOf<PatientSubscriptionsView>(await call(app, patient, 'GET', '/health/me/subscription'));
    expect(before.entitlements).toMatchObject({ packagesEnabled: true, package: { code: 'ZERO' }, subscription: null, followerLimit: 1, subUserLimit: 0, features: [] });

    // A paid package needs a bound wearable.
    const url = `/account/patients/${org.patientA.id}/subscription`;
    const noWatch = await call(app, admin, 'POST', url, { packageId: basic.id });
    expect([noWatch.statusCode, codeOf(noWatch)]).toEqual([409, 'package.wearableRequired']);
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, $2, 'V19', 'SN-PKG-1', 'AA:BB:CC:00:11:22', $3)`,
      [org.tenant.id, randomUUID(), org.patientA.id],
    );
    // A disabled package takes no subscription until enabled again.
    expect((await call(app, admin, 'PUT', `/account/packages/${basic.id}/state`, { enabled: false })).statusCode).toBe(200);
    const disabled = await call(app, admin, 'POST', url, { packageId: basic.id });
    expect([disabled.statusCode, codeOf(disabled)]).toEqual([409, 'package.disabled']);
    expect((await call(app, admin, 'PUT', `/account/packages/${basic.id}/state`, { enabled: true })).statusCode).toBe(200);

    const subscribed = await call(app, admin, 'POST', url, { packageId: basic.id, receiptId: 'R-0001' });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const view = dataOf<PatientSubscriptionsView>(subscribed);
    expect(view.entitlements).toMatchObject({
      package: { code: 'BASIC12' },
      subscription: { status: 'ACTIVE', source: 'STAFF', receiptId: 'R-0001', endsAt: '2027-01-10T03:00:00.000Z', nextExtendAt: '2027-01-10T03:00:00.000Z' },
      features: ['VIDEO_CONSULTATION', 'FAMILY_SHARING'],
      followerLimit: 5,
      hasWearable: true,
    });
    const jobs = await asOwner<{ key: string; run_at: string }>(
      testDb.ownerUrl,
      `SELECT key, run_at::text FROM graphile_worker.jobs WHERE key LIKE $1 ORDER BY run_at`,
      [`%subscription:${view.entitlements.subscription?.id ?? ''}:%`],
    );
    expect(jobs.map((job) => job.key.split(':').pop())).toEqual(['expiring', 'expired']);
    const [stored] = await asOwner<{ package_code: string }>(testDb.ownerUrl, 'SELECT package_code FROM patients WHERE id = $1', [org.patientA.id]);
    expect(stored?.package_code).toBe('BASIC12');

    // The same package again extends it from its end; a change of package replaces the current one.
    const same = await call(app, admin, 'POST', url, { packageId: basic.id, receiptId: 'R-0002' });
    expect(dataOf<PatientSubscriptionsView>(same).entitlements.subscription).toMatchObject({
      id: view.entitlements.subscription?.id,
      endsAt: '2028-01-10T03:00:00.000Z',
      receiptId: 'R-0002',
    });
    const changed = dataOf<PatientSubscriptionsView>(await call(app, admin, 'POST', url, { packageId: gold.id }));
    expect(changed.entitlements.package?.code).toBe('GOLD24');
    expect(changed.history.map((entry) => [entry.package.code, entry.status])).toEqual([
      ['GOLD24', 'ACTIVE'],
      ['BASIC12', 'REPLACED'],
    ]);

    // The patient cancels in the app: back on Zero at once; a second cancel changes nothing.
    const canceled = await call(app, patient, 'POST', '/health/me/subscription/cancel');
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(dataOf<PatientSubscriptionsView>(canceled).entitlements).toMatchObject({ package: { code: 'ZERO' }, subscription: null });
    const again = await call(app, patient, 'POST', '/health/me/subscription/cancel');
    expect(again.statusCode, again.body).toBe(200);
    const left = await asOwner<{ n: number }>(testDb.ownerUrl, `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key LIKE '%subscription:%'`);
    expect(left[0]?.n).toBe(0);
    const audits = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      `SELECT action FROM audit_log WHERE target_id = $1 AND action LIKE 'SUBSCRIPTION_%' AND action <> 'SUBSCRIPTIONS_VIEWED' ORDER BY occurred_at, id`,
      [org.patientA.id],
    );
    expect(audits.map((row) => row.action)).toEqual(['SUBSCRIPTION_STARTED', 'SUBSCRIPTION_EXTENDED', 'SUBSCRIPTION_CHANGED', 'SUBSCRIPTION_CANCELED']);

    // The app lists the enabled offer, the default first.
    const offer = dataOf<ServicePackage[]>(await call(app, patient, 'GET', '/health/me/packages'));
    expect(offer.map((item) => item.code)).toEqual(['ZERO', 'BASIC12', 'GOLD24']);
  });

  it('warns seven days before the end, then expires back to the default, each once', async () => {
    const { items } = dataOf<{ items: ServicePackage[] }>(await call(app, admin, 'GET', '/account/packages?search=BASIC12'));
    const basic = items[0];
    if (basic === undefined) throw new Error('no BASIC12');
    const view = dataOf<PatientSubscriptionsView>(await call(app, admin, 'POST', `/account/patients/${org.patientA.id}/subscription`, { packageId: basic.id }));
    const id = view.entitlements.subscription?.id ?? '';
    const endsAt = new Date(view.entitlements.subscription?.endsAt ?? '');
    const step = (kind: 'expiring' | 'expired', at: Date) =>
      testDb.database.withTenant(org.tenant.id, (tx) => runLifecycleStep(tx, org.tenant.id, id, kind, at));

    await step('expiring', new Date(endsAt.getTime() - 7 * DAY));
    await step('expiring', new Date(endsAt.getTime() - 7 * DAY));
    // Too early for the end: nothing happens.
    await step('expired', new Date(endsAt.getTime() - DAY));
    const warned = dataOf<PatientSubscriptionsView>(await call(app, patient, 'GET', '/health/me/subscription'));
    expect(warned.entitlements.subscription?.status).toBe('ABOUT_TO_EXPIRE');
    await step('expired', endsAt);
    await step('expired', endsAt);
    const ended = dataOf<PatientSubscriptionsView>(await call(app, patient, 'GET', '/health/me/subscription'));
    expect(ended.entitlements).toMatchObject({ package: { code: 'ZERO' }, subscription: null });
    expect(ended.history[0]).toMatchObject({ id, status: 'EXPIRED', endedAt: endsAt.toISOString() });
    const notices = await asOwner<{ kind: string }>(
      testDb.ownerUrl,
      `SELECT kind FROM notifications WHERE recipient_id = $1 AND kind LIKE 'subscription.%' ORDER BY created_at`,
      [org.patientUser.id],
    );
    expect(notices.map((notice) => notice.kind)).toEqual(['subscription.expiring', 'subscription.expired']);
  });

  it('lowers the follower and sub-user limits to the package’s, never for emergency contacts', async () => {
    // On Zero: one caring follower (the organisation gave it one), no sub-user.
    const caring = await call(app, patient, 'POST', '/health/me/followers', { contactType: 'CARING', name: 'Hoa', phone: '0902000009', relationship: 'FRIEND', favourite: false });
    expect([caring.statusCode, codeOf(caring)]).toEqual([403, 'package.upgradeRequired']);
    const emergency = await call(app, patient, 'POST', '/health/me/followers', { contactType: 'EMERGENCY', name: 'Binh', phone: '0902000010', relationship: 'SON', favourite: false });
    expect(emergency.statusCode, emergency.body).toBe(200);
    const subUser = { firstName: 'Minh', lastName: 'Nguyen', birthday: '2015-04-02', relation: 'CHILD', smoking: false };
    const refused = await call(app, patient, 'POST', '/health/me/sub-users', subUser);
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'package.upgradeRequired']);

    // On Basic (5 followers, 3 sub-users) both are allowed.
    const { items } = dataOf<{ items: ServicePackage[] }>(await call(app, admin, 'GET', '/account/packages?search=BASIC12'));
    expect((await call(app, admin, 'POST', `/account/patients/${org.patientA.id}/subscription`, { packageId: items[0]?.id })).statusCode).toBe(200);
    const caringAgain = await call(app, patient, 'POST', '/health/me/followers', { contactType: 'CARING', name: 'Hoa', phone: '0902000009', relationship: 'FRIEND', favourite: false });
    expect(caringAgain.statusCode, caringAgain.body).toBe(200);
    const added = await call(app, patient, 'POST', '/health/me/sub-users', subUser);
    expect(added.statusCode, added.body).toBe(200);
  });

  it('hides a patient of another center and another tenant’s packages', async () => {
    const otherCenterAdmin = await logInAs(app, org.tenant.code, org.operatorA);
    const response = await call(app, otherCenterAdmin, 'GET', `/account/patients/${org.patientB.id}/subscriptions`);
    expect([response.statusCode, codeOf(response)]).toEqual([404, 'patient.notFound']);
    // Another tenant's admin finds none of this tenant's packages or patients.
    const other = await createTenant(testDb.database);
    const otherAdmin = await logInAs(app, other.code, await createTenantUser(testDb.database, other.id, { role: 'ADMIN' }));
    const { items } = dataOf<{ items: ServicePackage[] }>(await call(app, admin, 'GET', '/account/packages?search=BASIC12'));
    const foreignEdit = await call(app, otherAdmin, 'PUT', `/account/packages/${items[0]?.id ?? ''}/state`, { enabled: false });
    expect([foreignEdit.statusCode, codeOf(foreignEdit)]).toEqual([404, 'package.notFound']);
    expect(dataOf<{ total: number }>(await call(app, otherAdmin, 'GET', '/account/packages')).total).toBe(0);
    const foreignPatient = await call(app, otherAdmin, 'POST', `/account/patients/${org.patientA.id}/subscription`, { packageId: items[0]?.id });
    expect([foreignPatient.statusCode, codeOf(foreignPatient)]).toEqual([404, 'patient.notFound']);
    const staff = await call(app, admin, 'GET', '/health/me/subscription');
    expect([staff.statusCode, codeOf(staff)]).toEqual([404, 'health.noPatientProfile']);
  });
});
