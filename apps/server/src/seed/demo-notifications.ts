import { lt, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../db/database.js';
import { notifications } from '../db/schema.js';
import { seedPublishedAnnouncement } from '../modules/announcements/service.js';
import { notify } from '../modules/notifications/notify.js';
import type { DemoTenantData } from './demo.js';

const HOUR = 60 * 60 * 1000;

/**
 * The demo's inboxes: the demo patient was told of its prescription a week ago (read) and has an
 * unread message from the clinic; the demo doctor has a read note and an unread message. What the
 * demo does from then on (bookings, prescriptions, requests) adds real ones.
 */
export async function seedDemoNotifications(tx: TenantTransaction, data: DemoTenantData, doctorName: string): Promise<void> {
  const patient = data.patients.find((candidate) => candidate.userId !== null);
  const doctorId = data.staff.DOCTOR;
  const adminId = data.staff.MAIN_ADMIN ?? data.staff.ADMIN ?? null;
  if (patient?.userId === undefined || patient.userId === null || doctorId === undefined) return;
  const now = Date.now();
  await notify(tx, data.tenantId, {
    recipients: [patient.userId],
    kind: 'prescription.created',
    params: { prescriptionName: 'Blood pressure and blood sugar', doctorName },
    link: '/medicines',
    patientId: patient.id,
    senderId: doctorId,
    at: new Date(now - 7 * 24 * HOUR),
  });
  const messages = [
    {
      to: patient.userId,
      title: 'Flu vaccination week',
      body: 'Saigon Heart Center offers flu vaccination from Monday to Friday, 8:00 to 11:00. Bring your insurance card.',
      hoursAgo: 3,
    },
    { to: doctorId, title: 'Ward round moved', body: 'Thursday’s ward round starts at 9:30 this week.', hoursAgo: 26 },
    {
      to: doctorId,
      title: 'New blood pressure cuffs',
      body: 'The new cuffs are at the front desk. Patients measured with them from today.',
      hoursAgo: 2,
    },
  ];
  for (const message of messages) {
    await notify(tx, data.tenantId, {
      recipients: [message.to],
      kind: 'message',
      title: message.title,
      body: message.body,
      senderId: adminId,
      at: new Date(now - message.hoursAgo * HOUR),
    });
  }
  // An announcement of two days ago to every doctor and patient of the tenant (spec §1).
  await seedPublishedAnnouncement(
    tx,
    data.tenantId,
    {
      title: 'New opening hours from December',
      bodyHtml:
        '<p>From <strong>1 December</strong> our centers open earlier:</p><ul><li>Monday to Friday: 7:00 to 19:00</li><li>Saturday: 7:30 to 12:00</li></ul><p>Questions? Call the hotline or read the <a href="https://example.org/hours">details</a>.</p>',
      staffRoles: ['DOCTOR'],
      patients: true,
      authorId: adminId ?? doctorId,
      authorName: 'Demo Health',
    },
    new Date(now - 48 * HOUR),
  );
  // The prescription notice, the announcement and the older staff note were read when they came.
  await tx
    .update(notifications)
    .set({ readAt: sql`${notifications.createdAt} + interval '1 hour'` })
    .where(lt(notifications.createdAt, new Date(now - 24 * HOUR)));
}
