import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import {
  call,
  codeOf,
  deviceOrganisation,
  idsOf,
  insertConnection,
  insertDevice,
  insertPhone,
  itemsOf,
  logInAs,
  type DeviceOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the payload type
const data = <T>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;
const at = (day: number, hour = 8) => new Date(Date.UTC(2026, 0, day, hour));

/** Devices of patient A (two) and B (one), their connections and phones. */
async function withHistories(org: DeviceOrganisation) {
  const tenantId = org.tenant.id;
  const watch = await insertDevice(testDb, tenantId, {
    model: 'V19',
    macAddress: 'AA:00:00:00:00:01',
    patientId: org.patientA.id,
    accountUsername: 'anh@test.example',
    connectionStatus: 1,
  });
  const band = await insertDevice(testDb, tenantId, {
    model: 'GT5',
    macAddress: 'AA:00:00:00:00:02',
    patientId: org.patientA.id,
    accountUsername: 'anh@test.example',
    connectionStatus: 0,
  });
  const other = await insertDevice(testDb, tenantId, {
    model: 'V19',
    macAddress: 'BB:00:00:00:00:01',
    patientId: org.patientB.id,
    accountUsername: 'binh@test.example',
    connectionStatus: 0,
  });
  const c1 = await insertConnection(testDb, tenantId, {
    deviceId: watch.id,
    username: 'anh@test.example',
    deviceName: 'V19-0001',
    model: 'V19',
    status: 0,
    connectedAt: at(1),
    disconnectedAt: at(1, 20),
    appVersion: '2.3.1',
    phoneName: 'iPhone 13',
  });
  const c2 = await insertConnection(testDb, tenantId, {
    deviceId: band.id,
    username: 'anh@test.example',
    deviceName: 'GT5-0002',
    model: 'GT5',
    status: 2,
    connectedAt: at(5),
    disconnectedAt: at(5, 9),
    appVersion: '2.4.0',
    phoneName: 'Pixel 7',
  });
  const c3 = await insertConnection(testDb, tenantId, {
    deviceId: watch.id,
    username: 'Anh@Test.Example',
    deviceName: 'V19-0001',
    model: 'V19',
    status: 1,
    connectedAt: at(10),
    appVersion: '2.4.2',
    phoneName: 'iPhone 13',
  });
  const cB = await insertConnection(testDb, tenantId, {
    deviceId: other.id,
    username: 'binh@test.example',
    deviceName: 'V19-B001',
    model: 'V19',
    status: 0,
    connectedAt: at(3),
    disconnectedAt: at(4),
    appVersion: '2.3.1',
    phoneName: 'Galaxy A54',
  });
  const p1 = await insertPhone(testDb, tenantId, {
    patientId: org.patientA.id,
    username: 'anh@test.example',
    phoneName: 'Pixel 7',
    os: 'ANDROID',
    osVersion: '15',
    appVersion: '2.4.0',
    status: 'OFFLINE',
    recordedAt: at(2),
  });
  const p2 = await insertPhone(testDb, tenantId, {
    patientId: org.patientA.id,
    username: 'anh@test.example',
    phoneName: 'iPhone 13',
    os: 'IOS',
    osVersion: '17.5',
    appVersion: '2.4.2',
    status: 'ONLINE',
    recordedAt: at(9),
  });
  const pB = await insertPhone(testDb, tenantId, {
    patientId: org.patientB.id,
    username: 'binh@test.example',
    phoneName: 'Galaxy A54',
    os: 'ANDROID',
    osVersion: '14',
    appVersion: '2.3.1',
    status: 'KILLED',
    recordedAt: at(4),
  });
  return { watch, band, other, c1, c2, c3, cB, p1, p2, pB };
}

describe('connection history', () => {
  it('searches an account’s connections with every filter and sort', async () => {
    const org = await deviceOrganisation(testDb);
    const h = await withHistories(org);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const search = (query: string) =>
      call(
        app,
        token,
        'GET',
        `/health/device-connection-history/searchByUsername?username=anh@test.example&${query}`,
      );

    const all = await search('page=0&size=10');
    expect(all.statusCode).toBe(200);
    expect(idsOf(all)).toEqual([h.c3.id, h.c2.id, h.c1.id]);
    expect(itemsOf(all)[0]).toMatchObject({
      deviceId: h.watch.id,
      macAddress: 'AA:00:00:00:00:01',
      status: 1,
      disconnectedAt: null,
      deviceName: 'V19-0001',
      model: 'V19',
    });
    expect(idsOf(await search('sortField=connectedAt&sortType=asc'))).toEqual([h.c1.id, h.c2.id, h.c3.id]);
    expect(idsOf(await search('sortField=deviceName&sortType=asc'))).toEqual([h.c2.id, h.c1.id, h.c3.id]);
    expect(idsOf(await search('sortField=status&sortType=desc'))).toEqual([h.c2.id, h.c3.id, h.c1.id]);
    expect(idsOf(await search('sortField=disconnectedAt&sortType=desc'))).toEqual([
      h.c2.id,
      h.c1.id,
      h.c3.id,
    ]);
    expect(idsOf(await search('sortField=appVersion&sortType=asc'))).toEqual([h.c1.id, h.c2.id, h.c3.id]);
    expect(idsOf(await search('status=2'))).toEqual([h.c2.id]);
    expect(idsOf(await search('status=-1'))).toEqual([]);
    expect(idsOf(await search('model=V19'))).toEqual([h.c3.id, h.c1.id]);
    expect(idsOf(await search('search=pixel'))).toEqual([h.c2.id]);
    expect(idsOf(await search('search=00:02'))).toEqual([h.c2.id]);
    expect(
      idsOf(
        await search(
          `start=${encodeURIComponent(at(4).toISOString())}&end=${encodeURIComponent(at(6).toISOString())}`,
        ),
      ),
    ).toEqual([h.c2.id]);
    const paged = await search('page=1&size=2');
    expect(idsOf(paged)).toEqual([h.c1.id]);
    expect(paged.json<{ data: { total: number } }>().data.total).toBe(3);
    // One device's connections (the device page), whoever used it.
    expect(
      idsOf(
        await call(
          app,
          token,
          'GET',
          `/health/device-connection-history/searchByUsername?deviceId=${h.watch.id}`,
        ),
      ),
    ).toEqual([h.c3.id, h.c1.id]);

    for (const bad of [
      '',
      'username=anh@test.example&status=7',
      'username=anh@test.example&start=yesterday',
      'username=anh@test.example&sortField=colour',
    ]) {
      const response = await call(
        app,
        token,
        'GET',
        `/health/device-connection-history/searchByUsername?${bad}`,
      );
      expect(response.statusCode, bad).toBe(400);
      expect(codeOf(response)).toBe('common.invalidParameter');
    }
  });

  it('lists device names, an account’s devices and the disconnected count, as far as the caller sees', async () => {
    const org = await deviceOrganisation(testDb);
    const h = await withHistories(org);
    const admin = await logInAs(app, org.tenant.code, org.admin);
    const adminA = await logInAs(app, org.tenant.code, org.adminA);

    expect(
      data<string[]>(await call(app, admin, 'GET', '/health/device-connection-history/getDeviceNameList')),
    ).toEqual(['GT5-0002', 'V19-0001', 'V19-B001']);
    expect(
      data<string[]>(
        await call(
          app,
          admin,
          'GET',
          '/health/device-connection-history/getDeviceNameList?username=binh@test.example',
        ),
      ),
    ).toEqual(['V19-B001']);
    expect(
      data<string[]>(await call(app, adminA, 'GET', '/health/device-connection-history/getDeviceNameList')),
    ).toEqual(['GT5-0002', 'V19-0001']);

    const devicesOfAnh = data<{ id: string }[]>(
      await call(app, admin, 'GET', '/health/device/getUserDevicesByUsername?username=ANH@test.example'),
    );
    expect(new Set(devicesOfAnh.map((device) => device.id))).toEqual(new Set([h.watch.id, h.band.id]));
    expect(
      data<unknown[]>(
        await call(app, adminA, 'GET', '/health/device/getUserDevicesByUsername?username=binh@test.example'),
      ),
    ).toEqual([]);
    expect((await call(app, admin, 'GET', '/health/device/getUserDevicesByUsername')).statusCode).toBe(400);

    expect(
      data<{ count: number }>(await call(app, admin, 'GET', '/health/device/getDisconnectDeviceCount')),
    ).toEqual({ count: 2 });
    expect(
      data<{ count: number }>(await call(app, adminA, 'GET', '/health/device/getDisconnectDeviceCount')),
    ).toEqual({ count: 1 });
    // A center admin does not see the other center's connections at all.
    expect(
      idsOf(
        await call(
          app,
          adminA,
          'GET',
          '/health/device-connection-history/searchByUsername?username=binh@test.example',
        ),
      ),
    ).toEqual([]);
    expect(
      idsOf(
        await call(
          app,
          adminA,
          'GET',
          `/health/device-connection-history/searchByUsername?deviceId=${h.other.id}`,
        ),
      ),
    ).toEqual([]);
  });

  it('keeps histories when the patient is purged (devices are unbound first)', async () => {
    const org = await deviceOrganisation(testDb);
    const h = await withHistories(org);
    await asOwner(testDb.ownerUrl, 'UPDATE devices SET patient_id = NULL WHERE patient_id = $1', [
      org.patientB.id,
    ]);
    await asOwner(testDb.ownerUrl, 'DELETE FROM patients WHERE id = $1', [org.patientB.id]);
    const [phone] = await asOwner<{ patient_id: string | null; username: string }>(
      testDb.ownerUrl,
      'SELECT patient_id, username FROM phone_history WHERE id = $1',
      [h.pB.id],
    );
    expect(phone).toEqual({ patient_id: null, username: 'binh@test.example' });
    const [connection] = await asOwner<{ username: string }>(
      testDb.ownerUrl,
      'SELECT username FROM device_connection_history WHERE id = $1',
      [h.cB.id],
    );
    expect(connection).toEqual({ username: 'binh@test.example' });
  });
});

describe('phone history', () => {
  it('searches with every filter and sort, and lists phone names, app versions and each account’s latest phone', async () => {
    const org = await deviceOrganisation(testDb);
    const h = await withHistories(org);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const search = (query: string) =>
      call(app, token, 'GET', `/health/phone-history/searchByUsername?${query}`);

    expect(idsOf(await search('page=0&size=10'))).toEqual([h.p2.id, h.pB.id, h.p1.id]);
    expect(idsOf(await search('username=anh@test.example'))).toEqual([h.p2.id, h.p1.id]);
    expect(idsOf(await search('username=anh@test.example&sort=recordedAt,asc'))).toEqual([h.p1.id, h.p2.id]);
    expect(idsOf(await search('sort=phoneName,asc'))).toEqual([h.pB.id, h.p2.id, h.p1.id]);
    expect(idsOf(await search('sort=appVersion,desc'))).toEqual([h.p2.id, h.p1.id, h.pB.id]);
    expect(idsOf(await search('sort=status,asc'))).toEqual([h.pB.id, h.p1.id, h.p2.id]);
    expect(idsOf(await search('status=KILLED'))).toEqual([h.pB.id]);
    expect(idsOf(await search('phoneName=Pixel%207'))).toEqual([h.p1.id]);
    expect(idsOf(await search('appVersion=2.4.2'))).toEqual([h.p2.id]);
    expect(idsOf(await search('search=17.5'))).toEqual([h.p2.id]);
    expect(idsOf(await search('search=binh'))).toEqual([h.pB.id]);
    expect(
      idsOf(
        await search(
          `start=${encodeURIComponent(at(3).toISOString())}&end=${encodeURIComponent(at(5).toISOString())}`,
        ),
      ),
    ).toEqual([h.pB.id]);
    expect(itemsOf(await search('username=anh@test.example&size=1'))[0]).toMatchObject({
      phoneName: 'iPhone 13',
      os: 'IOS',
      osVersion: '17.5',
      appVersion: '2.4.2',
      status: 'ONLINE',
    });
    expect((await search('sort=colour,asc')).statusCode).toBe(400);
    expect((await search('status=ASLEEP')).statusCode).toBe(400);

    expect(data<string[]>(await call(app, token, 'GET', '/health/phone-history/getPhoneNameList'))).toEqual([
      'Galaxy A54',
      'iPhone 13',
      'Pixel 7',
    ]);
    expect(
      data<string[]>(
        await call(app, token, 'GET', '/health/phone-history/getAppVersionList?username=anh@test.example'),
      ),
    ).toEqual(['2.4.0', '2.4.2']);
    const latest = await call(app, token, 'GET', '/health/phone/get-all');
    expect(idsOf(latest)).toEqual([h.p2.id, h.pB.id]);
    expect(latest.json<{ data: { total: number } }>().data.total).toBe(2);

    const adminA = await logInAs(app, org.tenant.code, org.adminA);
    expect(idsOf(await call(app, adminA, 'GET', '/health/phone-history/searchByUsername'))).toEqual([
      h.p2.id,
      h.p1.id,
    ]);
    expect(idsOf(await call(app, adminA, 'GET', '/health/phone/get-all'))).toEqual([h.p2.id]);
    expect(data<string[]>(await call(app, adminA, 'GET', '/health/phone-history/getPhoneNameList'))).toEqual([
      'iPhone 13',
      'Pixel 7',
    ]);
  });

  it('is refused to roles without device.view and shows another tenant nothing', async () => {
    const org = await deviceOrganisation(testDb);
    await withHistories(org);
    const assistant = await logInAs(app, org.tenant.code, org.assistantA);
    for (const url of [
      '/health/phone-history/searchByUsername',
      '/health/device-connection-history/searchByUsername?username=anh@test.example',
      '/health/device/getDisconnectDeviceCount',
      '/health/phone/get-all',
    ]) {
      expect(codeOf(await call(app, assistant, 'GET', url)), url).toBe('auth.permissionDenied');
    }
    const other = await createTenant(testDb.database);
    const intruder = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const token = await logInAs(app, other.code, intruder);
    expect(
      idsOf(
        await call(app, token, 'GET', '/health/phone-history/searchByUsername?username=anh@test.example'),
      ),
    ).toEqual([]);
    expect(
      idsOf(
        await call(
          app,
          token,
          'GET',
          '/health/device-connection-history/searchByUsername?username=anh@test.example',
        ),
      ),
    ).toEqual([]);
    expect(
      (await call(app, token, 'GET', '/health/device/getDisconnectDeviceCount')).json<{
        data: { count: number };
      }>().data.count,
    ).toBe(0);
  });
});

describe('role-prefixed device lookups', () => {
  it('serves each area’s roles only, through their visibility', async () => {
    const org = await deviceOrganisation(testDb);
    const tenantId = org.tenant.id;
    const ofA = await insertDevice(testDb, tenantId, { patientId: org.patientA.id });
    const ofB = await insertDevice(testDb, tenantId, { patientId: org.patientB.id });
    const stock = await insertDevice(testDb, tenantId);
    const operator = await createTenantUser(testDb.database, tenantId, { role: 'OPERATOR' });
    const tokens = {
      admin: await logInAs(app, org.tenant.code, org.admin),
      cskh: await logInAs(app, org.tenant.code, org.cskh),
      operator: await logInAs(app, org.tenant.code, operator),
      doctorA: await logInAs(app, org.tenant.code, org.doctorA),
      adminA: await logInAs(app, org.tenant.code, org.adminA),
    };
    const everything = new Set([ofA.id, ofB.id, stock.id]);
    expect(new Set(idsOf(await call(app, tokens.admin, 'GET', '/health/admin/device')))).toEqual(everything);
    expect(new Set(idsOf(await call(app, tokens.cskh, 'GET', '/health/cskh/device')))).toEqual(everything);
    expect(new Set(idsOf(await call(app, tokens.operator, 'GET', '/health/operator/device')))).toEqual(
      everything,
    );
    expect(new Set(idsOf(await call(app, tokens.doctorA, 'GET', '/health/doctor/device')))).toEqual(
      new Set([ofA.id, stock.id]),
    );
    expect(
      idsOf(
        await call(
          app,
          tokens.admin,
          'GET',
          '/health/admin/device?bound=true&sortField=created&sortType=asc',
        ),
      ),
    ).toEqual([ofA.id, ofB.id]);

    const denied: [keyof typeof tokens, string][] = [
      ['cskh', '/health/admin/device'],
      ['admin', '/health/sadmin/device'],
      ['doctorA', '/health/operator/device'],
      ['operator', '/health/doctor/device'],
      ['admin', '/health/cskh/device'],
      ['adminA', '/health/admin/device'],
      ['admin', `/health/smadmin/mhsc/device?mhscId=${org.centerA.id}`],
    ];
    for (const [who, url] of denied) {
      const response = await call(app, tokens[who], 'GET', url);
      expect(response.statusCode, `${who} ${url}`).toBe(403);
      expect(codeOf(response)).toBe('auth.permissionDenied');
    }

    expect(
      idsOf(await call(app, tokens.adminA, 'GET', `/health/smadmin/mhsc/device?mhscId=${org.centerA.id}`)),
    ).toEqual([ofA.id]);
    expect(
      idsOf(
        await call(
          app,
          tokens.adminA,
          'GET',
          `/health/smadmin/mhsc/device?mhscId=${org.centerA.id}&userId=${org.accountA.id}`,
        ),
      ),
    ).toEqual([ofA.id]);
    expect(
      idsOf(
        await call(
          app,
          tokens.adminA,
          'GET',
          `/health/smadmin/mhsc/device?mhscId=${org.centerA.id}&userId=${org.doctorA.id}`,
        ),
      ),
    ).toEqual([]);
    const otherCenter = await call(
      app,
      tokens.adminA,
      'GET',
      `/health/smadmin/mhsc/device?mhscId=${org.centerB.id}`,
    );
    expect(otherCenter.statusCode).toBe(404);
    expect(codeOf(otherCenter)).toBe('center.notFound');
    expect((await call(app, tokens.adminA, 'GET', '/health/smadmin/mhsc/device')).statusCode).toBe(400);
  });

  it('serves the super admin area to platform super admins', async () => {
    const org = await deviceOrganisation(testDb);
    const device = await insertDevice(testDb, org.tenant.id, {
      patientId: (await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerB.id })).id,
    });
    const { createPlatformUser } = await import('../../../test/factories.js');
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const token = await logInAs(app, org.tenant.code, superAdmin);
    expect(idsOf(await call(app, token, 'GET', '/health/sadmin/device'))).toEqual([device.id]);
  });
});
