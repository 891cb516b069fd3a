import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { claimDueMessages, findTenantsWithDueMessages, markAttemptFailed, markSent, type OutboxRow } from './outbox-store.js';
import { eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema.js';
import { PushGone, type PushSender } from '../notifications/push.js';
import { GatewayError } from './gateways/gateway-error.js';
import type { DeliveryReceipt, EmailSender, SmsProvider } from './providers.js';

/**
 * Delivery rules. Backoff doubles from 10 s (10, 20, 40, 80 s): a one-time code is worth
 * retrying for about its 5-minute life, not longer.
 */
export const DELIVERY_RULES = {
  maxAttempts: 5,
  backoffSeconds: 10,
  /** Longer than the SMTP timeouts, so a message is never sent twice by two live processes. */
  leaseSeconds: 90,
  batchSize: 20,
} as const;

export interface MessageProviders {
  email: EmailSender;
  /** The tenant's SMS gateway (gateways/directory.ts), else the server's default. */
  smsFor: (tenantId: string) => Promise<SmsProvider>;
  push: PushSender;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Delivers outbox messages after their transaction commits. Passes never overlap: a kick during
 * a pass queues exactly one more pass. A poll loop catches what kicks miss (messages written by
 * another process, retries that come due, a kick lost to a crash).
 */
export class OutboxDispatcher {
  private current: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private isStopped = false;

  constructor(
    private readonly database: Database,
    private readonly providers: MessageProviders,
    private readonly logger: FastifyBaseLogger,
    private readonly pollMilliseconds: number,
  ) {}

  /** Starts the poll loop. */
  start(): void {
    this.isStopped = false;
    this.scheduleNextPoll();
  }

  /** Asks for a pass soon, without waiting for it (after a request that queued messages commits). */
  kick(): void {
    void this.drain();
  }

  /**
   * Resolves once every message due at the time of the call has had its attempt. Never rejects:
   * delivery problems are recorded on the messages and logged, not thrown at callers.
   */
  drain(): Promise<void> {
    if (this.isStopped) return Promise.resolve();
    if (this.current === undefined) {
      this.current = this.runPass().finally(() => {
        this.current = undefined;
      });
      return this.current;
    }
    // A pass is running and may have missed what was just queued: one more pass after it.
    this.queued ??= this.current.then(() => {
      this.queued = undefined;
      return this.drain();
    });
    return this.queued;
  }

  /** Stops the loop and waits for the pass in flight (before the database pool closes). */
  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.queued;
    await this.current;
  }

  private scheduleNextPoll(): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      void this.drain().finally(() => {
        this.scheduleNextPoll();
      });
    }, this.pollMilliseconds);
    // The loop alone must not keep the process alive (tests, one-shot CLI commands).
    this.timer.unref();
  }

  private async runPass(): Promise<void> {
    let tenantIds: string[];
    try {
      tenantIds = await findTenantsWithDueMessages(this.database.system);
    } catch (error) {
      this.logger.error({ err: error }, 'outbox: cannot look for due messages');
      return;
    }
    for (const tenantId of tenantIds) {
      if (this.isStopped) return;
      try {
        await this.deliverTenant(tenantId);
      } catch (error) {
        // One tenant's trouble (or a database hiccup) must not stop the others' messages.
        this.logger.error({ err: error, tenantId }, 'outbox: delivery pass failed for a tenant');
      }
    }
  }

  private async deliverTenant(tenantId: string): Promise<void> {
    for (;;) {
      const claimed = await this.database.withTenant(tenantId, (tx) =>
        claimDueMessages(tx, DELIVERY_RULES.batchSize, DELIVERY_RULES.leaseSeconds),
      );
      await Promise.all(claimed.map((message) => this.deliver(message)));
      if (claimed.length < DELIVERY_RULES.batchSize || this.isStopped) return;
    }
  }

  private async deliver(message: OutboxRow): Promise<void> {
    let providerName: string = message.channel === 'EMAIL' ? this.providers.email.name : message.channel === 'PUSH' ? this.providers.push.name : 'sms';
    let providerMessageId: string;
    try {
      let receipt: DeliveryReceipt;
      if (message.channel === 'EMAIL') {
        receipt = await this.providers.email.send({ to: message.recipient, subject: message.subject, text: message.body });
      } else if (message.channel === 'PUSH') {
        receipt = await this.push(message);
      } else {
        const sms = await this.providers.smsFor(message.tenantId);
        providerName = sms.name;
        receipt = await sms.send({ id: message.id, to: message.recipient, text: message.body });
      }
      providerMessageId = receipt.providerMessageId;
    } catch (error) {
      this.logger.warn(
        { err: error, tenantId: message.tenantId, messageId: message.id, attempts: message.attempts },
        'outbox: delivery attempt failed',
      );
      // A push subscription that is gone will not come back: no retries, and it is forgotten.
      const isGone = error instanceof PushGone;
      // A gateway that refused the request itself (a wrong number, bad credentials) would refuse it again.
      const isFinal = isGone || (error instanceof GatewayError && !error.retryable);
      await this.database
        .withTenant(message.tenantId, async (tx) => {
          if (isGone) await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, message.recipient));
          await markAttemptFailed(tx, message.id, { provider: providerName, error: describeError(error) }, isFinal ? { ...DELIVERY_RULES, maxAttempts: 0 } : DELIVERY_RULES);
        })
        .catch((markError: unknown) => {
          // The lease still expires, so the message is retried even if this write was lost.
          this.logger.error({ err: markError, messageId: message.id }, 'outbox: cannot record a failed attempt');
        });
      return;
    }
    await this.database
      .withTenant(message.tenantId, (tx) => markSent(tx, message.id, { provider: providerName, providerMessageId }))
      .catch((markError: unknown) => {
        // Sent but not recorded: after the lease it may be sent again (at-least-once delivery).
        this.logger.error({ err: markError, messageId: message.id }, 'outbox: sent but cannot record it');
      });
  }

  /** A PUSH message's recipient is a subscription id: sent to it if it still exists. */
  private async push(message: OutboxRow): Promise<DeliveryReceipt> {
    const [subscription] = await this.database.withTenant(message.tenantId, (tx) =>
      tx.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, message.recipient)),
    );
    if (subscription === undefined) throw new PushGone(404);
    const receipt = await this.providers.push.send(subscription, message.body);
    await this.database.withTenant(message.tenantId, (tx) =>
      tx.update(pushSubscriptions).set({ lastSentAt: new Date() }).where(eq(pushSubscriptions.id, message.recipient)),
    );
    return receipt;
  }
}
