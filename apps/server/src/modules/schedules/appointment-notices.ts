import { pickLanguage, type SupportedLanguage } from '@rpm/i18n';
import { sql } from 'drizzle-orm';
import type { Database, TenantTransaction } from '../../db/database.js';
import { fullName } from '../care-plan/store.js';
import { fillText, zonedDateAndTime } from './message-text.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { publishEvent } from '../realtime/publish.js';
import { findTenantById, readTenantSettings } from '../tenants/store.js';
import { sendPatientMessage } from '../alerts/delivery.js';
import { notify, usersWithChannelOff } from '../notifications/notify.js';

/**
 * Appointment changes told to the people concerned (spec §4 "status changes notify the assigned
 * parties"): booked, moved or edited, cancelled and completed appointments are e-mailed to the
 * patient (its account's address, else the record's; a sub-user's holder) and to the doctor, each
 * in its language and time zone, except to whoever made the change. The messages go through the
 * outbox in the same transaction as the change, with a live `appointment.changed` event the
 * console and the patient app refresh on. The e-mails name no diagnosis: the app shows it.
 */

export const APPOINTMENT_CHANGES = ['BOOKED', 'UPDATED', 'CANCELED', 'COMPLETED'] as const;
export type AppointmentChange = (typeof APPOINTMENT_CHANGES)[number];

type Texts = Record<`subject_${AppointmentChange}` | `body_${AppointmentChange}` | 'footer' | 'place_CLINIC' | 'place_PATIENT_ADDRESS' | 'place_ONLINE', string>;

const TEXTS: Record<SupportedLanguage, Texts> = {
  en: {
    subject_BOOKED: 'New appointment on {date} at {time}',
    body_BOOKED: 'Hello {name},\n\nAn appointment of {patient} with {doctor} is booked for {date} at {time} ({zone}), {place}.\n\nReason: {reason}',
    subject_UPDATED: 'Appointment changed: {date} at {time}',
    body_UPDATED: 'Hello {name},\n\nThe appointment of {patient} with {doctor} has changed. It is now on {date} at {time} ({zone}), {place}.\n\nReason: {reason}',
    subject_CANCELED: 'Appointment on {date} at {time} cancelled',
    body_CANCELED: 'Hello {name},\n\nThe appointment of {patient} with {doctor} on {date} at {time} ({zone}) is cancelled.\n\nReason for cancelling: {cancelReason}',
    subject_COMPLETED: 'Your appointment with {doctor} is completed',
    body_COMPLETED: 'Hello {name},\n\nThe appointment of {patient} with {doctor} on {date} at {time} ({zone}) is completed. The diagnosis and the doctor’s advice are in the app.',
    footer: '\n\n{organization}',
    place_CLINIC: 'at the clinic',
    place_PATIENT_ADDRESS: 'at the patient’s address',
    place_ONLINE: 'online (video call)',
  },
  vi: {
    subject_BOOKED: 'Lịch hẹn mới ngày {date} lúc {time}',
    body_BOOKED: 'Xin chào {name},\n\nLịch hẹn của {patient} với {doctor} đã được đặt vào ngày {date} lúc {time} ({zone}), {place}.\n\nLý do: {reason}',
    subject_UPDATED: 'Lịch hẹn đã thay đổi: ngày {date} lúc {time}',
    body_UPDATED: 'Xin chào {name},\n\nLịch hẹn của {patient} với {doctor} đã thay đổi. Lịch hẹn mới vào ngày {date} lúc {time} ({zone}), {place}.\n\nLý do: {reason}',
    subject_CANCELED: 'Lịch hẹn ngày {date} lúc {time} đã bị hủy',
    body_CANCELED: 'Xin chào {name},\n\nLịch hẹn của {patient} với {doctor} ngày {date} lúc {time} ({zone}) đã bị hủy.\n\nLý do hủy: {cancelReason}',
    subject_COMPLETED: 'Lịch hẹn của bạn với {doctor} đã hoàn thành',
    body_COMPLETED: 'Xin chào {name},\n\nLịch hẹn của {patient} với {doctor} ngày {date} lúc {time} ({zone}) đã hoàn thành. Chẩn đoán và lời khuyên của bác sĩ có trong ứng dụng.',
    footer: '\n\n{organization}',
    place_CLINIC: 'tại phòng khám',
    place_PATIENT_ADDRESS: 'tại nhà bệnh nhân',
    place_ONLINE: 'trực tuyến (cuộc gọi video)',
  },
};

/** The catalogue, for the test that checks every language has every text. */
export const APPOINTMENT_NOTICE_CATALOGUE = TEXTS;


export function renderAppointmentNotice(options: {
  change: AppointmentChange;
  language: string;
  timeZone: string;
  recipientName: string;
  patientName: string;
  doctorName: string;
  startsAt: Date;
  place: 'CLINIC' | 'PATIENT_ADDRESS' | 'ONLINE';
  reason: string;
  cancelReason: string | null;
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
    cancelReason: options.cancelReason ?? '',
    organization: options.organization,
  };
  return {
    subject: fillText(texts[`subject_${options.change}`], values).replace(/[\r\n]+/g, ' '),
    body: fillText(texts[`body_${options.change}`] + texts.footer, values),
  };
}

const NOTICE_KINDS = {
  BOOKED: 'appointment.booked',
  UPDATED: 'appointment.updated',
  CANCELED: 'appointment.canceled',
  COMPLETED: 'appointment.completed',
} as const satisfies Record<AppointmentChange, string>;

interface NoticeRow extends Record<string, unknown> {
  patient_id: string;
  health_center_id: string | null;
  starts_at: Date | string;
  place: 'CLINIC' | 'PATIENT_ADDRESS' | 'ONLINE';
  reason: string;
  cancel_reason: string | null;
  status: string;
  patient_name: string;
  patient_phone: string | null;
  hotline: string | null;
  patient_account: string | null;
  patient_email: string | null;
  patient_language: string | null;
  patient_zone: string | null;
  doctor_id: string;
  doctor_name: string;
  doctor_email: string | null;
  doctor_language: string;
  doctor_zone: string;
}

/**
 * Queues the e-mails of one change and publishes its live event, in the change's transaction.
 * `actorUserId` (who made the change) gets no e-mail about its own act.
 */
export async function noticeAppointmentChange(
  tx: TenantTransaction,
  database: Database,
  tenantId: string,
  appointmentId: string,
  change: AppointmentChange,
  actorUserId: string,
  at: Date,
): Promise<void> {
  const result = await tx.execute<NoticeRow>(sql`
    SELECT a.patient_id, patient.health_center_id, a.starts_at, a.place, a.reason, a.cancel_reason, a.status,
           ${fullName('patient')} AS patient_name, account.id AS patient_account,
           coalesce(nullif(account.phone, ''), nullif(patient.phone, '')) AS patient_phone, center.hotline,
           coalesce(nullif(account.email, ''), patient.email) AS patient_email,
           account.language AS patient_language, account.time_zone AS patient_zone,
           a.doctor_id, ${fullName('doctor')} AS doctor_name, doctor.email AS doctor_email,
           doctor.language AS doctor_language, doctor.time_zone AS doctor_zone
      FROM appointments a
      JOIN patients patient ON patient.tenant_id = a.tenant_id AND patient.id = a.patient_id
      LEFT JOIN users account ON account.tenant_id = patient.tenant_id
                             AND account.id = coalesce(patient.user_id, patient.holder_user_id)
      JOIN users doctor ON doctor.tenant_id = a.tenant_id AND doctor.id = a.doctor_id
      LEFT JOIN health_centers center ON center.tenant_id = patient.tenant_id AND center.id = patient.health_center_id
     WHERE a.id = ${appointmentId}::uuid`);
  const row = result.rows[0];
  if (row === undefined) return;
  await publishEvent(tx, tenantId, {
    type: 'appointment.changed',
    patientId: row.patient_id,
    healthCenterId: row.health_center_id,
    payload: { appointmentId, change, status: row.status },
  });
  const organization = (await findTenantById(database.system, tenantId))?.name ?? '';
  const recipients = [
    {
      userId: row.patient_account,
      email: row.patient_email,
      language: row.patient_language ?? 'vi',
      timeZone: row.patient_zone ?? row.doctor_zone,
      recipientName: row.patient_name,
    },
    // The doctor hears of bookings, moves and cancellations; it completed the appointment itself.
    ...(change === 'COMPLETED'
      ? []
      : [
          {
            userId: row.doctor_id,
            email: row.doctor_email,
            language: row.doctor_language,
            timeZone: row.doctor_zone,
            recipientName: row.doctor_name,
          },
        ]),
  ];
  const startsAt = new Date(row.starts_at);
  // In-app: each party but the actor, told who changed it (the other party's name).
  for (const recipient of recipients) {
    if (recipient.userId === actorUserId) continue;
    await notify(tx, tenantId, {
      recipients: [recipient.userId],
      kind: NOTICE_KINDS[change],
      params: {
        otherName: recipient.userId === row.doctor_id ? row.patient_name : row.doctor_name,
        startsAt: startsAt.toISOString(),
        appointmentId,
      },
      // The same path in the console (the doctor) and the app (the patient).
      link: `/appointments/${appointmentId}`,
      patientId: row.patient_id,
      senderId: actorUserId,
      at,
    });
  }
  const emailOff = await usersWithChannelOff(
    tx,
    recipients.flatMap((recipient) => (recipient.userId === null ? [] : [recipient.userId])),
    'APPOINTMENT',
    'EMAIL',
  );
  for (const recipient of recipients) {
    if (recipient.userId === actorUserId || recipient.email === null || recipient.email === '') continue;
    if (recipient.userId !== null && emailOff.has(recipient.userId)) continue;
    const message = renderAppointmentNotice({
      change,
      language: recipient.language,
      timeZone: recipient.timeZone,
      recipientName: recipient.recipientName,
      patientName: row.patient_name,
      doctorName: row.doctor_name,
      startsAt,
      place: row.place,
      reason: row.reason,
      cancelReason: row.cancel_reason,
      organization,
    });
    await enqueueMessage(tx, tenantId, {
      channel: 'EMAIL',
      recipient: recipient.email,
      subject: message.subject,
      body: message.body,
      purpose: `APPOINTMENT_${change}`,
    });
  }
  await textPatient(tx, database, tenantId, { row, change, actorUserId, startsAt, organization, at });
}

/**
 * The SMS of a change to the patient, where the tenant texts appointment changes (APPOINTMENT_SMS)
 * and the patient has not turned SMS off for appointments: the subject line and the tenant's
 * name, from the center's hotline, listed in SMS and call management.
 */
async function textPatient(
  tx: TenantTransaction,
  database: Database,
  tenantId: string,
  notice: { row: NoticeRow; change: AppointmentChange; actorUserId: string; startsAt: Date; organization: string; at: Date },
): Promise<void> {
  const { row } = notice;
  if (row.patient_phone === null || row.patient_account === notice.actorUserId) return;
  if ((await readTenantSettings(database.system, tenantId)).get('APPOINTMENT_SMS') !== 'true') return;
  if (row.patient_account !== null && (await usersWithChannelOff(tx, [row.patient_account], 'APPOINTMENT', 'SMS')).size > 0) return;
  const message = renderAppointmentNotice({
    change: notice.change,
    language: row.patient_language ?? 'vi',
    timeZone: row.patient_zone ?? row.doctor_zone,
    recipientName: row.patient_name,
    patientName: row.patient_name,
    doctorName: row.doctor_name,
    startsAt: notice.startsAt,
    place: row.place,
    reason: row.reason,
    cancelReason: row.cancel_reason,
    organization: notice.organization,
  });
  await sendPatientMessage(tx, { now: () => notice.at }, tenantId, {
    patient: { id: row.patient_id, hotline: row.hotline ?? '' },
    channel: 'SMS',
    recipient: row.patient_phone,
    toName: row.patient_name,
    body: notice.organization === '' ? message.subject : `${notice.organization}: ${message.subject}`,
    purpose: `APPOINTMENT_${notice.change}`,
  });
}
