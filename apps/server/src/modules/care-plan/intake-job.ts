import { INTAKE_WINDOW } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { activeTenantIds } from '../staff/store.js';
import {
  expandIntakes,
  INTAKE_EXTEND_HOURS,
  INTAKE_HORIZON_HOURS,
  markUnconfirmed,
} from './intake-expansion.js';
import { intakeWindows } from './intake-window.js';

/**
 * One pass over every active tenant: medicines whose doses run out within INTAKE_HORIZON_HOURS get
 * them made to INTAKE_EXTEND_HOURS ahead from the live prescriptions' schedules, and doses left unanswered past their window become unconfirmed.
 * Idempotent (doses are unique per medicine and time), so overlapping or repeated runs are safe; a
 * tenant's failure is logged and does not stop the others.
 */
export async function runIntakePass(
  database: Database,
  clock: Clock,
  logger?: FastifyBaseLogger,
): Promise<{ made: number; unconfirmed: number }> {
  const now = clock.now();
  const onlyBelow = new Date(now.getTime() + INTAKE_HORIZON_HOURS * 3_600_000);
  const to = new Date(now.getTime() + INTAKE_EXTEND_HOURS * 3_600_000);
  const totals = { made: 0, unconfirmed: 0 };
  const tenantIds = await activeTenantIds(database.system);
  const windows = await intakeWindows(database.system, tenantIds);
  for (const tenantId of tenantIds) {
    try {
      const counts = await database.withTenant(tenantId, async (tx) => ({
        made: await expandIntakes(tx, tenantId, { from: now, to, onlyBelow }),
        unconfirmed: await markUnconfirmed(tx, now, windows.get(tenantId) ?? INTAKE_WINDOW.defaultMinutes),
      }));
      totals.made += counts.made;
      totals.unconfirmed += counts.unconfirmed;
    } catch (error) {
      logger?.error({ err: error, tenantId }, 'care plan: dose pass failed for a tenant');
    }
  }
  return totals;
}

/** Every 10 minutes: a dose turns unconfirmed within 10 minutes of its tenant's window. */
export const INTAKE_TASK = definePeriodicTask({
  name: 'carePlan.intakes',
  schedule: '*/10 * * * *',
  handler: async ({ database, clock, log }) => {
    await runIntakePass(database, clock, log);
  },
});
