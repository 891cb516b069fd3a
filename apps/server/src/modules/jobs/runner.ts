import type { FastifyBaseLogger } from 'fastify';
import { parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import pg from 'pg';
import { z } from 'zod';
import { DEDICATED_CONNECTION_LIFETIME_SECONDS, type Queryable } from '../../db/connection-guard.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Gateways } from '../messaging/gateways/directory.js';
import { refusalOf, storedDedicatedPrimaries } from '../tenants/connections.js';
import { registeredPeriodicTasks, registeredTasks, type PaymentJobSettings } from './registry.js';
import { quietGraphileLogger } from './schema.js';
import './tasks.js';

/** What app_schedule_job stores (migration 0015): the tenant is the scheduling transaction's. */
const jobPayloadSchema = z.object({ tenantId: z.uuid(), payload: z.record(z.string(), z.unknown()) });
const cronPayloadSchema = z.object({ _cron: z.object({ ts: z.string() }) });

export interface JobEnvironment {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The tenants' SMS and voice gateways (the server's); absent: the local recorders. */
  gateways?: Gateways | undefined;
  /** For payment reconciliation; absent: providers are not asked. */
  payments?: PaymentJobSettings | undefined;
}

/** Runs one tenant job's handler; throws (so the job is retried) when the handler fails. */
async function runTenantJob(
  environment: JobEnvironment,
  task: string,
  rawPayload: unknown,
  jobId: string,
  attempt: number,
): Promise<void> {
  const handler = registeredTasks().get(task);
  if (handler === undefined) throw new Error(`task ${task} is not defined`);
  const { tenantId, payload } = jobPayloadSchema.parse(rawPayload);
  await handler({
    tenantId,
    payload,
    database: environment.database,
    clock: environment.clock,
    log: environment.log.child({ task, jobId, tenantId }),
    attempt,
    gateways: environment.gateways,
  });
}

async function runPeriodicJob(environment: JobEnvironment, task: string, rawPayload: unknown): Promise<void> {
  const periodic = registeredPeriodicTasks().get(task);
  if (periodic === undefined) throw new Error(`periodic task ${task} is not defined`);
  const parsed = cronPayloadSchema.safeParse(rawPayload);
  await periodic.handler({
    database: environment.database,
    clock: environment.clock,
    log: environment.log.child({ task }),
    firedAt: parsed.success ? new Date(parsed.data._cron.ts) : environment.clock.now(),
    payments: environment.payments,
  });
}

function taskListOf(environment: JobEnvironment): TaskList {
  const list: TaskList = {};
  for (const name of registeredTasks().keys()) {
    list[name] = (payload, helpers) =>
      runTenantJob(environment, name, payload, helpers.job.id, helpers.job.attempts);
  }
  for (const name of registeredPeriodicTasks().keys()) {
    list[name] = (payload) => runPeriodicJob(environment, name, payload);
  }
  return list;
}

export interface JobRunnerOptions extends JobEnvironment {
  /** Owner connection of the database whose queue this runner works (graphile_worker's tables). */
  ownerUrl: string;
  concurrency?: number;
  /** Fallback poll; new jobs are normally picked up at once through LISTEN. */
  pollIntervalMilliseconds?: number;
  /** Only one runner per database group runs the crontab (the platform database's). */
  withPeriodicTasks?: boolean;
  /**
   * Run on every new connection before graphile-worker uses it (a DEDICATED tenant's target
   * checks); the first connection is made and checked before the runner starts, so a refused
   * one means no runner. Connections returned to the pool are replaced after a few minutes and
   * the new ones checked again.
   */
  checkConnection?: (connection: Queryable) => Promise<void>;
}

export interface JobRunner {
  /** Stops taking jobs, waits for the running ones, releases the connections. */
  stop(): Promise<void>;
}

/**
 * Starts graphile-worker on one database: `concurrency` jobs at a time, woken by LISTEN on new
 * jobs and a poll as fallback. A job locked by a runner that died is taken again once its lock
 * expires (graphile-worker: 4 hours), or at once when the runner stopped cleanly.
 */
export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const concurrency = options.concurrency ?? 2;
  const { checkConnection } = options;
  const pool = new pg.Pool({
    connectionString: options.ownerUrl,
    max: concurrency + 2,
    application_name: 'rpm-jobs',
    ...(checkConnection === undefined
      ? {}
      : {
          maxLifetimeSeconds: DEDICATED_CONNECTION_LIFETIME_SECONDS,
          // pg-pool awaits this hook and, when it rejects, ends the connection and fails the
          // checkout; its type declarations still say void.
          // eslint-disable-next-line @typescript-eslint/no-misused-promises
          onConnect: (client: pg.ClientBase) => checkConnection(client),
        }),
  });
  const onError = (error: Error) => {
    options.log.warn({ err: error }, 'jobs: connection lost');
  };
  pool.on('error', onError);
  // graphile-worker checks that every client has an error handler (a lost connection must not crash).
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
  const periodic = options.withPeriodicTasks === true ? [...registeredPeriodicTasks().values()] : [];
  let runner: Runner;
  try {
    // Checked before graphile-worker does anything there (with checkConnection).
    if (checkConnection !== undefined) (await pool.connect()).release();
    runner = await run({
      pgPool: pool,
      taskList: taskListOf(options),
      parsedCronItems: parseCronItems(
        periodic.map((task) => ({
          task: task.name,
          match: task.schedule,
          options: { backfillPeriod: 0, maxAttempts: 3 },
        })),
      ),
      concurrency,
      noHandleSignals: true,
      pollInterval: options.pollIntervalMilliseconds ?? 2000,
      logger: quietGraphileLogger,
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    stop: async () => {
      await runner.stop();
      await pool.end();
    },
  };
}

/**
 * Starts the runners of the process: the platform database's (with the periodic tasks) and one per
 * DEDICATED tenant database (their jobs are stored where their data is), run as the tenant's stored
 * primary user and only when that connection passes the target checks (logged and skipped
 * otherwise). A DEDICATED tenant created while the process runs gets its runner at the next start;
 * its jobs wait until then.
 */
export async function startJobRunners(
  options: JobEnvironment & { ownerUrl: string; secretsKey: Buffer; concurrency?: number },
): Promise<JobRunner> {
  const runners: JobRunner[] = [await startJobRunner({ ...options, withPeriodicTasks: true })];
  for (const primary of await storedDedicatedPrimaries(options.database, options.secretsKey)) {
    const { tenantId } = primary;
    try {
      runners.push(
        await startJobRunner({
          ...options,
          ownerUrl: primary.url(),
          concurrency: 1,
          checkConnection: primary.check,
        }),
      );
    } catch (error) {
      // The reason only: an error of the connection may quote where it leads.
      options.log.error(
        { tenantId, ...refusalOf(error) },
        `jobs: no runner for dedicated tenant ${tenantId}: its database connection was refused or failed`,
      );
    }
  }
  return {
    stop: async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
    },
  };
}

interface DueJob {
  id: string;
  task: string;
  payload: unknown;
  attempts: number;
}

/**
 * Runs every job due at `now` (default: the environment's clock) once, without the background
 * runner, one at a time: for tests on a ManualClock and for tools. graphile-worker compares run_at
 * with the database clock; here it is compared with `now`, so a timer scheduled for "clock + 15 s"
 * runs exactly when the test has moved its clock past it. Failures are recorded as graphile-worker
 * does (attempts, last_error, exponential backoff from `now`: e^attempts seconds). Jobs of tasks not
 * registered in this process are left alone. Returns how many ran and how many failed.
 */
export async function runDueJobs(
  environment: JobEnvironment & { ownerUrl: string },
  options: { now?: Date } = {},
): Promise<{ ran: number; failed: number }> {
  const now = options.now ?? environment.clock.now();
  const known = [...registeredTasks().keys(), ...registeredPeriodicTasks().keys()];
  const worker = `due-${String(process.pid)}-${String(Date.now())}`;
  const client = new pg.Client({ connectionString: environment.ownerUrl });
  await client.connect();
  let ran = 0;
  let failed = 0;
  try {
    for (;;) {
      const taken = await client.query<DueJob>(
        `UPDATE graphile_worker._private_jobs AS jobs
            SET locked_at = now(), locked_by = $3, attempts = jobs.attempts + 1
           FROM graphile_worker._private_tasks AS tasks
          WHERE tasks.id = jobs.task_id
            AND jobs.id = (
              SELECT candidate.id FROM graphile_worker._private_jobs AS candidate
                JOIN graphile_worker._private_tasks AS candidate_task ON candidate_task.id = candidate.task_id
               WHERE candidate.is_available AND candidate.run_at <= $1 AND candidate_task.identifier = ANY($2::text[])
               ORDER BY candidate.priority, candidate.run_at, candidate.id
               LIMIT 1 FOR UPDATE OF candidate SKIP LOCKED)
          RETURNING jobs.id::text AS id, tasks.identifier AS task, jobs.payload, jobs.attempts`,
        [now, known, worker],
      );
      const job = taken.rows[0];
      if (job === undefined) break;
      ran += 1;
      try {
        if (registeredTasks().has(job.task))
          await runTenantJob(environment, job.task, job.payload, job.id, job.attempts);
        else await runPeriodicJob(environment, job.task, job.payload);
        await client.query('DELETE FROM graphile_worker._private_jobs WHERE id = $1 AND locked_by = $2', [
          job.id,
          worker,
        ]);
      } catch (error) {
        failed += 1;
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        await client.query(
          `UPDATE graphile_worker._private_jobs
              SET last_error = $3, run_at = $4::timestamptz + exp(least(attempts, 10)) * interval '1 second',
                  locked_at = NULL, locked_by = NULL, updated_at = now()
            WHERE id = $1 AND locked_by = $2`,
          [job.id, worker, message, now],
        );
      }
    }
  } finally {
    await client.end();
  }
  return { ran, failed };
}
