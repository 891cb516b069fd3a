import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { DAY, ManualClock } from '../../lib/clock.js';
import { registeredPeriodicTasks } from '../jobs/registry.js';
import { startMailCatcher, type MailCatcher } from '../messaging/mail-catcher.js';
import { LICENSE_REMINDER_TASK, sendLicenseExpiryReminders } from './license-reminder-job.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let mail: MailCatcher;
const clock = new ManualClock(new Date('2026-06-01T01:00:00Z'));
let tenant: { id: string; code: string; name: string };
beforeAll(async () => {
  testDb = await createTestDatabase();
  mail = await startMailCatcher();
  app = await createTestApp(testDb.database, { smtpUrl: mail.url }, clock);
  tenant = await createTenant(testDb.database);
});
afterAll(async () => {
  await app.close();
  await mail.stop();
  await testDb.drop();
});

async function addLicense(doctorId: string, name: string, expiresOn: string): Promise<string> {
  const [row] = await asOwner<{ id: string }>(
    testDb.ownerUrl,
    'INSERT INTO doctor_licenses (tenant_id, id, doctor_id, name, expires_on) VALUES ($1, gen_random_uuid(), $2, $3, $4) RETURNING id',
    [tenant.id, doctorId, name, expiresOn],
  );
  if (row === undefined) throw new Error('license not stored');
  return row.id;
}
const mailsTo = (address: string | null) => mail.messages.filter((message) => message.to.includes(address ?? ''));
const pass = async () => {
  const queued = await sendLicenseExpiryReminders(app.database, clock);
  await app.messaging.drain();
  return queued;
};

describe('license expiry reminders', () => {
  it('e-mails each doctor 30 and 7 days before a license expires, once, in their language; again for a renewed date', async () => {
    const lan = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', language: 'vi', firstName: 'Lan', lastName: 'Tran' });
    const ben = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', language: 'en', firstName: 'Ben', lastName: 'Hall' });
    const away = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', status: 'DISABLED' });
    const noEmail = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', email: null, phone: '0912345678' });
    await addLicense(lan.id, 'Chứng chỉ hành nghề 0123', '2026-07-01'); // 30 days
    const benLicense = await addLicense(ben.id, 'Board certificate', '2026-06-20'); // 19 days
    await addLicense(ben.id, 'Far license', '2026-09-01');
    await addLicense(ben.id, 'Old license', '2026-05-31'); // expired yesterday
    await addLicense(away.id, 'Away license', '2026-06-10');
    await addLicense(noEmail.id, 'No address license', '2026-06-10');

    expect(await pass()).toBe(2);
    const [vi] = mailsTo(lan.email);
    expect(vi?.subject).toBe(`${tenant.name}: giấy phép hành nghề "Chứng chỉ hành nghề 0123" của bạn hết hạn ngày 01/07/2026`);
    expect(vi?.text).toContain('Xin chào Lan Tran');
    expect(vi?.text).toContain('(còn 30 ngày)');
    const [en] = mailsTo(ben.email);
    expect(en?.subject).toBe(`${tenant.name}: your medical license "Board certificate" expires on 20/06/2026`);
    expect(en?.text).toContain('expires on 20/06/2026 (in 19 days)');
    expect(mailsTo(away.email)).toHaveLength(0);

    // The same day again, and after a restart of the server: nothing more.
    expect(await pass()).toBe(0);
    const restarted = await createTestApp(testDb.database, { smtpUrl: mail.url }, clock);
    try {
      expect(await sendLicenseExpiryReminders(restarted.database, clock)).toBe(0);
      await restarted.messaging.drain();
    } finally {
      await restarted.close();
    }
    expect(mailsTo(lan.email)).toHaveLength(1);
    expect(mailsTo(ben.email)).toHaveLength(1);

    // 23 days later: 7 days left on Lan's license; Ben's renewed one (new date) is 16 days away.
    clock.advance(23 * DAY);
    await asOwner(testDb.ownerUrl, `UPDATE doctor_licenses SET expires_on = '2026-07-10' WHERE id = $1`, [benLicense]);
    expect(await pass()).toBe(2);
    expect(mailsTo(lan.email).map((message) => /\((.+)\)\./.exec(message.text)?.[1])).toEqual(['còn 30 ngày', 'còn 7 ngày']);
    expect(mailsTo(ben.email).at(-1)?.subject).toContain('expires on 10/07/2026');
    expect(await pass()).toBe(0);

    const recorded = await asOwner<{ expires_on: string; threshold_days: number }>(
      testDb.ownerUrl,
      `SELECT expires_on::text, threshold_days FROM license_expiry_reminders WHERE license_id = $1 ORDER BY expires_on`,
      [benLicense],
    );
    expect(recorded).toEqual([
      { expires_on: '2026-06-20', threshold_days: 30 },
      { expires_on: '2026-07-10', threshold_days: 30 },
    ]);
  });

  it('sends the closest reminder only to a license added late, and catches up a day the job did not run', async () => {
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', language: 'en' });
    const today = clock.now();
    const inDays = (days: number) => new Date(today.getTime() + days * DAY).toISOString().slice(0, 10);
    await addLicense(doctor.id, 'Late license', inDays(5));
    await addLicense(doctor.id, 'Caught up', inDays(29)); // its 30-day day was yesterday
    expect(await pass()).toBe(2);
    expect(mailsTo(doctor.email).map((message) => /\((.+)\)\./.exec(message.text)?.[1]).sort()).toEqual(['in 29 days', 'in 5 days']);
    clock.advance(DAY);
    expect(await pass()).toBe(0);
  });

  it('runs daily on the job queue crontab, with the clock of the runner', async () => {
    const task = registeredPeriodicTasks().get(LICENSE_REMINDER_TASK);
    expect(task?.schedule).toBe('0 1 * * *');
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    await addLicense(doctor.id, 'Crontab license', new Date(clock.now().getTime() + 7 * DAY).toISOString().slice(0, 10));
    await task?.handler({ database: app.database, clock, log: pino({ level: 'silent' }), firedAt: clock.now() });
    await app.messaging.drain();
    expect(mailsTo(doctor.email)).toHaveLength(1);
  });

  it('keeps each tenant’s reminder rows to itself (row-level security)', async () => {
    const other = await createTenant(testDb.database);
    const seen = await app.database.withTenant(other.id, (tx) => tx.execute(sql`SELECT count(*)::int AS n FROM license_expiry_reminders`));
    expect(seen.rows[0]).toEqual({ n: 0 });
    const [all] = await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM license_expiry_reminders');
    expect(all?.n).toBeGreaterThan(0);
  });
});
