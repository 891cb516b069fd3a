import type { PatientListScope, PatientStatusCounts } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { readAsCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import type { PatientEnvironment } from './service.js';
import * as store from './store.js';

function withTotal(counts: store.StatusCounts): PatientStatusCounts {
  return { ...counts, total: counts.NORMAL + counts.AT_RISK + counts.HIGH_RISK + counts.SOS };
}

/**
 * The dashboard counts (spec §7): live patients by status, always within what the caller's level
 * sees (readAsCaller), with the patient list's own conditions for the same scope and center, so the
 * counts equal the list's totals. `mine` is the caller's care team (a doctor's patients, an
 * assistant's doctors' patients). A center outside what the caller sees counts as not found.
 */
export function countPatients(
  environment: PatientEnvironment,
  filter: { scope: PatientListScope; centerId?: string | undefined },
): Promise<PatientStatusCounts> {
  // Counts may be a few seconds old: the tenant's replica may serve them.
  return readAsCaller(environment.database, environment.auth, async (tx) => {
    if (filter.centerId !== undefined) {
      const visible = await tx.execute<{ id: string }>(
        sql`SELECT id FROM health_centers WHERE id = ${filter.centerId}::uuid`,
      );
      if (visible.rows.length === 0) throw new AppError('center.notFound');
    }
    return withTotal(
      await store.countByStatus(tx, {
        ...filter,
        callerId: environment.auth.userId,
        visibility: environment.auth.visibility,
      }),
    );
  });
}
