import type { FastifyInstance } from 'fastify';
import { runDueJobs } from '../src/modules/jobs/runner.js';
import type { TestDatabase } from './database.js';

/**
 * Runs the jobs due at `now` (default: the app's clock, a ManualClock in tests) without a
 * background runner: move the clock, then call this. Schedule with `runAt` computed from
 * app.clock; a job scheduled without runAt is due at the database's now().
 */
export function runDueJobsOf(app: FastifyInstance, testDb: TestDatabase, options: { now?: Date } = {}) {
  return runDueJobs(
    { database: app.database, clock: app.clock, log: app.log, ownerUrl: testDb.ownerUrl, gateways: app.gateways },
    options,
  );
}
