import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { outboxMessages } from '../../db/schema.js';

export type OutboxRow = typeof outboxMessages.$inferSelect;
export type MessageChannel = 'EMAIL' | 'SMS' | 'PUSH';

export interface OutgoingMessage {
  channel: MessageChannel;
  /** An email address, a phone number, or (PUSH) a push subscription's id. */
  recipient: string;
  /** Email subject; SMS have none. */
  subject?: string;
  body: string;
  /** Why it is sent (e.g. OTP_LOGIN): for the console's message lists and for support. */
  purpose: string;
}

/**
 * Queues a message in the caller's transaction: it exists (and will be sent) exactly when the
 * change that decided to send it commits. A rolled-back request sends nothing.
 */
export async function enqueueMessage(tx: TenantTransaction, tenantId: string, message: OutgoingMessage): Promise<string> {
  const id = uuidv7();
  await tx.insert(outboxMessages).values({
    tenantId,
    id,
    channel: message.channel,
    recipient: message.recipient,
    subject: message.subject ?? '',
    body: message.body,
    purpose: message.purpose,
  });
  return id;
}

/**
 * Tenants with messages due now. The SECURITY DEFINER function returns tenant ids only, so the
 * dispatcher finds work everywhere without reading any tenant's rows outside withTenant.
 */
export async function findTenantsWithDueMessages(system: SystemStore): Promise<string[]> {
  // A DEDICATED tenant's outbox lives in its own database, out of this function's sight: those
  // tenants are always visited (their claim query, routed by withTenant, finds what is due).
  const result = await system.execute<{ tenant_id: string }>(sql`
    SELECT outbox_tenants_with_due_messages() AS tenant_id
    UNION
    SELECT id FROM tenants WHERE connection_type = 'DEDICATED' AND status = 'ACTIVE'`);
  return result.rows.map((row) => row.tenant_id);
}

/**
 * Takes up to `limit` due messages of the transaction's tenant. Rows another process holds are
 * skipped (SKIP LOCKED); the claimed ones get their attempt counted and a lease: they are not
 * due again until `leaseSeconds` pass, so the send itself happens outside any transaction and a
 * process that dies mid-send only delays the message.
 */
export async function claimDueMessages(tx: TenantTransaction, limit: number, leaseSeconds: number): Promise<OutboxRow[]> {
  const due = await tx
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.status, 'PENDING'), lte(outboxMessages.nextAttemptAt, sql`now()`)))
    .orderBy(asc(outboxMessages.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  return tx
    .update(outboxMessages)
    .set({
      attempts: sql`${outboxMessages.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .where(
      inArray(
        outboxMessages.id,
        due.map((row) => row.id),
      ),
    )
    .returning();
}

export async function markSent(tx: TenantTransaction, id: string, receipt: { provider: string; providerMessageId: string }): Promise<void> {
  await tx
    .update(outboxMessages)
    .set({
      status: 'SENT',
      provider: receipt.provider,
      providerMessageId: receipt.providerMessageId,
      sentAt: sql`now()`,
      lastError: null,
    })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'PENDING')));
}

/**
 * Records a failed attempt: the message is retried after backoffSeconds × 2^(attempts − 1), or
 * marked FAILED once it has used its attempts. Times are the database's, like the due check.
 */
export async function markAttemptFailed(
  tx: TenantTransaction,
  id: string,
  failure: { provider: string; error: string },
  rules: { maxAttempts: number; backoffSeconds: number },
): Promise<void> {
  await tx
    .update(outboxMessages)
    .set({
      provider: failure.provider,
      lastError: failure.error.slice(0, 500),
      status: sql`CASE WHEN ${outboxMessages.attempts} >= ${rules.maxAttempts} THEN 'FAILED' ELSE 'PENDING' END`,
      nextAttemptAt: sql`now() + make_interval(secs => ${rules.backoffSeconds} * power(2, ${outboxMessages.attempts} - 1))`,
    })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'PENDING')));
}

/**
 * A gateway's delivery receipt for an SMS it took: DELIVERED or UNDELIVERED, once. Found by the
 * outbox id the gateway echoes back, else by the gateway's own id; only a message that gateway
 * sent is changed, and a receipt replayed or arriving after another changes nothing. A receipt
 * that overtakes the send's own record (fast gateways) records the gateway's id too.
 */
export async function recordDeliveryReceipt(
  tx: TenantTransaction,
  receipt: {
    provider: string;
    messageId?: string | undefined;
    providerMessageId?: string | undefined;
    status: 'DELIVERED' | 'UNDELIVERED';
    error?: string | undefined;
  },
): Promise<{ id: string } | undefined> {
  const match =
    receipt.messageId !== undefined
      ? eq(outboxMessages.id, receipt.messageId)
      : receipt.providerMessageId !== undefined
        ? eq(outboxMessages.providerMessageId, receipt.providerMessageId)
        : undefined;
  if (match === undefined) return undefined;
  const [row] = await tx
    .update(outboxMessages)
    .set({
      status: receipt.status,
      provider: receipt.provider,
      deliveredAt: sql`now()`,
      sentAt: sql`coalesce(${outboxMessages.sentAt}, now())`,
      ...(receipt.providerMessageId === undefined ? {} : { providerMessageId: sql`coalesce(${outboxMessages.providerMessageId}, ${receipt.providerMessageId})` }),
      ...(receipt.error === undefined ? {} : { lastError: receipt.error.slice(0, 500) }),
    })
    .where(
      and(
        match,
        eq(outboxMessages.channel, 'SMS'),
        // SENT by this gateway, or being sent (claimed, attempted) and not yet recorded.
        sql`((${outboxMessages.status} = 'SENT' AND ${outboxMessages.provider} = ${receipt.provider}) OR (${outboxMessages.status} = 'PENDING' AND ${outboxMessages.attempts} > 0))`,
      ),
    )
    .returning({ id: outboxMessages.id });
  return row;
}
