import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import {
  call,
  codeOf,
  deviceAudit,
  deviceOrganisation,
  freshMac,
  freshSerial,
  idsOf,
  insertDevice,
  itemsOf,
  logInAs,
  storedDevice,
  type DeviceBody,
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

const deviceBody = (overrides: Record<string, unknown> = {}) => ({
  model: 'V19',
  serialNumber: freshSerial(),
  macAddress: freshMac(),
  ...overrides,
});
const dataOf = (response: LightMyRequestResponse) => response.json<{ data: DeviceBody }>().data;

async function countDevices(tenantId: string): Promise<number> {
  const [row] = await asOwner<{ total: number }>(
    testDb.ownerUrl,
    'SELECT count(*)::int AS total FROM devices WHERE tenant_id = $1',
    [tenantId],
  );
  return row?.total ?? 0;
}

describe('creating devices', () => {
  it('stores the MAC normalised, audits, and refuses duplicates of MAC, IMEI and serial + model', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const created = await call(app, token, 'POST', '/account/devices', {
      model: 'gt5',
      serialNumber: ' SN-001 ',
      macAddress: 'aa-bb-cc-dd-ee-0f',
      imei: '490154203237518',
    });
    expect(created.statusCode).toBe(200);
    const device = dataOf(created);
    expect(device).toMatchObject({
      model: 'GT5',
      serialNumber: 'SN-001',
      macAddress: 'AA:BB:CC:DD:EE:0F',
      imei: '490154203237518',
      connectionStatus: -1,
      activatedAt: null,
      patient: null,
    });
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({
      tenant_id: org.tenant.id,
      mac_address: 'AA:BB:CC:DD:EE:0F',
      connection_status: -1,
    });
    expect((await deviceAudit(testDb.ownerUrl, device.id)).map((row) => row.action)).toEqual([
      'DEVICE_CREATED',
    ]);

    for (const duplicate of [
      { model: 'V19', serialNumber: 'SN-002', macAddress: 'AABBCCDDEE0F' },
      { model: 'V19', serialNumber: 'SN-003', imei: '490154203237518' },
      { model: 'GT5', serialNumber: 'SN-001', macAddress: freshMac() },
    ]) {
      const response = await call(app, token, 'POST', '/account/devices', duplicate);
      expect(response.statusCode, JSON.stringify(duplicate)).toBe(409);
      expect(codeOf(response)).toBe('device.exists');
    }
    // The same serial number in another model is another device.
    expect(
      (
        await call(app, token, 'POST', '/account/devices', {
          model: 'V19',
          serialNumber: 'SN-001',
          macAddress: freshMac(),
        })
      ).statusCode,
    ).toBe(200);
    expect(await countDevices(org.tenant.id)).toBe(2);
  });

  it('refuses a bad MAC, a bad IMEI, an unsupported type and a device without MAC or IMEI, writing nothing', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const cases = [
      {
        body: deviceBody({ macAddress: 'AA:BB:CC:DD:EE' }),
        code: 'device.invalidMac',
        field: 'body.macAddress',
      },
      {
        body: deviceBody({ macAddress: 'GG:BB:CC:DD:EE:FF' }),
        code: 'device.invalidMac',
        field: 'body.macAddress',
      },
      {
        body: deviceBody({ macAddress: 'AA:BB-CC:DD:EE:FF' }),
        code: 'device.invalidMac',
        field: 'body.macAddress',
      },
      { body: deviceBody({ imei: '490154203237519' }), code: 'device.invalidImei', field: 'body.imei' },
      { body: deviceBody({ imei: '12345' }), code: 'device.invalidImei', field: 'body.imei' },
      { body: deviceBody({ model: 'X100' }), code: 'device.unsupportedType', field: 'body.model' },
      { body: deviceBody({ macAddress: null }), code: 'common.invalidParameter', field: 'body.macAddress' },
    ];
    for (const { body, code, field } of cases) {
      const response = await call(app, token, 'POST', '/account/devices', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const envelope = response.json<{ code: string; message: string; fieldErrors: { field: string }[] }>();
      expect(envelope.code).toBe(code);
      expect(envelope.fieldErrors.map((error) => error.field)).toContain(field);
    }
    const vietnamese = await app.inject({
      method: 'POST',
      url: '/account/devices',
      payload: deviceBody({ macAddress: 'zz' }),
      cookies: { rpm_session: token },
      headers: { 'accept-language': 'vi' },
    });
    expect(vietnamese.json<{ message: string }>().message).toBe('Định dạng địa chỉ MAC không hợp lệ');
    const missingSerial = await call(
      app,
      token,
      'POST',
      '/account/devices',
      deviceBody({ serialNumber: '' }),
    );
    expect(missingSerial.statusCode).toBe(400);
    expect(codeOf(missingSerial)).toBe('common.invalidParameter');
    expect(await countDevices(org.tenant.id)).toBe(0);
  });

  it('is refused to roles without device.create', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.cskh);
    const response = await call(app, token, 'POST', '/account/devices', deviceBody());
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('auth.permissionDenied');
    expect(await countDevices(org.tenant.id)).toBe(0);
  });
});

describe('editing and deleting devices', () => {
  it('edits a device that never connected, and refuses edits and deletes once it is activated', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const device = dataOf(await call(app, token, 'POST', '/account/devices', deviceBody()));
    const edited = await call(app, token, 'PUT', `/account/devices/${device.id}`, {
      model: 'J2025E',
      serialNumber: 'SN-NEW',
      macAddress: '0a:1b:2c:3d:4e:5f',
    });
    expect(edited.statusCode).toBe(200);
    expect(dataOf(edited)).toMatchObject({
      model: 'J2025E',
      serialNumber: 'SN-NEW',
      macAddress: '0A:1B:2C:3D:4E:5F',
    });
    expect((await deviceAudit(testDb.ownerUrl, device.id)).map((row) => row.action)).toEqual([
      'DEVICE_CREATED',
      'DEVICE_UPDATED',
    ]);

    // The watch connects for the first time: it is activated from then on.
    await asOwner(testDb.ownerUrl, 'UPDATE devices SET connection_status = 1 WHERE id = $1', [device.id]);
    const activated = await storedDevice(testDb.ownerUrl, device.id);
    expect(activated?.activated_at).toBeInstanceOf(Date);
    const refused = await call(app, token, 'PUT', `/account/devices/${device.id}`, {
      model: 'V19',
      serialNumber: 'SN-OTHER',
      macAddress: freshMac(),
    });
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('device.activated');
    const notDeleted = await call(app, token, 'DELETE', `/account/devices/${device.id}`);
    expect(notDeleted.statusCode).toBe(409);
    expect(codeOf(notDeleted)).toBe('device.cannotDelete');
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({
      serial_number: 'SN-NEW',
      model: 'J2025E',
    });
    // Activation cannot be undone by setting the status back.
    await asOwner(testDb.ownerUrl, 'UPDATE devices SET connection_status = -1 WHERE id = $1', [device.id]);
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({ connection_status: 1 });
  });

  it('deletes an unbound device that never connected, and refuses to delete a bound one', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const device = dataOf(await call(app, token, 'POST', '/account/devices', deviceBody()));
    const bound = await insertDevice(testDb, org.tenant.id, { patientId: org.patientA.id });
    const refused = await call(app, token, 'DELETE', `/account/devices/${bound.id}`);
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('device.cannotDelete');
    expect(await storedDevice(testDb.ownerUrl, bound.id)).toBeDefined();
    const deleted = await call(app, token, 'DELETE', `/account/devices/${device.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(await storedDevice(testDb.ownerUrl, device.id)).toBeUndefined();
    expect((await deviceAudit(testDb.ownerUrl, device.id)).map((row) => row.action)).toEqual([
      'DEVICE_CREATED',
      'DEVICE_DELETED',
    ]);
    expect((await call(app, token, 'DELETE', `/account/devices/${device.id}`)).statusCode).toBe(404);
  });

  it('refuses edits and deletes to roles without the permission', async () => {
    const org = await deviceOrganisation(testDb);
    const device = await insertDevice(testDb, org.tenant.id);
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    expect(codeOf(await call(app, doctor, 'PUT', `/account/devices/${device.id}`, deviceBody()))).toBe(
      'auth.permissionDenied',
    );
    expect(codeOf(await call(app, doctor, 'DELETE', `/account/devices/${device.id}`))).toBe(
      'auth.permissionDenied',
    );
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({
      serial_number: device.serialNumber,
    });
  });
});

describe('binding devices to patients', () => {
  it('binds to a patient, takes the account name, refuses another patient, unbinds, and lists the patient’s devices', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const device = dataOf(await call(app, token, 'POST', '/account/devices', deviceBody()));
    const bound = await call(app, token, 'PUT', `/account/devices/${device.id}/bind`, {
      patientId: org.patientA.id,
    });
    expect(bound.statusCode).toBe(200);
    expect(dataOf(bound)).toMatchObject({
      patient: { id: org.patientA.id, fullName: 'Anh Le' },
      accountUsername: org.accountA.email,
    });
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({
      patient_id: org.patientA.id,
      account_username: org.accountA.email,
    });
    // Binding again to the same patient changes nothing; to another patient is refused.
    expect(
      (await call(app, token, 'PUT', `/account/devices/${device.id}/bind`, { patientId: org.patientA.id }))
        .statusCode,
    ).toBe(200);
    const other = await call(app, token, 'PUT', `/account/devices/${device.id}/bind`, {
      patientId: org.patientB.id,
    });
    expect(other.statusCode).toBe(409);
    expect(codeOf(other)).toBe('device.connectedByAnotherUser');
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({ patient_id: org.patientA.id });

    const ofPatient = await call(app, token, 'GET', `/account/patients/${org.patientA.id}/devices`);
    expect(ofPatient.json<{ data: DeviceBody[] }>().data.map((item) => item.id)).toEqual([device.id]);
    expect(
      (await call(app, token, 'GET', `/account/patients/${org.patientB.id}/devices`)).json<{
        data: DeviceBody[];
      }>().data,
    ).toEqual([]);

    const unbound = await call(app, token, 'PUT', `/account/devices/${device.id}/unbind`);
    expect(unbound.statusCode).toBe(200);
    expect(dataOf(unbound)).toMatchObject({ patient: null, accountUsername: null });
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({
      patient_id: null,
      account_username: null,
    });
    expect((await deviceAudit(testDb.ownerUrl, device.id)).map((row) => row.action)).toEqual([
      'DEVICE_CREATED',
      'DEVICE_BOUND',
      'DEVICE_UNBOUND',
    ]);
    expect(
      (await call(app, token, 'PUT', `/account/devices/${device.id}/bind`, { patientId: org.patientB.id }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a patient of a center the caller cannot see, and hides devices bound there', async () => {
    const org = await deviceOrganisation(testDb);
    const adminA = await logInAs(app, org.tenant.code, org.adminA);
    const stock = await insertDevice(testDb, org.tenant.id);
    const ofB = await insertDevice(testDb, org.tenant.id, { patientId: org.patientB.id });
    const ofA = await insertDevice(testDb, org.tenant.id, { patientId: org.patientA.id });

    const refused = await call(app, adminA, 'PUT', `/account/devices/${stock.id}/bind`, {
      patientId: org.patientB.id,
    });
    expect(refused.statusCode).toBe(404);
    expect(codeOf(refused)).toBe('patient.notFound');
    expect(await storedDevice(testDb.ownerUrl, stock.id)).toMatchObject({ patient_id: null });

    expect(new Set(idsOf(await call(app, adminA, 'GET', '/account/devices')))).toEqual(
      new Set([stock.id, ofA.id]),
    );
    for (const [method, url, payload] of [
      ['GET', `/account/devices/${ofB.id}`, undefined],
      ['PUT', `/account/devices/${ofB.id}`, deviceBody()],
      ['DELETE', `/account/devices/${ofB.id}`, undefined],
      ['PUT', `/account/devices/${ofB.id}/unbind`, undefined],
      ['PUT', `/account/devices/${ofB.id}/bind`, { patientId: org.patientA.id }],
    ] as const) {
      const response = await call(app, adminA, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(codeOf(response)).toBe('device.notFound');
    }
    const patientB = await call(app, adminA, 'GET', `/account/patients/${org.patientB.id}/devices`);
    expect(patientB.statusCode).toBe(404);
    expect(codeOf(patientB)).toBe('patient.notFound');
    expect(await storedDevice(testDb.ownerUrl, ofB.id)).toMatchObject({
      patient_id: org.patientB.id,
      serial_number: ofB.serialNumber,
    });
  });

  it('answers 404 to another tenant’s admin and changes nothing', async () => {
    const org = await deviceOrganisation(testDb);
    const device = await insertDevice(testDb, org.tenant.id, { patientId: org.patientA.id });
    const other = await createTenant(testDb.database);
    const intruder = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const token = await logInAs(app, other.code, intruder);
    for (const [method, url, payload] of [
      ['GET', `/account/devices/${device.id}`, undefined],
      ['PUT', `/account/devices/${device.id}`, deviceBody()],
      ['DELETE', `/account/devices/${device.id}`, undefined],
      ['PUT', `/account/devices/${device.id}/unbind`, undefined],
      ['GET', `/account/patients/${org.patientA.id}/devices`, undefined],
    ] as const) {
      expect((await call(app, token, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(idsOf(await call(app, token, 'GET', '/account/devices'))).toEqual([]);
    expect(await storedDevice(testDb.ownerUrl, device.id)).toMatchObject({
      patient_id: org.patientA.id,
      tenant_id: org.tenant.id,
    });
  });
});

describe('the device list', () => {
  it('searches by IMEI, MAC, serial and account, filters by category, states and binding, sorts and pages', async () => {
    const org = await deviceOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const first = await insertDevice(testDb, org.tenant.id, {
      model: 'GT2',
      serialNumber: 'SN-A1',
      macAddress: '11:22:33:44:55:66',
      imei: '490154203237518',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const second = await insertDevice(testDb, org.tenant.id, {
      model: 'V19',
      serialNumber: 'SN-B2',
      patientId: org.patientA.id,
      accountUsername: 'anh.le@test.example',
      connectionStatus: 1,
      appStatus: 'ONLINE',
      lastSyncedAt: new Date('2026-02-01T00:00:00Z'),
      createdAt: new Date('2026-01-02T00:00:00Z'),
    });
    const third = await insertDevice(testDb, org.tenant.id, {
      model: 'V19',
      serialNumber: 'SN-C3',
      connectionStatus: 0,
      appStatus: 'KILLED',
      createdAt: new Date('2026-01-03T00:00:00Z'),
    });
    const list = (query: string) => call(app, token, 'GET', `/account/devices?${query}`);

    expect(idsOf(await list(''))).toEqual([third.id, second.id, first.id]);
    expect(idsOf(await list('sortField=created&sortType=asc'))).toEqual([first.id, second.id, third.id]);
    expect(idsOf(await list('sortField=serialNumber&sortType=desc'))).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
    expect(idsOf(await list('sortField=lastSync&sortType=desc'))[0]).toBe(second.id);
    expect(idsOf(await list('sortField=status&sortType=desc'))).toEqual([second.id, third.id, first.id]);
    const page = await list('page=1&size=2&sortField=created&sortType=asc');
    expect(idsOf(page)).toEqual([third.id]);
    expect(page.json<{ data: { total: number; page: number; size: number } }>().data).toMatchObject({
      total: 3,
      page: 1,
      size: 2,
    });

    expect(idsOf(await list('search=4901542032'))).toEqual([first.id]);
    expect(idsOf(await list('search=33:44'))).toEqual([first.id]);
    expect(idsOf(await list('search=334455'))).toEqual([first.id]);
    expect(idsOf(await list('search=sn-c'))).toEqual([third.id]);
    expect(idsOf(await list('search=ANH.LE'))).toEqual([second.id]);
    expect(idsOf(await list('search=100%25'))).toEqual([]);
    expect(idsOf(await list('category=GT2'))).toEqual([first.id]);
    expect(idsOf(await list('status=0'))).toEqual([third.id]);
    expect(idsOf(await list('status=-1'))).toEqual([first.id]);
    expect(idsOf(await list('appStatus=ONLINE'))).toEqual([second.id]);
    expect(idsOf(await list('bound=true'))).toEqual([second.id]);
    expect(idsOf(await list('bound=false&sortField=created&sortType=asc'))).toEqual([first.id, third.id]);
    expect(itemsOf(await list('bound=true'))[0]).toMatchObject({
      patient: { id: org.patientA.id, patientCode: org.patientA.patientCode },
      connectionStatus: 1,
    });

    // A device whose status was never written but that syncs is activated and connected, in the
    // rows, the filters and the order alike (never "not activated" next to "online").
    const syncing = await insertDevice(testDb, org.tenant.id, {
      model: 'GT5',
      serialNumber: 'SN-D4',
      connectionStatus: -1,
      appStatus: 'ONLINE',
      lastSyncedAt: new Date('2026-02-02T00:00:00Z'),
      createdAt: new Date('2026-01-04T00:00:00Z'),
    });
    expect(itemsOf(await list('search=SN-D4'))[0]).toMatchObject({
      connectionStatus: 1,
      appStatus: 'ONLINE',
    });
    expect(idsOf(await list('status=-1'))).toEqual([first.id]);
    expect(idsOf(await list('status=1&sortField=created&sortType=asc'))).toEqual([second.id, syncing.id]);
    const detail = await call(app, token, 'GET', `/account/devices/${syncing.id}`);
    expect(detail.json()).toMatchObject({ data: { connectionStatus: 1, appStatus: 'ONLINE' } });
    // It is activated: it cannot be edited any more.
    expect(codeOf(await call(app, token, 'PUT', `/account/devices/${syncing.id}`, deviceBody()))).toBe(
      'device.activated',
    );

    for (const bad of [
      'category=X1',
      'status=5',
      'appStatus=SLEEPING',
      'sortField=color',
      'size=0',
      'page=-1',
    ]) {
      const response = await list(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(codeOf(response)).toBe('common.invalidParameter');
    }
    expect(
      codeOf(await call(app, await logInAs(app, org.tenant.code, org.assistantA), 'GET', '/account/devices')),
    ).toBe('auth.permissionDenied');
  });
});
