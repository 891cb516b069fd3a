import { pickLanguage, type SupportedLanguage } from '@rpm/i18n';
import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { fillText } from './message-text.js';
import { notify, usersWithChannelOff } from '../notifications/notify.js';
import type { ScheduleRow } from './store.js';

/**
 * The doctor is told of the admin's decision on its schedule (spec §4 doctor schedule states: "the
 * doctor notified"): approved, rejected with the reason, deletion approved or refused. An e-mail
 * in the doctor's language through the outbox (unless turned off) and an in-app notification, in the
 * decision's transaction.
 */

export const SCHEDULE_DECISIONS = ['approve', 'reject', 'approveDeletion', 'rejectDeletion'] as const;
export type ScheduleDecisionKind = (typeof SCHEDULE_DECISIONS)[number];

type Texts = Record<`subject_${ScheduleDecisionKind}` | `body_${ScheduleDecisionKind}` | 'hours' | 'reasonLine', string>;

const TEXTS: Record<SupportedLanguage, Texts> = {
  en: {
    subject_approve: 'Your working hours are approved',
    body_approve: 'Hello {name},\n\nYour working hours {hours} are approved: patients can now be booked into them.',
    subject_reject: 'Your working hours were not approved',
    body_reject: 'Hello {name},\n\nYour request for the working hours {hours} was rejected.',
    subject_approveDeletion: 'Your working hours are removed',
    body_approveDeletion: 'Hello {name},\n\nYour request to remove the working hours {hours} is approved: they are removed from your calendar.',
    subject_rejectDeletion: 'Your working hours stay in place',
    body_rejectDeletion: 'Hello {name},\n\nYour request to remove the working hours {hours} was refused: they stay in your calendar.',
    hours: '{from} to {to}, {start}–{end} ({zone})',
    reasonLine: '\n\nReason: {reason}',
  },
  vi: {
    subject_approve: 'Lịch làm việc của bạn đã được duyệt',
    body_approve: 'Xin chào {name},\n\nLịch làm việc {hours} của bạn đã được duyệt: bệnh nhân có thể đặt lịch hẹn vào khung giờ này.',
    subject_reject: 'Lịch làm việc của bạn không được duyệt',
    body_reject: 'Xin chào {name},\n\nYêu cầu lịch làm việc {hours} của bạn đã bị từ chối.',
    subject_approveDeletion: 'Lịch làm việc của bạn đã được xóa',
    body_approveDeletion: 'Xin chào {name},\n\nYêu cầu xóa lịch làm việc {hours} của bạn đã được duyệt: lịch đã được xóa khỏi lịch của bạn.',
    subject_rejectDeletion: 'Lịch làm việc của bạn được giữ nguyên',
    body_rejectDeletion: 'Xin chào {name},\n\nYêu cầu xóa lịch làm việc {hours} của bạn đã bị từ chối: lịch vẫn được giữ.',
    hours: '{from} đến {to}, {start}–{end} ({zone})',
    reasonLine: '\n\nLý do: {reason}',
  },
};

/** The catalogue, for the test that checks every language has every text. */
export const SCHEDULE_NOTICE_CATALOGUE = TEXTS;

const dayText = (day: string) => day.split('-').reverse().join('/');

export function renderScheduleNotice(options: {
  decision: ScheduleDecisionKind;
  language: string;
  doctorName: string;
  schedule: Pick<ScheduleRow, 'start_date' | 'end_date' | 'start_time' | 'end_time' | 'time_zone'>;
  reason: string | null;
}): { subject: string; body: string } {
  const texts = TEXTS[pickLanguage(options.language)];
  const hours = fillText(texts.hours, {
    from: dayText(options.schedule.start_date),
    to: dayText(options.schedule.end_date),
    start: options.schedule.start_time.slice(0, 5),
    end: options.schedule.end_time.slice(0, 5),
    zone: options.schedule.time_zone,
  });
  const values = { name: options.doctorName, hours, reason: options.reason ?? '' };
  return {
    subject: texts[`subject_${options.decision}`],
    body: fillText(texts[`body_${options.decision}`] + (options.reason === null ? '' : texts.reasonLine), values),
  };
}

const DECISION_KINDS = {
  approve: 'schedule.approved',
  reject: 'schedule.rejected',
  approveDeletion: 'schedule.deletionApproved',
  rejectDeletion: 'schedule.deletionRejected',
} as const satisfies Record<ScheduleDecisionKind, string>;

/** Writes the doctor's notification and queues the e-mail of an admin's decision to the schedule's doctor (none without an address). */
export async function noticeScheduleDecision(
  tx: TenantTransaction,
  tenantId: string,
  schedule: ScheduleRow,
  decision: ScheduleDecisionKind,
  reason: string | null,
  at: Date,
): Promise<void> {
  await notify(tx, tenantId, {
    recipients: [schedule.doctor_id],
    kind: DECISION_KINDS[decision],
    params: { startDate: schedule.start_date, endDate: schedule.end_date, reason },
    link: '/my-schedule',
    at,
  });
  if (schedule.doctor_email === null || schedule.doctor_email === '') return;
  if ((await usersWithChannelOff(tx, [schedule.doctor_id], 'SCHEDULE', 'EMAIL')).size > 0) return;
  const result = await tx.execute<{ language: string }>(
    sql`SELECT language FROM users WHERE id = ${schedule.doctor_id}::uuid`,
  );
  const message = renderScheduleNotice({
    decision,
    language: result.rows[0]?.language ?? 'vi',
    doctorName: schedule.doctor_name,
    schedule,
    reason,
  });
  await enqueueMessage(tx, tenantId, {
    channel: 'EMAIL',
    recipient: schedule.doctor_email,
    subject: message.subject,
    body: message.body,
    purpose: `SCHEDULE_${decision.toUpperCase()}`,
  });
}
