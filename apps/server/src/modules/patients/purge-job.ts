import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { notifications, users } from '../../db/schema.js';
import { HOUR, type Clock } from '../../lib/clock.js';
import type { FileStorage } from '../../lib/file-storage.js';
import { JOB_AUDIT_CONTEXT, recordAudit } from '../audit/store.js';
import { activeCustomerTenantIds, lockPurgeDue, purgePatients } from './store.js';

/** Nobody acted: the audit rows of the job carry no actor. */

/**
 * One pass of the purge job (spec §4, §9: data deleted 30 days after account deletion): in every
 * active tenant, patients whose purge time has passed are removed with their history, files,
 * care-team links and avatar; their devices are unbound; their login (if any) is marked DELETED.
 * Each removal has a PATIENT_PURGED audit row in the same transaction. Stored files are removed
 * after the commit. One tenant's failure does not stop the others. Returns how many were purged.
 */
export async function purgeDeletedPatients(
  database: Database,
  clock: Clock,
  storage: FileStorage,
  logger?: FastifyBaseLogger,
): Promise<number> {
  const now = clock.now();
  let purged = 0;
  for (const tenantId of await activeCustomerTenantIds(database.system)) {
    try {
      const keys = await database.withTenant(tenantId, async (tx) => {
        const due = await lockPurgeDue(tx, now);
        if (due.length === 0) return [];
        const fileKeys = await purgePatients(
          database,
          tenantId,
          tx,
          due.map((row) => row.id),
        );
        const userIds = due.map((row) => row.userId).filter((id) => id !== null);
        if (userIds.length > 0) {
          await tx
            .update(users)
            .set({ status: 'DELETED', deletedAt: now, updatedAt: now })
            .where(inArray(users.id, userIds));
          // Their inbox goes too (notices about the record went with it, ON DELETE CASCADE).
          await tx.delete(notifications).where(inArray(notifications.recipientId, userIds));
        }
        for (const row of due) {
          await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
            action: 'PATIENT_PURGED',
            subjectUserId: row.userId,
            targetType: 'patient',
            targetId: row.id,
            details: {
              patientCode: row.patientCode,
              deletionRequestedAt: row.deletionRequestedAt?.toISOString() ?? null,
            },
            at: now,
          });
        }
        purged += due.length;
        return [...fileKeys, ...due.map((row) => row.avatarFile).filter((key) => key !== null)];
      });
      for (const key of keys) {
        await storage.remove(key).catch((error: unknown) => {
          logger?.warn({ err: error, key }, 'patients: could not remove a purged file');
        });
      }
    } catch (error) {
      logger?.error({ err: error, tenantId }, 'patients: purging deleted accounts failed for a tenant');
    }
  }
  return purged;
}

/** Runs purgeDeletedPatients every `intervalMilliseconds`, passes never overlapping. */
export class PurgeJob {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private isStopped = true;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly storage: FileStorage,
    private readonly logger: FastifyBaseLogger,
    private readonly intervalMilliseconds = HOUR,
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
      this.current = purgeDeletedPatients(this.database, this.clock, this.storage, this.logger)
        .then(
          () => undefined,
          (error: unknown) => {
            this.logger.error({ err: error }, 'patients: purge pass failed');
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
export function installPurgeJob(app: FastifyInstance, storage: FileStorage): void {
  const job = new PurgeJob(app.database, app.clock, storage, app.log);
  app.addHook('onReady', async () => {
    job.start();
  });
  app.addHook('onClose', async () => {
    await job.stop();
  });
}
