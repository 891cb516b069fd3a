import { and, eq, sql } from 'drizzle-orm';
import type { Database, TenantTransaction } from '../../db/database.js';
import { calls, sosCases, type CallRow } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { GatewayError } from '../messaging/gateways/gateway-error.js';
import type { CallProvider, CallReceipt } from '../messaging/providers.js';
import { publishEvent } from '../realtime/publish.js';
import { listFollowers, queueCall } from './delivery.js';
import { loadAlertPatient } from './patient-context.js';
import { renderAlertText } from './texts.js';

/**
 * A voice call's life: PENDING (queued) → PLACED (the gateway took it and rings) → ANSWERED →
 * COMPLETED, or NO_ANSWER, BUSY, FAILED. A gateway's status callbacks may arrive late, twice or
 * out of order: a status is recorded only when it moves the call forward, so a replayed or stale
 * callback changes nothing.
 *
 * SOS calls to followers form a chain (spec §4 "SOS: automatic call"): one follower at a time in
 * the order they are shown and called (favourite, emergency contacts, then the others), the next
 * one called when a call ends unanswered, until someone answers, the case is resolved or closed,
 * or nobody is left.
 */
export type CallStatus = 'PENDING' | 'PLACED' | 'ANSWERED' | 'COMPLETED' | 'NO_ANSWER' | 'BUSY' | 'FAILED';

const RANK: Record<CallStatus, number> = { PENDING: 0, PLACED: 1, ANSWERED: 2, COMPLETED: 3, NO_ANSWER: 3, BUSY: 3, FAILED: 3 };
const isFinal = (status: CallStatus) => RANK[status] === 3;
const wasAnswered = (status: string) => status === 'ANSWERED' || status === 'COMPLETED';
/** Placing a call is tried this many times (gateway down) before it is FAILED. */
export const CALL_ATTEMPTS = 5;

/** What the callee hears, in the patient's language. */
async function spokenTextOf(tx: TenantTransaction, call: CallRow): Promise<{ text: string; language: 'en' | 'vi' }> {
  const patient = await loadAlertPatient(tx, call.patientId);
  const language = patient?.language ?? 'en';
  const text = renderAlertText(language, call.purpose === 'SOS_FOLLOWER_CALL' ? 'SOS_CALL' : 'CALL', {
    name: patient?.fullName ?? '',
    hotline: call.fromNumber,
  });
  return { text, language };
}

/**
 * Moves a call to `status` if that is forward of where it stands, with what the gateway said; then
 * tells the consoles and, for an SOS follower call that ended unanswered, calls the next follower.
 * Answers whether anything changed.
 */
export async function recordCallStatus(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  callId: string,
  change: { status: CallStatus; provider?: string; providerCallId?: string; lastError?: string | null; at?: Date },
): Promise<boolean> {
  const [current] = await tx.select().from(calls).where(eq(calls.id, callId)).for('update');
  if (current === undefined) return false;
  const from = current.status as CallStatus;
  if (RANK[change.status] <= RANK[from] && !(from === 'PENDING' && change.status === 'PENDING')) return false;
  const at = change.at ?? clock.now();
  const [call] = await tx
    .update(calls)
    .set({
      status: change.status,
      ...(change.provider === undefined ? {} : { provider: change.provider }),
      ...(change.providerCallId === undefined ? {} : { providerCallId: change.providerCallId }),
      ...(change.lastError === undefined ? {} : { lastError: change.lastError }),
      ...(change.status === 'PLACED' && current.startedAt === null ? { startedAt: at } : {}),
      ...(change.status === 'ANSWERED' || (change.status === 'COMPLETED' && current.answeredAt === null) ? { answeredAt: at } : {}),
      ...(isFinal(change.status) ? { endedAt: at, startedAt: current.startedAt ?? at } : {}),
    })
    .where(eq(calls.id, callId))
    .returning();
  if (call === undefined || call.status === 'PENDING') return call !== undefined;
  const [patient] = await tx
    .execute<{ health_center_id: string | null }>(sql`SELECT health_center_id FROM patients WHERE id = ${call.patientId}::uuid`)
    .then((result) => result.rows);
  await publishEvent(tx, tenantId, {
    type: 'message.updated',
    patientId: call.patientId,
    healthCenterId: patient?.health_center_id ?? null,
    payload: { kind: 'CALL', id: call.id, status: call.status, sosCaseId: call.sosCaseId },
  });
  if (isFinal(change.status) && !wasAnswered(change.status)) await callNextFollower(tx, clock, tenantId, call);
  return true;
}

/** The SOS chain's next call after `ended` went unanswered, if the chain goes on. */
async function callNextFollower(tx: TenantTransaction, clock: Clock, tenantId: string, ended: CallRow): Promise<void> {
  if (ended.purpose !== 'SOS_FOLLOWER_CALL' || ended.sosCaseId === null) return;
  const [sosCase] = await tx.select({ status: sosCases.status }).from(sosCases).where(eq(sosCases.id, ended.sosCaseId));
  if (sosCase === undefined || sosCase.status === 'RESOLVED' || sosCase.status === 'CLOSED') return;
  const chain = await tx
    .select({ contactId: calls.contactId, status: calls.status })
    .from(calls)
    .where(and(eq(calls.sosCaseId, ended.sosCaseId), eq(calls.purpose, 'SOS_FOLLOWER_CALL')));
  // Someone answered, or a call of the chain is still ringing: nothing to do.
  if (chain.some((call) => wasAnswered(call.status) || call.status === 'PENDING' || call.status === 'PLACED')) return;
  const called = new Set(chain.map((call) => call.contactId));
  const next = (await listFollowers(tx, ended.patientId)).find((follower) => !called.has(follower.id));
  if (next === undefined) return;
  await queueCall(tx, clock, tenantId, {
    patient: { id: ended.patientId, hotline: ended.fromNumber },
    sosCaseId: ended.sosCaseId,
    contact: { id: next.id },
    to: next.phone,
    toName: next.name,
    purpose: 'SOS_FOLLOWER_CALL',
  });
}

/**
 * The placeCall job: asks the tenant's voice gateway to make a queued call and records what it
 * answered. Safe to run again (a call no longer PENDING is left alone); the gateway is called
 * outside any transaction. A gateway that is down is retried by the job (CALL_ATTEMPTS in all);
 * one that refuses the call (a wrong number) fails it at once, and the SOS chain moves on.
 */
export async function placeQueuedCall(
  context: { tenantId: string; database: Database; clock: Clock },
  payload: { callId: string },
  provider: CallProvider,
): Promise<void> {
  const { tenantId, database, clock } = context;
  const claimed = await database.withTenant(tenantId, async (tx) => {
    const [row] = await tx
      .update(calls)
      .set({ attempts: sql`${calls.attempts} + 1` })
      .where(and(eq(calls.id, payload.callId), eq(calls.status, 'PENDING')))
      .returning();
    return row === undefined ? undefined : { call: row, spoken: await spokenTextOf(tx, row) };
  });
  if (claimed === undefined) return;
  const { call, spoken } = claimed;
  let receipt: CallReceipt;
  try {
    receipt = await provider.call({ id: call.id, from: call.fromNumber, to: call.toNumber, purpose: call.purpose, ...spoken });
  } catch (error) {
    const isRefused = error instanceof GatewayError && !error.retryable;
    const isLast = isRefused || call.attempts >= CALL_ATTEMPTS;
    await database.withTenant(tenantId, (tx) =>
      recordCallStatus(tx, clock, tenantId, call.id, {
        status: isLast ? 'FAILED' : 'PENDING',
        provider: provider.name,
        lastError: String(error).slice(0, 500),
      }),
    );
    if (!isLast) throw error;
    return;
  }
  await database.withTenant(tenantId, async (tx) => {
    await recordCallStatus(tx, clock, tenantId, call.id, {
      status: receipt.status,
      provider: provider.name,
      providerCallId: receipt.providerCallId,
      lastError: null,
      ...(receipt.endedAt === null ? {} : { at: receipt.endedAt }),
    });
  });
}
