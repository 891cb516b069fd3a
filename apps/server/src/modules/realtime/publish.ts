import type { TenantTransaction } from '../../db/database.js';
import { events } from '../../db/schema.js';

/**
 * Live event types (dotted, lower camel): what the console and the patient app react to.
 * A feature adds its types here; clients ignore types they do not know.
 */
export type EventType =
  | 'patient.statusChanged'
  | 'alert.raised'
  | 'alert.updated'
  | 'sos.opened'
  | 'sos.updated'
  | 'ticket.created'
  | 'ticket.updated'
  | 'message.updated'
  | (`${string}.${string}` & {});

export interface EventInput {
  type: EventType;
  /** The patient the event is about, if any. */
  patientId?: string | null;
  /** The health center whose staff may see it; null for the whole tenant. */
  healthCenterId?: string | null;
  /** The one account the event is for (its sockets only; in the payload as recipientUserId too). */
  recipientUserId?: string | null;
  payload?: Record<string, unknown>;
}

/**
 * Records a live event in the caller's transaction (the outbox): it is delivered to connected
 * clients only if, and as soon as, the transaction commits. Returns the event's provisional id
 * (the final id is given at commit, migration 0015, so that ids follow commit order); 0 for an
 * event addressed to one account, which its writer may not read back (no RETURNING).
 */
export async function publishEvent(
  tx: TenantTransaction,
  tenantId: string,
  event: EventInput,
): Promise<number> {
  const values = rowOf(tenantId, event);
  if (values.recipientUserId !== null) {
    await tx.insert(events).values(values);
    return 0;
  }
  const [row] = await tx.insert(events).values(values).returning({ id: events.id });
  if (row === undefined) throw new Error('event not recorded');
  return row.id;
}

/** Records several live events in one statement (e.g. one per recipient of a notice). */
export async function publishEvents(tx: TenantTransaction, tenantId: string, inputs: readonly EventInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await tx.insert(events).values(inputs.map((event) => rowOf(tenantId, event)));
}

function rowOf(tenantId: string, event: EventInput) {
  return {
    tenantId,
    type: event.type,
    patientId: event.patientId ?? null,
    healthCenterId: event.healthCenterId ?? null,
    recipientUserId: event.recipientUserId ?? null,
    payload: { ...event.payload, ...(event.recipientUserId ? { recipientUserId: event.recipientUserId } : {}) },
  };
}
