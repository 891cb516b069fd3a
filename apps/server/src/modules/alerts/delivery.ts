import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { calls, patientContacts, patientMessages, type PatientContactRow } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { scheduleJob } from '../jobs/queue.js';
import { enqueueMessage, type MessageChannel } from '../messaging/outbox-store.js';
import type { AlertPatient } from './patient-context.js';

/** Task that places one queued voice call (after the deciding transaction committed). */
export const PLACE_CALL_TASK = 'alerts.placeCall';

interface Link {
  /** The patient the message or call is for (its id links it; its center's hotline is the sender). */
  patient: Pick<AlertPatient, 'id' | 'hotline'>;
  sosCaseId?: string | null;
  contact?: Pick<PatientContactRow, 'id'> | null;
}

/**
 * Queues an SMS or email in the outbox for a patient (or a follower or doctor on their behalf)
 * and links it to the patient, so SMS and call management lists it within the patient's centers.
 */
export async function sendPatientMessage(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  link: Link & {
    channel: MessageChannel;
    recipient: string;
    toName: string;
    subject?: string;
    body: string;
    purpose: string;
  },
): Promise<string> {
  const messageId = await enqueueMessage(tx, tenantId, {
    channel: link.channel,
    recipient: link.recipient,
    ...(link.subject === undefined ? {} : { subject: link.subject }),
    body: link.body,
    purpose: link.purpose,
  });
  await tx.insert(patientMessages).values({
    tenantId,
    messageId,
    patientId: link.patient.id,
    sosCaseId: link.sosCaseId ?? null,
    contactId: link.contact?.id ?? null,
    fromNumber: link.channel === 'SMS' ? link.patient.hotline : '',
    toName: link.toName,
    createdAt: clock.now(),
  });
  return messageId;
}

/** Queues a voice call: the row is PENDING until the placeCall job has had the provider make it. */
export async function queueCall(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  link: Link & { to: string; toName: string; purpose: string },
): Promise<string> {
  const id = uuidv7();
  await tx.insert(calls).values({
    tenantId,
    id,
    patientId: link.patient.id,
    sosCaseId: link.sosCaseId ?? null,
    contactId: link.contact?.id ?? null,
    fromNumber: link.patient.hotline,
    toNumber: link.to,
    toName: link.toName,
    purpose: link.purpose,
    createdAt: clock.now(),
  });
  await scheduleJob(tx, tenantId, PLACE_CALL_TASK, { callId: id }, { jobKey: `call:${id}`, maxAttempts: 5 });
  return id;
}

/** The patient's followers, emergency contacts first, favourites first within each kind. */
/**
 * A patient's followers that are not deleted, in the order they are shown and called: favourites
 * first (the favourite is called first), then emergency contacts, then by age.
 */
export async function listFollowers(tx: TenantTransaction, patientId: string): Promise<PatientContactRow[]> {
  return tx
    .select()
    .from(patientContacts)
    .where(and(eq(patientContacts.patientId, patientId), ne(patientContacts.invitationStatus, 'DELETED')))
    .orderBy(
      sql`CASE WHEN ${patientContacts.favourite} THEN 0 ELSE 1 END`,
      sql`CASE ${patientContacts.contactType} WHEN 'EMERGENCY' THEN 0 ELSE 1 END`,
      asc(patientContacts.createdAt),
    );
}
