import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Gateways } from '../messaging/gateways/directory.js';
import type { PaymentEndpoints } from '../payments/providers/provider.js';

/** What payment reconciliation needs: the key that opens the tenants' provider keys, and where providers live. */
export interface PaymentJobSettings {
  secretsKey: Buffer;
  endpoints: PaymentEndpoints;
}

/** What a task's handler works with. Data work goes through `database.withTenant(tenantId, …)`. */
export interface TaskContext<Payload> {
  tenantId: string;
  payload: Payload;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** The tenants' SMS and voice gateways (absent: the local recorders). */
  gateways?: Gateways | undefined;
}

export type TaskHandler<Payload> = (context: TaskContext<Payload>) => Promise<void>;

/** What a periodic task's handler works with: no tenant (it visits the tenants it needs). */
export interface PeriodicTaskContext {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The minute the schedule fired for. */
  firedAt: Date;
  /** Absent: no payment provider is asked anything (reconciliation only times orders out). */
  payments?: PaymentJobSettings | undefined;
}

export interface PeriodicTask {
  name: string;
  /** Crontab time fields (minute hour day month weekday), UTC: `*\/15 * * * *`. */
  schedule: string;
  handler: (context: PeriodicTaskContext) => Promise<void>;
}

const TASK_NAME_PATTERN = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/;
// A handler's payload type is its own business; the registry stores them side by side.
const tasks = new Map<string, TaskHandler<never>>();
const periodicTasks = new Map<string, PeriodicTask>();

/**
 * Registers the handler of a tenant task (dotted name, `alerts.highRiskTimeout`). Schedule it
 * with `scheduleJob(tx, tenantId, name, payload)`. A throwing handler is retried with exponential
 * backoff up to the job's maxAttempts, so handlers must be idempotent (a crash after the work
 * committed but before the job was marked done runs it again).
 */
export function defineTask<Payload extends Record<string, unknown>>(
  name: string,
  handler: TaskHandler<Payload>,
): string {
  if (!TASK_NAME_PATTERN.test(name)) throw new Error(`task name ${name} must be dotted lower camel case`);
  if (tasks.has(name) || periodicTasks.has(name)) throw new Error(`task ${name} is defined twice`);
  tasks.set(name, handler);
  return name;
}

/**
 * Registers a task that runs on a schedule (graphile-worker's crontab: one run per process group,
 * missed runs are not back-filled). Register before the runner starts (at module load).
 */
export function definePeriodicTask(task: PeriodicTask): string {
  if (!TASK_NAME_PATTERN.test(task.name))
    throw new Error(`task name ${task.name} must be dotted lower camel case`);
  if (tasks.has(task.name) || periodicTasks.has(task.name))
    throw new Error(`task ${task.name} is defined twice`);
  periodicTasks.set(task.name, task);
  return task.name;
}

export function registeredTasks(): ReadonlyMap<string, TaskHandler<Record<string, unknown>>> {
  return tasks as unknown as ReadonlyMap<string, TaskHandler<Record<string, unknown>>>;
}

export function registeredPeriodicTasks(): ReadonlyMap<string, PeriodicTask> {
  return periodicTasks;
}

/** Tests: forget a task they defined. */
export function forgetTask(name: string): void {
  tasks.delete(name);
  periodicTasks.delete(name);
}
