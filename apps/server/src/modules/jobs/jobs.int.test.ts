import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestDatabase, databaseErrorOf, type TestDatabase } from '../../../test/database.js';
import { createTenant } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { cancelJob, scheduleJob } from './queue.js';
import { defineTask, forgetTask } from './registry.js';
import { runDueJobs, startJobRunner, type JobEnvironment } from './runner.js';

const SECOND = 1000;
let testDb: TestDatabase;
let environment: JobEnvironment & { ownerUrl: string };
const clock = new ManualClock(new Date('2026-03-01T08:00:00Z'));
let tenantId: string;
let otherTenantId: string;

interface Ran {
  tenantId: string;
  payload: Record<string, unknown>;
  attempt: number;
}
const ran: Ran[] = [];
let failuresLeft = 0;
const RECORD = defineTask<Record<string, unknown>>(
  'test.record',
  async ({ tenantId: tenant, payload, attempt }) => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      throw new Error('handler failed on purpose');
    }
    ran.push({ tenantId: tenant, payload, attempt });
  },
);

beforeAll(async () => {
  testDb = await createTestDatabase();
  environment = {
    database: testDb.database,
    clock,
    log: pino({ level: 'silent' }),
    ownerUrl: testDb.ownerUrl,
  };
  tenantId = (await createTenant(testDb.database)).id;
  otherTenantId = (await createTenant(testDb.database)).id;
});
afterAll(async () => {
  forgetTask(RECORD);
  await testDb.drop();
});

const storedJobs = () =>
  asOwner<{
    key: string | null;
    payload: { tenantId: string; payload: Record<string, unknown> };
    attempts: number;
    run_at: Date;
    last_error: string | null;
  }>(
    testDb.ownerUrl,
    `SELECT jobs.key, jobs.payload, jobs.attempts, jobs.run_at, jobs.last_error FROM graphile_worker._private_jobs AS jobs JOIN graphile_worker._private_tasks AS tasks ON tasks.id = jobs.task_id WHERE tasks.identifier = 'test.record' ORDER BY jobs.id`,
  );
const reset = async () => {
  ran.length = 0;
  failuresLeft = 0;
  await asOwner(testDb.ownerUrl, 'DELETE FROM graphile_worker._private_jobs');
};

describe('scheduling in the caller transaction', () => {
  it('runs a job scheduled in a committed transaction, with its tenant and payload', async () => {
    await reset();
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { patientId: 'p-1' }, { runAt: clock.now() }),
    );
    expect(await storedJobs()).toHaveLength(1);
    expect(await runDueJobs(environment)).toEqual({ ran: 1, failed: 0 });
    expect(ran).toEqual([{ tenantId, payload: { patientId: 'p-1' }, attempt: 1 }]);
    expect(await storedJobs()).toHaveLength(0);
  });

  it('never stores a job scheduled in a transaction that rolls back', async () => {
    await reset();
    await expect(
      testDb.database.withTenant(tenantId, async (tx) => {
        await scheduleJob(tx, tenantId, RECORD, { patientId: 'p-2' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await storedJobs()).toHaveLength(0);
    expect(await runDueJobs(environment)).toEqual({ ran: 0, failed: 0 });
    expect(ran).toHaveLength(0);
  });

  it('waits for runAt on the given clock', async () => {
    await reset();
    const runAt = new Date(clock.now().getTime() + 15 * SECOND);
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { step: 'timer' }, { runAt }),
    );
    expect(await runDueJobs(environment, { now: new Date(runAt.getTime() - 1) })).toEqual({
      ran: 0,
      failed: 0,
    });
    expect(await runDueJobs(environment, { now: runAt })).toEqual({ ran: 1, failed: 0 });
    expect(ran.map((entry) => entry.payload)).toEqual([{ step: 'timer' }]);
  });

  it('replaces the waiting job of the same key, and keys are per tenant', async () => {
    await reset();
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { version: 1 }, { jobKey: 'patient-1', runAt: clock.now() }),
    );
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { version: 2 }, { jobKey: 'patient-1', runAt: clock.now() }),
    );
    await testDb.database.withTenant(otherTenantId, (tx) =>
      scheduleJob(tx, otherTenantId, RECORD, { version: 9 }, { jobKey: 'patient-1', runAt: clock.now() }),
    );
    const jobs = await storedJobs();
    expect(jobs.map((job) => [job.key, job.payload])).toEqual([
      [`${tenantId}:patient-1`, { tenantId, payload: { version: 2 } }],
      [`${otherTenantId}:patient-1`, { tenantId: otherTenantId, payload: { version: 9 } }],
    ]);
    await runDueJobs(environment);
    expect(ran.map((entry) => [entry.tenantId, entry.payload])).toEqual([
      [tenantId, { version: 2 }],
      [otherTenantId, { version: 9 }],
    ]);
  });

  it("cancels a waiting job by key, never another tenant's", async () => {
    await reset();
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { who: 'a' }, { jobKey: 'timer' }),
    );
    await testDb.database.withTenant(otherTenantId, (tx) =>
      scheduleJob(tx, otherTenantId, RECORD, { who: 'b' }, { jobKey: 'timer' }),
    );
    await testDb.database.withTenant(otherTenantId, (tx) => cancelJob(tx, 'timer'));
    expect((await storedJobs()).map((job) => job.payload.tenantId)).toEqual([tenantId]);
    await testDb.database.withTenant(tenantId, (tx) => cancelJob(tx, 'timer'));
    expect(await storedJobs()).toHaveLength(0);
    expect(await runDueJobs(environment)).toEqual({ ran: 0, failed: 0 });
  });

  it('retries a failing job with backoff until it succeeds', async () => {
    await reset();
    failuresLeft = 2;
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { retry: true }, { maxAttempts: 5, runAt: clock.now() }),
    );
    expect(await runDueJobs(environment)).toEqual({ ran: 1, failed: 1 });
    const [afterFirst] = await storedJobs();
    expect(afterFirst?.attempts).toBe(1);
    expect(afterFirst?.last_error).toContain('handler failed on purpose');
    // e^1 s later: not yet due a moment before, due after.
    expect(await runDueJobs(environment, { now: new Date(clock.now().getTime() + 2 * SECOND) })).toEqual({
      ran: 0,
      failed: 0,
    });
    expect(await runDueJobs(environment, { now: new Date(clock.now().getTime() + 3 * SECOND) })).toEqual({
      ran: 1,
      failed: 1,
    });
    expect(await runDueJobs(environment, { now: new Date(clock.now().getTime() + 60 * SECOND) })).toEqual({
      ran: 1,
      failed: 0,
    });
    expect(ran).toEqual([{ tenantId, payload: { retry: true }, attempt: 3 }]);
    expect(await storedJobs()).toHaveLength(0);
  });

  it('refuses a job for another tenant than the transaction', async () => {
    await reset();
    const error = await databaseErrorOf(
      testDb.database.withTenant(tenantId, (tx) => scheduleJob(tx, otherTenantId, RECORD, {})),
    );
    expect(error.code).toBe('42501');
    expect(await storedJobs()).toHaveLength(0);
  });

  it('gives the app role no direct access to the queue tables', async () => {
    const error = await databaseErrorOf(
      testDb.database.withTenant(tenantId, (tx) =>
        tx.execute(sql`SELECT count(*) FROM graphile_worker._private_jobs`),
      ),
    );
    expect(error.code).toBe('42501');
  });
});

describe('the background runner', () => {
  const waitFor = async (condition: () => boolean, timeoutMilliseconds = 15_000) => {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMilliseconds) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('picks up a committed job at once (LISTEN)', async () => {
    await reset();
    const runner = await startJobRunner({ ...environment, pollIntervalMilliseconds: 60_000 });
    try {
      await testDb.database.withTenant(tenantId, (tx) => scheduleJob(tx, tenantId, RECORD, { live: true }));
      await waitFor(() => ran.length === 1);
      expect(ran[0]?.payload).toEqual({ live: true });
    } finally {
      await runner.stop();
    }
    expect(await storedJobs()).toHaveLength(0);
  });

  it('keeps a job across a restart of the runner: the next runner runs it', async () => {
    await reset();
    const first = await startJobRunner({ ...environment, pollIntervalMilliseconds: 200 });
    await testDb.database.withTenant(tenantId, (tx) =>
      scheduleJob(tx, tenantId, RECORD, { survives: true }, { runAt: new Date(Date.now() + 1500) }),
    );
    await first.stop();
    expect(ran).toHaveLength(0);
    expect(await storedJobs()).toHaveLength(1);
    const second = await startJobRunner({ ...environment, pollIntervalMilliseconds: 200 });
    try {
      await waitFor(() => ran.length === 1);
      expect(ran[0]?.payload).toEqual({ survives: true });
    } finally {
      await second.stop();
    }
  });
});
