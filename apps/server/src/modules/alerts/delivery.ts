import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database, TenantTransaction } from '../../db/database.js';
import { calls, patientContacts, patientMessages, type PatientContactRow } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { scheduleJob } from '../jobs/queue.js';
import { enqueueMessage, type MessageChannel } from '../messaging/outbox-store.js';
import { publishEvent } from '../realtime/publish.js';
import type { AlertPatient } from './patient-context.js';

/** Task that places one queued voice call (after the deciding transaction committed). */
export const PLACE_CALL_TASK = 'alerts.placeCall';

/** What a voice-call provider answers for a call it handled. */
export interface CallReceipt {
  providerCallId: string;
  status: 'COMPLETED' | 'NO_ANSWER';
  startedAt: Date;
  endedAt: Date;
}

/** A voice-call gateway. New gateways implement this; the local one only records. */
export interface CallProvider {
  /** Stored in calls.provider. */
  readonly name: string;
  call(request: { from: string; to: string; purpose: string }): Promise<CallReceipt>;
}

/**
 * The default provider: records the call as made without a telephone network, so every call the
 * product decides to place is visible in SMS and call management (development, demos, tests).
 */
export function createLocalCallProvider(clock: Clock): CallProvider {
  return {
    name: 'local-call',
    call: async () => {
      const now = clock.now();
      return { providerCallId: `local-call-${uuidv7()}`, status: 'COMPLETED', startedAt: now, endedAt: now };
    },
  };
}

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

/**
 * The placeCall job: asks the provider to make a queued call and records the outcome. Safe to run
 * again (a call already made is left alone); the provider is called outside any transaction.
 */
export async function placeQueuedCall(
  context: { tenantId: string; database: Database; clock: Clock },
  payload: { callId: string },
  provider: CallProvider,
): Promise<void> {
  const { tenantId, database } = context;
  const call = await database.withTenant(tenantId, async (tx) => {
    const [row] = await tx
      .update(calls)
      .set({ attempts: sql`${calls.attempts} + 1` })
      .where(and(eq(calls.id, payload.callId), eq(calls.status, 'PENDING')))
      .returning();
    return row;
  });
  if (call === undefined) return;
  let receipt: CallReceipt;
  try {
    receipt = await provider.call({ from: call.fromNumber, to: call.toNumber, purpose: call.purpose });
  } catch (error) {
    await database.withTenant(tenantId, async (tx) => {
      await tx
        .update(calls)
        .set({
          provider: provider.name,
          lastError: String(error).slice(0, 500),
          status: sql`CASE WHEN ${calls.attempts} >= 5 THEN 'FAILED' ELSE 'PENDING' END`,
        })
        .where(and(eq(calls.id, call.id), eq(calls.status, 'PENDING')));
    });
    throw error;
  }
  await database.withTenant(tenantId, async (tx) => {
    await tx
      .update(calls)
      .set({
        provider: provider.name,
        providerCallId: receipt.providerCallId,
        status: receipt.status,
        startedAt: receipt.startedAt,
        endedAt: receipt.endedAt,
        lastError: null,
      })
      .where(and(eq(calls.id, call.id), eq(calls.status, 'PENDING')));
    const [patient] = await tx
      .execute<{ health_center_id: string | null }>(
        sql`SELECT health_center_id FROM patients WHERE id = ${call.patientId}::uuid`,
      )
      .then((result) => result.rows);
    await publishEvent(tx, tenantId, {
      type: 'message.updated',
      patientId: call.patientId,
      healthCenterId: patient?.health_center_id ?? null,
      payload: { kind: 'CALL', id: call.id, status: receipt.status, sosCaseId: call.sosCaseId },
    });
  });
}
