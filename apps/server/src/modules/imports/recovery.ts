import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { JOB_AUDIT_CONTEXT, recordAudit } from '../audit/store.js';
import { activeTenantIds } from '../staff/store.js';
import type { ImportFiles } from './files.js';
import { failStaleJobs } from './store.js';

const SECOND_MILLISECONDS = 1000;
/** A running job writes its heartbeat at least every half second; after this long it is dead. */
export const STALE_AFTER_MILLISECONDS = 60 * SECOND_MILLISECONDS;
const RECOVERY_INTERVAL_MILLISECONDS = 15 * SECOND_MILLISECONDS;

/** Nobody acted: the audit rows of the recovery carry no actor. */

interface RecoveryLog {
  error(details: object, message: string): void;
}

/**
 * Ends (import.interrupted) every QUEUED or RUNNING job whose heartbeat has stopped: its process
 * crashed or was killed mid-import. PARTIAL when it had stored rows (they stay), else FAILED. Its
 * uploaded file is removed; the tenant can import again at once. Returns how many jobs were ended.
 */
export async function recoverStaleImports(
  database: Database,
  clock: Clock,
  files: ImportFiles,
  log?: RecoveryLog,
): Promise<number> {
  const now = clock.now();
  const staleBefore = new Date(now.getTime() - STALE_AFTER_MILLISECONDS);
  let recovered = 0;
  for (const tenantId of await activeTenantIds(database.system)) {
    try {
      const ended = await database.withTenant(tenantId, async (tx) => {
        const jobs = await failStaleJobs(tx, staleBefore, now, 'import.interrupted');
        for (const job of jobs) {
          await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
            action: 'IMPORT_FINISHED',
            targetType: 'import',
            targetId: job.id,
            details: {
              kind: job.kind,
              status: job.status,
              failureCode: 'import.interrupted',
              trigger: 'recovery',
              rowsStored: job.rowsStored,
            },
            at: now,
          });
        }
        return jobs;
      });
      for (const job of ended) await files.remove(files.uploadPath(tenantId, job.id));
      recovered += ended.length;
    } catch (error) {
      log?.error({ err: error, tenantId }, 'import: recovering interrupted jobs failed for a tenant');
    }
  }
  return recovered;
}

/**
 * Runs recoverStaleImports when the server is ready (a job this process left running before a
 * crash is ended on the next start, once its heartbeat is stale) and then periodically, without
 * overlapping passes. Several processes may run it: row locks keep each job's ending single.
 */
export class ImportRecoveryJob {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private isStopped = true;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly log: RecoveryLog,
    private readonly intervalMilliseconds = RECOVERY_INTERVAL_MILLISECONDS,
  ) {}

  start(): void {
    this.isStopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delay: number): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      this.current = this.pass()
        .then(
          () => undefined,
          (error: unknown) => {
            this.log.error({ err: error }, 'import: recovery pass failed');
          },
        )
        .finally(() => {
          this.current = undefined;
          this.schedule(this.intervalMilliseconds);
        });
    }, delay);
    this.timer.unref();
  }
}
