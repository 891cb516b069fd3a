import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { feedback, feedbackReplies } from '../db/schema.js';
import type { DemoTenantData } from './demo.js';

const HOUR = 60 * 60 * 1000;

/**
 * The demo's feedback, so customer care's list is not empty: a new error report from the demo
 * patient, an idea from the demo doctor that customer care took up and answered, and an older
 * report already resolved. Images are left out (the seed writes no files).
 */
export async function seedDemoFeedback(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  const patient = data.patients.find((candidate) => candidate.userId !== null);
  const doctorId = data.staff.DOCTOR;
  const careId = data.staff.CSKH ?? data.staff.ADMIN ?? null;
  if (patient?.userId === undefined || patient.userId === null || doctorId === undefined) return;
  const now = Date.now();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  const items = [
    {
      senderId: patient.userId,
      senderKind: 'PATIENT',
      healthCenterId: patient.healthCenterId,
      type: 'ERROR',
      category: 'HARDWARE',
      description: 'The watch stops syncing my heart rate after the night. I have to restart it every morning.',
      suggestion: 'Maybe the app could tell me when the watch has not synced for a few hours.',
      status: 'NEW',
      hoursAgo: 5,
      reply: null,
    },
    {
      senderId: doctorId,
      senderKind: 'STAFF',
      healthCenterId: data.centers[0]?.id ?? null,
      type: 'IMPROVE',
      category: 'SOFTWARE',
      description: 'Please let me print a patient’s blood pressure chart for the monthly review.',
      suggestion: null,
      status: 'IN_PROGRESS',
      hoursAgo: 30,
      reply: 'Thank you, Doctor. Printing the charts is planned; we will tell you when it is ready.',
    },
    {
      senderId: patient.userId,
      senderKind: 'PATIENT',
      healthCenterId: patient.healthCenterId,
      type: 'ERROR',
      category: 'SERVICE',
      description: 'Nobody called me back after I asked about my appointment.',
      suggestion: null,
      status: 'RESOLVED',
      hoursAgo: 24 * 6,
      reply: 'We are sorry. The clinic called you on the same afternoon and moved your appointment to Friday.',
    },
  ] as const;
  for (const item of items) {
    const id = uuidv7();
    await tx.insert(feedback).values({
      tenantId: data.tenantId,
      id,
      senderId: item.senderId,
      senderKind: item.senderKind,
      healthCenterId: item.healthCenterId,
      type: item.type,
      category: item.category,
      description: item.description,
      suggestion: item.suggestion,
      status: item.status,
      createdAt: at(item.hoursAgo),
      updatedAt: at(item.reply === null ? item.hoursAgo : item.hoursAgo - 2),
    });
    if (item.reply !== null)
      await tx.insert(feedbackReplies).values({
        tenantId: data.tenantId,
        id: uuidv7(),
        feedbackId: id,
        authorId: careId,
        body: item.reply,
        createdAt: at(item.hoursAgo - 2),
      });
  }
}
