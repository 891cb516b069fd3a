import type { MyDevice } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import {
  call,
  codeOf,
  deviceAudit,
  deviceOrganisation,
  freshSerial,
  insertDevice,
  logInAs,
  storedDevice,
  type DeviceOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: DeviceOrganisation;
let patientToken: string;
let otherToken: string;
let otherPatientId: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await deviceOrganisation(testDb);
  patientToken = await logInAs(app, org.tenant.code, org.accountA);
  const otherAccount = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'PATIENT',
    healthCenterId: org.centerB.id,
    email: `pb-${uuidv7().slice(-8)}@test.example`,
  });
  otherPatientId = (
    await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerB.id, userId: otherAccount.id })
  ).id;
  otherToken = await logInAs(app, org.tenant.code, otherAccount);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the answer's shape, as the call promises
const dataOf = <T>(response: LightMyRequestResponse) => response.json<{ data: T }>().data;
const myDevices = async (token: string) => dataOf<MyDevice[]>(await call(app, token, 'GET', '/health/me/devices'));

describe('binding a watch from the patient app', () => {
  it('binds a stock watch by model and serial (any case), lists it, and binding again changes nothing', async () => {
    const stock = await insertDevice(testDb, org.tenant.id, { model: 'GT5', serialNumber: freshSerial() });
    expect(await myDevices(patientToken)).toEqual([]);

    const bound = await call(app, patientToken, 'POST', '/health/me/devices', {
      model: 'GT5',
      serialNumber: ` ${stock.serialNumber.toLowerCase()} `,
    });
    expect(bound.statusCode).toBe(200);
    expect(dataOf<MyDevice>(bound)).toMatchObject({
      id: stock.id,
      model: 'GT5',
      connectionStatus: -1,
      lastSyncedAt: null,
      settings: { nightSpo2Detection: true, fallDetection: true },
    });
    const stored = await storedDevice(testDb.ownerUrl, stock.id);
    expect(stored?.patient_id).toBe(org.patientA.id);
    expect(stored?.account_username).toBe(org.accountA.email);
    expect((await myDevices(patientToken)).map((device) => device.id)).toEqual([stock.id]);

    const again = await call(app, patientToken, 'POST', '/health/me/devices', { model: 'GT5', serialNumber: stock.serialNumber });
    expect(again.statusCode).toBe(200);
    expect((await deviceAudit(testDb.ownerUrl, stock.id)).map((row) => row.action)).toEqual(['DEVICE_BOUND']);
  });

  it('refuses a watch bound to someone else with the spec message, and does not move it', async () => {
    const taken = await insertDevice(testDb, org.tenant.id, { patientId: otherPatientId });
    const response = await call(app, patientToken, 'POST', '/health/me/devices', { model: 'V19', serialNumber: taken.serialNumber });
    expect(response.statusCode).toBe(409);
    expect(codeOf(response)).toBe('device.connectedByAnotherUser');
    expect((await storedDevice(testDb.ownerUrl, taken.id))?.patient_id).toBe(otherPatientId);
    expect((await myDevices(otherToken)).map((device) => device.id)).toEqual([taken.id]);
    expect((await myDevices(patientToken)).map((device) => device.id)).not.toContain(taken.id);
  });

  it('does not find an unknown serial, another model of the serial, or another tenant’s watch', async () => {
    const otherTenant = await createTenant(testDb.database);
    const foreign = await insertDevice(testDb, otherTenant.id);
    const local = await insertDevice(testDb, org.tenant.id);
    for (const body of [
      { model: 'V19', serialNumber: 'SN-NOT-THERE' },
      { model: 'V19', serialNumber: foreign.serialNumber },
      { model: 'GT2', serialNumber: local.serialNumber },
    ]) {
      const response = await call(app, patientToken, 'POST', '/health/me/devices', body);
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('device.notFound');
    }
    expect((await storedDevice(testDb.ownerUrl, foreign.id))?.patient_id).toBeNull();
    const unsupported = await call(app, patientToken, 'POST', '/health/me/devices', { model: 'X9', serialNumber: 'S1' });
    expect(unsupported.statusCode).toBe(400);
  });

  it('answers staff accounts with health.noPatientProfile and binds nothing', async () => {
    const stock = await insertDevice(testDb, org.tenant.id);
    const adminToken = await logInAs(app, org.tenant.code, org.admin);
    for (const [method, url, body] of [
      ['GET', '/health/me/devices', undefined],
      ['POST', '/health/me/devices', { model: 'V19', serialNumber: stock.serialNumber }],
      ['POST', '/health/me/devices/unbind', { deviceId: stock.id }],
    ] as const) {
      const response = await call(app, adminToken, method, url, body);
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('health.noPatientProfile');
    }
    expect((await storedDevice(testDb.ownerUrl, stock.id))?.patient_id).toBeNull();
  });
});

describe('a bound watch', () => {
  it('keeps its settings and firmware version, refused for another patient, and unbinds back to the stock', async () => {
    const stock = await insertDevice(testDb, org.tenant.id, { firmwareVersion: '1.0.3' });
    await call(app, patientToken, 'POST', '/health/me/devices', { model: 'V19', serialNumber: stock.serialNumber });

    const settings = { nightSpo2Detection: false, fallDetection: true };
    const saved = await call(app, patientToken, 'POST', '/health/me/devices/settings', { deviceId: stock.id, settings });
    expect(saved.statusCode).toBe(200);
    expect(dataOf<MyDevice>(saved).settings).toEqual(settings);
    const upgraded = await call(app, patientToken, 'POST', '/health/me/devices/firmware', { deviceId: stock.id, firmwareVersion: '1.1.0' });
    expect(dataOf<MyDevice>(upgraded).firmwareVersion).toBe('1.1.0');
    const badVersion = await call(app, patientToken, 'POST', '/health/me/devices/firmware', { deviceId: stock.id, firmwareVersion: 'latest' });
    expect(badVersion.statusCode).toBe(400);
    expect((await myDevices(patientToken)).find((device) => device.id === stock.id)).toMatchObject({ settings, firmwareVersion: '1.1.0' });

    for (const [method, url, body] of [
      ['POST', '/health/me/devices/settings', { deviceId: stock.id, settings }],
      ['POST', '/health/me/devices/firmware', { deviceId: stock.id, firmwareVersion: '9.9.9' }],
      ['POST', '/health/me/devices/unbind', { deviceId: stock.id }],
    ] as const) {
      const response = await call(app, otherToken, method, url, body);
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('device.notFound');
    }

    const unbound = await call(app, patientToken, 'POST', '/health/me/devices/unbind', { deviceId: stock.id });
    expect(unbound.statusCode).toBe(200);
    expect(await storedDevice(testDb.ownerUrl, stock.id)).toMatchObject({ patient_id: null, account_username: null });
    expect((await myDevices(patientToken)).map((device) => device.id)).not.toContain(stock.id);
    expect((await deviceAudit(testDb.ownerUrl, stock.id)).map((row) => row.action)).toEqual([
      'DEVICE_BOUND',
      'DEVICE_UPDATED',
      'DEVICE_UPDATED',
      'DEVICE_UNBOUND',
    ]);
    // Free again: the other patient may bind it now, with fresh settings.
    const rebound = await call(app, otherToken, 'POST', '/health/me/devices', { model: 'V19', serialNumber: stock.serialNumber });
    expect(dataOf<MyDevice>(rebound).settings).toEqual({ nightSpo2Detection: true, fallDetection: true });
  });

  it('shows the last sync once the app posts a batch for it', async () => {
    const stock = await insertDevice(testDb, org.tenant.id);
    await call(app, patientToken, 'POST', '/health/me/devices', { model: 'V19', serialNumber: stock.serialNumber });
    const batch = await call(app, patientToken, 'POST', '/collector/readings', {
      batchId: randomUUID(),
      deviceId: stock.id,
      readings: [{ measure: 'HEART_RATE', value: 71, measuredAt: new Date(Date.now() + 1_000).toISOString() }],
    });
    expect(batch.statusCode).toBe(200);
    const listed = (await myDevices(patientToken)).find((device) => device.id === stock.id);
    expect(listed?.lastSyncedAt).not.toBeNull();
    expect(listed?.connectionStatus).toBe(1);
  });
});
