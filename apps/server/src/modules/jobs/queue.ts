import { sql } from 'drizzle-orm';
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

/**
 * Schedules `task` for the tenant inside the caller's transaction (`graphile_worker.add_job`
 * through `app_schedule_job`, migration 0015). Job keys are per tenant. The task must be
 * registered with defineTask; the handler receives `payload` and the tenant id. `tenantId` must be
 * the transaction's tenant (the database refuses another).
 */
export async function scheduleJob(
  tx: TenantTransaction,
  tenantId: string,
  task: string,
  payload: Record<string, unknown>,
  options: ScheduleOptions = {},
): Promise<void> {
  await tx.execute(
    sql`SELECT app_schedule_job(${tenantId}::uuid, ${task}, ${JSON.stringify(payload)}::jsonb, ${options.runAt?.toISOString() ?? null}::timestamptz, ${options.jobKey ?? null}::text, ${options.maxAttempts ?? null}::integer)`,
  );
}

/** Cancels a waiting job by its key (e.g. the patient answered "I am fine"). */
export async function cancelJob(tx: TenantTransaction, jobKey: string): Promise<void> {
  await tx.execute(sql`SELECT app_cancel_job(${jobKey}::text)`);
}
