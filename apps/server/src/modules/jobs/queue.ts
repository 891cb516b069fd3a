import type { TenantTransaction } from '../../db/database.js';

/**
 * Durable jobs (timers that must survive a crash: the high-risk confirmation window, SOS
 * escalation, KPI deadlines, partition maintenance, purges). The contract every feature uses;
 * the implementation runs on graphile-worker (PostgreSQL queue) in the server process.
 *
 * A job scheduled inside a transaction exists only if that transaction commits, so a timer is
 * never lost nor fired for a change that was rolled back.
 */
export interface ScheduleOptions {
  /** When the job may run; default now. Compared with the database clock. */
  runAt?: Date;
  /** A job with the same key replaces the waiting one (e.g. one timer per patient). */
  jobKey?: string;
  maxAttempts?: number;
}

/** Schedules `task` for the tenant inside the caller's transaction. */
export async function scheduleJob(
  _tx: TenantTransaction,
  _tenantId: string,
  _task: string,
  _payload: Record<string, unknown>,
  _options: ScheduleOptions = {},
): Promise<void> {
  throw new Error('job queue not implemented yet');
}

/** Cancels a waiting job by its key (e.g. the patient answered "I am fine"). */
export async function cancelJob(_tx: TenantTransaction, _jobKey: string): Promise<void> {
  throw new Error('job queue not implemented yet');
}
