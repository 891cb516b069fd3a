import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { activeTenantIds } from '../staff/store.js';
import { findTenantById } from '../tenants/store.js';
import { fullNameOf } from '../staff/detail.js';
import { LICENSE_REMINDER_THRESHOLDS, reminderThresholdOf, renderLicenseReminder } from './license-reminders.js';
import { todayOf } from './store.js';

const FURTHEST_THRESHOLD = Math.max(...LICENSE_REMINDER_THRESHOLDS);

interface ExpiringLicense extends Record<string, unknown> {
  license_id: string;
  license_name: string;
  expires_on: string;
  email: string;
  language: string;
  first_name: string;
  middle_name: string;
  last_name: string;
}

/** Licenses of active doctors with an e-mail that expire between today and the furthest threshold. */
async function expiringLicenses(tx: TenantTransaction, tenantId: string, today: string): Promise<ExpiringLicense[]> {
  const result = await tx.execute<ExpiringLicense>(sql`
    SELECT license.id AS license_id, license.name AS license_name, license.expires_on::text AS expires_on,
           doctor.email, doctor.language, doctor.first_name, doctor.middle_name, doctor.last_name
      FROM doctor_licenses license
      JOIN users doctor ON doctor.tenant_id = license.tenant_id AND doctor.id = license.doctor_id
     WHERE license.tenant_id = ${tenantId}
       AND license.expires_on BETWEEN ${today}::date AND ${today}::date + ${FURTHEST_THRESHOLD}::integer
       AND doctor.role = 'DOCTOR' AND doctor.status = 'ACTIVE' AND doctor.deleted_at IS NULL
       AND coalesce(doctor.email, '') <> ''
     ORDER BY license.expires_on, license.id`);
  return result.rows;
}

/**
 * Records the reminder of a license for its expiry date and threshold; false when it was already
 * recorded (sent before, or by another process in a transaction that committed first).
 */
async function recordReminder(tx: TenantTransaction, tenantId: string, license: ExpiringLicense, threshold: number, now: Date): Promise<boolean> {
  const inserted = await tx.execute(sql`
    INSERT INTO license_expiry_reminders (tenant_id, license_id, expires_on, threshold_days, sent_at)
    VALUES (${tenantId}, ${license.license_id}, ${license.expires_on}::date, ${threshold}, ${now.toISOString()}::timestamptz)
    ON CONFLICT DO NOTHING RETURNING license_id`);
  return inserted.rows.length > 0;
}

/**
 * One pass of the license expiry reminders in every active tenant: each license of an active doctor
 * that has reached a threshold (30 or 7 days before its expiry, by the clock's UTC day, as the
 * license's validity) gets its e-mail queued in the doctor's language, in the same transaction as
 * the row recording it (migration 0031), so a rerun, a restart or a second server never sends it
 * twice, and a pass that fails sends nothing. A doctor who is not active gets nothing (the pass
 * after they are back sends what is due then). One tenant's failure does not stop the others.
 * Returns how many reminders were queued.
 */
export async function sendLicenseExpiryReminders(database: Database, clock: Clock, logger?: FastifyBaseLogger): Promise<number> {
  const now = clock.now();
  const today = todayOf(now);
  let queued = 0;
  for (const tenantId of await activeTenantIds(database.system)) {
    try {
      const tenant = await findTenantById(database.system, tenantId);
      if (tenant === undefined) continue;
      queued += await database.withTenant(tenantId, async (tx) => {
        let count = 0;
        for (const license of await expiringLicenses(tx, tenantId, today)) {
          const threshold = reminderThresholdOf(license.expires_on, today);
          if (threshold === null || !(await recordReminder(tx, tenantId, license, threshold, now))) continue;
          const message = renderLicenseReminder({
            language: license.language,
            organization: tenant.name,
            doctorName: fullNameOf({ firstName: license.first_name, middleName: license.middle_name, lastName: license.last_name }),
            licenseName: license.license_name,
            expiresOn: license.expires_on,
            today,
          });
          await enqueueMessage(tx, tenantId, { channel: 'EMAIL', recipient: license.email, subject: message.subject, body: message.body, purpose: `LICENSE_EXPIRY_${String(threshold)}D` });
          count += 1;
        }
        return count;
      });
    } catch (error) {
      logger?.error({ err: error, tenantId }, 'doctors: license expiry reminders failed for a tenant');
    }
  }
  return queued;
}

/**
 * The reminders run once a day on the job queue's crontab (01:00 UTC: the morning in Vietnam), one
 * run for the whole process group, with the clock of the runner.
 */
export const LICENSE_REMINDER_TASK = definePeriodicTask({
  name: 'doctors.licenseExpiryReminders',
  schedule: '0 1 * * *',
  handler: async ({ database, clock, log }) => {
    await sendLicenseExpiryReminders(database, clock, log);
  },
});
