import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { JOB_AUDIT_CONTEXT, recordAudit } from '../audit/store.js';
import { activeTenantIds, reenableDue } from './store.js';

/** Nobody acted: the audit rows of the job carry no actor. */

/**
 * One pass of the re-enable job: in every active tenant (the platform tenant included), accounts
 * whose temporary disable has run out become ACTIVE again, each with a STAFF_ENABLED audit row in
 * the same transaction. Indefinite disables (no end) are never touched. One tenant's failure does
 * not stop the others. Returns how many accounts were turned back on.
 */
export async function reenableDueAccounts(database: Database, clock: Clock, logger?: FastifyBaseLogger): Promise<number> {
  const now = clock.now();
  let reenabled = 0;
  for (const tenantId of await activeTenantIds(database.system)) {
    try {
      reenabled += await database.withTenant(tenantId, async (tx) => {
        const due = await reenableDue(tx, now);
        for (const account of due) {
          await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
            action: 'STAFF_ENABLED',
            subjectUserId: account.id,
            targetType: 'user',
            targetId: account.id,
            details: { disabledUntil: account.disabledUntil?.toISOString() ?? null, trigger: 'expired' },
            at: now,
          });
        }
        return due.length;
      });
    } catch (error) {
      logger?.error({ err: error, tenantId }, 'staff: re-enabling expired disables failed for a tenant');
    }
  }
  return reenabled;
}

/**
 * Runs reenableDueAccounts every `intervalMilliseconds`. The next pass is scheduled only when the
 * previous one has finished, so passes never overlap; between processes, row locks keep each
 * account's re-enable (and its audit row) single.
 */
export class ReenableJob {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private isStopped = true;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
    private readonly intervalMilliseconds = MINUTE,
  ) {}

  start(): void {
    this.isStopped = false;
    this.scheduleNextPass();
  }

  /** Stops the loop and waits for the pass in flight (before the database pool closes). */
  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private scheduleNextPass(): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      this.current = reenableDueAccounts(this.database, this.clock, this.logger)
        .then(
          () => undefined,
          (error: unknown) => {
            this.logger.error({ err: error }, 'staff: re-enable pass failed');
          },
        )
        .finally(() => {
          this.current = undefined;
          this.scheduleNextPass();
        });
    }, this.intervalMilliseconds);
    // The loop alone must not keep the process alive (tests, one-shot CLI commands).
    this.timer.unref();
  }
}

/** Starts the job when the server is ready and stops it when the server closes. */
export function installReenableJob(app: FastifyInstance): void {
  const job = new ReenableJob(app.database, app.clock, app.log);
  app.addHook('onReady', async () => {
    job.start();
  });
  app.addHook('onClose', async () => {
    await job.stop();
  });
}
