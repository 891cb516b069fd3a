import { pickLanguage, type SupportedLanguage } from '@rpm/i18n';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { fullName } from '../care-plan/store.js';
import { fillText, zonedDateAndTime } from './message-text.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { activeTenantIds } from '../staff/store.js';
import { findTenantById } from '../tenants/store.js';

/**
 * Appointment reminders (spec §9: 24 hours and 15 minutes before the start), e-mailed to the
 * patient (its account's address, else the record's) and to the doctor, each in its own language
 * and time zone. A pass every minute queues what is due in the same transaction as the mark on the
 * appointment (migration 0045), so each reminder goes out once whatever reruns or restarts. An
 * appointment booked less than 24 hours ahead gets the 24-hour reminder at once (the patient hears
 * of it twice rather than not at all); one booked less than 15 minutes ahead gets only the
 * 15-minute one.
 */

export const REMINDER_LEADS = { '24H': 24 * 60, '15M': 15 } as const;
export type ReminderKind = keyof typeof REMINDER_LEADS;

type Texts = Record<'subject' | 'body' | 'place_CLINIC' | 'place_PATIENT_ADDRESS' | 'place_ONLINE', string>;

const TEXTS: Record<
  SupportedLanguage,
  Record<ReminderKind, Pick<Texts, 'subject'>> & Omit<Texts, 'subject'>
> = {
  en: {
    '24H': { subject: 'Reminder: appointment on {date} at {time}' },
    '15M': { subject: 'Your appointment starts at {time}' },
    body: 'Hello {name},\n\nThis is a reminder of the appointment of {patient} with {doctor} on {date} at {time} ({zone}), {place}.\n\nReason: {reason}\n\n{organization}',
    place_CLINIC: 'at the clinic',
    place_PATIENT_ADDRESS: 'at the patient’s address',
    place_ONLINE: 'online (video call)',
  },
  vi: {
    '24H': { subject: 'Nhắc lịch hẹn ngày {date} lúc {time}' },
    '15M': { subject: 'Lịch hẹn của bạn bắt đầu lúc {time}' },
    body: 'Xin chào {name},\n\nĐây là lời nhắc lịch hẹn của {patient} với {doctor} ngày {date} lúc {time} ({zone}), {place}.\n\nLý do: {reason}\n\n{organization}',
    place_CLINIC: 'tại phòng khám',
    place_PATIENT_ADDRESS: 'tại nhà bệnh nhân',
    place_ONLINE: 'trực tuyến (cuộc gọi video)',
  },
};

/** The catalogue, for the test that checks every language has every text. */
export const APPOINTMENT_REMINDER_CATALOGUE = TEXTS;


/** The reminder in the recipient's language, with the time in its zone (dd/MM/yyyy HH:mm). */
export function renderAppointmentReminder(options: {
  kind: ReminderKind;
  language: string;
  timeZone: string;
  recipientName: string;
  patientName: string;
  doctorName: string;
  startsAt: Date;
  place: 'CLINIC' | 'PATIENT_ADDRESS' | 'ONLINE';
  reason: string;
  organization: string;
}): { subject: string; body: string } {
  const texts = TEXTS[pickLanguage(options.language)];
  const { date, time } = zonedDateAndTime(options.startsAt, options.timeZone);
  const values = {
    name: options.recipientName,
    patient: options.patientName,
    doctor: options.doctorName,
    date,
    time,
    zone: options.timeZone,
    place: texts[`place_${options.place}`],
    reason: options.reason,
    organization: options.organization,
  };
  return {
    subject: fillText(texts[options.kind].subject, values).replace(/[\r\n]+/g, ' '),
    body: fillText(texts.body, values),
  };
}

interface DueAppointment extends Record<string, unknown> {
  id: string;
  starts_at: Date | string;
  place: 'CLINIC' | 'PATIENT_ADDRESS' | 'ONLINE';
  reason: string;
  patient_name: string;
  patient_email: string | null;
  patient_language: string | null;
  patient_zone: string | null;
  doctor_name: string;
  doctor_email: string | null;
  doctor_language: string;
  doctor_zone: string;
}

/** Marks the appointments whose `kind` reminder is due and returns them (the mark and the send are one step). */
async function takeDue(tx: TenantTransaction, kind: ReminderKind, now: Date): Promise<DueAppointment[]> {
  const column = sql.raw(kind === '24H' ? 'reminded_24h_at' : 'reminded_15m_at');
  const until = new Date(now.getTime() + REMINDER_LEADS[kind] * 60_000).toISOString();
  // A 24-hour reminder not sent before the 15-minute one is due is not sent any more.
  const floor =
    kind === '24H'
      ? new Date(now.getTime() + REMINDER_LEADS['15M'] * 60_000).toISOString()
      : now.toISOString();
  const result = await tx.execute<DueAppointment>(sql`
    WITH due AS (
      UPDATE appointments SET ${column} = ${now.toISOString()}::timestamptz
       WHERE status IN ('UPCOMING', 'WAITING_FOR_DOCTOR') AND ${column} IS NULL
         AND starts_at <= ${until}::timestamptz AND starts_at > ${floor}::timestamptz
      RETURNING id, tenant_id, patient_id, doctor_id, starts_at, place, reason)
    SELECT due.id, due.starts_at, due.place, due.reason,
           ${fullName('patient')} AS patient_name, coalesce(nullif(account.email, ''), patient.email) AS patient_email,
           account.language AS patient_language, account.time_zone AS patient_zone,
           ${fullName('doctor')} AS doctor_name, doctor.email AS doctor_email, doctor.language AS doctor_language,
           doctor.time_zone AS doctor_zone
      FROM due
      JOIN patients patient ON patient.tenant_id = due.tenant_id AND patient.id = due.patient_id
      LEFT JOIN users account ON account.tenant_id = patient.tenant_id AND account.id = patient.user_id
      JOIN users doctor ON doctor.tenant_id = due.tenant_id AND doctor.id = due.doctor_id
     ORDER BY due.starts_at, due.id`);
  return result.rows;
}

/**
 * One pass in every active tenant: the 15-minute reminders first (marking them makes a 24-hour one
 * that was never sent pointless), then the 24-hour ones. Returns how many messages were queued.
 */
export async function sendAppointmentReminders(
  database: Database,
  clock: Clock,
  logger?: FastifyBaseLogger,
): Promise<number> {
  const now = clock.now();
  let queued = 0;
  for (const tenantId of await activeTenantIds(database.system)) {
    try {
      const organization = (await findTenantById(database.system, tenantId))?.name ?? '';
      queued += await database.withTenant(tenantId, async (tx) => {
        let count = 0;
        for (const kind of ['15M', '24H'] as const) {
          for (const due of await takeDue(tx, kind, now)) {
            const startsAt = new Date(due.starts_at);
            const common = {
              kind,
              patientName: due.patient_name,
              doctorName: due.doctor_name,
              startsAt,
              place: due.place,
              reason: due.reason,
              organization,
            };
            const recipients = [
              {
                email: due.patient_email,
                language: due.patient_language ?? 'vi',
                timeZone: due.patient_zone ?? due.doctor_zone,
                recipientName: due.patient_name,
              },
              {
                email: due.doctor_email,
                language: due.doctor_language,
                timeZone: due.doctor_zone,
                recipientName: due.doctor_name,
              },
            ];
            for (const recipient of recipients) {
              if (recipient.email === null || recipient.email === '') continue;
              const message = renderAppointmentReminder({ ...common, ...recipient });
              await enqueueMessage(tx, tenantId, {
                channel: 'EMAIL',
                recipient: recipient.email,
                subject: message.subject,
                body: message.body,
                purpose: `APPOINTMENT_REMINDER_${kind}`,
              });
              count += 1;
            }
          }
        }
        return count;
      });
    } catch (error) {
      logger?.error({ err: error, tenantId }, 'appointments: reminders failed for a tenant');
    }
  }
  return queued;
}

/** Every minute: a reminder goes out within a minute of its time. */
export const APPOINTMENT_REMINDER_TASK = definePeriodicTask({
  name: 'appointments.reminders',
  schedule: '* * * * *',
  handler: async ({ database, clock, log }) => {
    await sendAppointmentReminders(database, clock, log);
  },
});
