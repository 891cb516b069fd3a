import type { FastifyInstance } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import { registeredPeriodicTasks } from '../jobs/registry.js';
import { staffSession } from '../tenants/test-support.js';
import { checkNoData } from '../vitals/maintenance-job.js';
import { alertOrganisation, patientOutbox, type AlertOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
const clock = new ManualClock(new Date('2025-03-01T08:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/**
 * The no-data alert: a bound watch silent longer than the tenant allows (default 60 minutes; watches
 * sync every 15) turns NO_SYNC, and the care team gets a NO_DATA alert live while the patient is asked
 * to check the watch; once per silence.
 */
it('flags a watch silent past the limit once: NO_SYNC, a NO_DATA alert with its live event, a notice to the patient', async () => {
  const deviceId = uuidv7();
  const quietId = uuidv7();
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, connection_status, app_status, last_synced_at)
     VALUES ($1, $2, 'V19', 'SN-NODATA-1', 'AA:00:00:00:00:01', $3, 1, 'ONLINE', $4),
            ($1, $5, 'V19', 'SN-NODATA-2', 'AA:00:00:00:00:02', $6, 1, 'ONLINE', $7)`,
    [
      org.tenant.id,
      deviceId,
      org.patientA.id,
      new Date(clock.now().getTime() - 61 * MINUTE).toISOString(),
      quietId,
      org.patientB.id,
      new Date(clock.now().getTime() - 59 * MINUTE).toISOString(),
    ],
  );

  expect(await checkNoData(testDb.database, clock)).toBe(1);
  const devices = await asOwner<{ id: string; app_status: string }>(
    testDb.ownerUrl,
    'SELECT id, app_status FROM devices WHERE id = ANY($1::uuid[]) ORDER BY serial_number',
    [[deviceId, quietId]],
  );
  expect(devices.map((device) => device.app_status)).toEqual(['NO_SYNC', 'ONLINE']);
  const alerts = await asOwner<{ type: string; level: string; source: string; patient_id: string }>(
    testDb.ownerUrl,
    `SELECT type, level, source, patient_id FROM alerts WHERE type = 'NO_DATA'`,
  );
  expect(alerts).toEqual([
    { type: 'NO_DATA', level: 'AT_RISK', source: 'NO_DATA', patient_id: org.patientA.id },
  ]);
  const events = await asOwner<{ type: string }>(
    testDb.ownerUrl,
    `SELECT type FROM events WHERE patient_id = $1 AND type = 'alert.raised'`,
    [org.patientA.id],
  );
  expect(events).toHaveLength(1);
  const notices = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'ALERT_NO_DATA');
  expect(notices.map((message) => [message.channel, message.recipient])).toEqual([['SMS', '0901000001']]);
  // The patient's status says nothing about a silent watch.
  const [patient] = await asOwner<{ status: string }>(
    testDb.ownerUrl,
    'SELECT status FROM patients WHERE id = $1',
    [org.patientA.id],
  );
  expect(patient?.status).toBe('NORMAL');

  // Once per silence: later passes add nothing until the watch syncs again.
  clock.advance(HOUR);
  expect(await checkNoData(testDb.database, clock)).toBe(1); // the second watch is now silent too
  const [count] = await asOwner<{ n: number }>(
    testDb.ownerUrl,
    `SELECT count(*)::int AS n FROM alerts WHERE type = 'NO_DATA' AND patient_id = $1`,
    [org.patientA.id],
  );
  expect(count?.n).toBe(1);
});

/**
 * The window is the tenant's setting NO_DATA_ALERT_MINUTES (15 / 30 / 60 / custom, default 60),
 * and the check runs every minute on the job queue's crontab, so the alert comes within a minute
 * of the window. The clock is moved, nothing waits.
 */
it('alerts within a minute of the tenant’s window: 15 minutes → nothing at 14, the alert at 15; a changed window applies at the next check', async () => {
  const other = await alertOrganisation(testDb, app);
  // A fresh console session each time: the clock moves past the access token's 15 minutes.
  const setWindow = async (minutes: string) =>
    app.inject({
      method: 'PUT',
      url: `/manage/sadmin/tenant/${other.tenant.id}/settings`,
      payload: { NO_DATA_ALERT_MINUTES: minutes },
      ...withSession((await staffSession(app, testDb, 'SUPER_ADMIN', other.tenant.code)).token),
    });
  for (const refused of ['14', '0', 'soon', '10081', '1.5']) {
    expect((await setWindow(refused)).statusCode, refused).toBe(400);
  }
  const saved = await setWindow('15');
  expect(saved.statusCode).toBe(200);
  expect(saved.json<{ data: { settings: { key: string; value: string }[] } }>().data.settings).toContainEqual(
    expect.objectContaining({ key: 'NO_DATA_ALERT_MINUTES', value: '15' }),
  );

  const check = registeredPeriodicTasks().get('vitals.noDataCheck');
  expect(check?.schedule).toBe('* * * * *');
  const runCheck = () => check?.handler({ database: testDb.database, clock, log: app.log, firedAt: clock.now() });
  const noDataAlerts = async (patientId: string) =>
    (
      await asOwner<{ n: number }>(
        testDb.ownerUrl,
        `SELECT count(*)::int AS n FROM alerts WHERE type = 'NO_DATA' AND patient_id = $1`,
        [patientId],
      )
    )[0]?.n;

  const watchA = uuidv7();
  const watchB = uuidv7();
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, connection_status, app_status, last_synced_at)
     VALUES ($1, $2, 'V19', 'SN-NODATA-3', 'AA:00:00:00:00:03', $3, 1, 'ONLINE', $5),
            ($1, $4, 'V19', 'SN-NODATA-4', 'AA:00:00:00:00:04', $6, 1, 'ONLINE', $5)`,
    [other.tenant.id, watchA, other.patientA.id, watchB, clock.now().toISOString(), other.patientB.id],
  );

  clock.advance(14 * MINUTE);
  await runCheck();
  expect(await noDataAlerts(other.patientA.id)).toBe(0);
  clock.advance(MINUTE);
  await runCheck();
  expect(await noDataAlerts(other.patientA.id)).toBe(1);
  expect(await noDataAlerts(other.patientB.id)).toBe(1);

  // A longer window: a watch silent for 20 minutes is fine under 30, and alerts as soon as the
  // window is cut back to 15.
  expect((await setWindow('30')).statusCode).toBe(200);
  await asOwner(testDb.ownerUrl, `UPDATE devices SET app_status = 'ONLINE', last_synced_at = $2 WHERE id = $1`, [
    watchB,
    clock.now().toISOString(),
  ]);
  clock.advance(20 * MINUTE);
  await runCheck();
  expect(await noDataAlerts(other.patientB.id)).toBe(1);
  expect((await setWindow('15')).statusCode).toBe(200);
  clock.advance(MINUTE);
  await runCheck();
  expect(await noDataAlerts(other.patientB.id)).toBe(2);
});
