import type { PatientStatusCounts } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import type { PatientEnvironment } from './service.js';
import * as store from './store.js';

function withTotal(counts: store.StatusCounts): PatientStatusCounts {
  return { ...counts, total: counts.NORMAL + counts.AT_RISK + counts.HIGH_RISK + counts.SOS };
}

/**
 * The dashboard counts (spec §7): live patients by status, always within what the caller's level
 * sees (withCaller). A center outside it counts as not found, like everywhere else.
 */
async function countFor(
  environment: PatientEnvironment,
  scope: { centerId?: string | undefined; doctorIds?: ReturnType<typeof sql> | undefined },
): Promise<PatientStatusCounts> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    if (scope.centerId !== undefined) {
      const visible = await tx.execute<{ id: string }>(
        sql`SELECT id FROM health_centers WHERE id = ${scope.centerId}::uuid`,
      );
      if (visible.rows.length === 0) throw new AppError('center.notFound');
    }
    return withTotal(await store.countByStatus(tx, scope));
  });
}

/** GET /account/doctor/getCountPatientStatus: the calling doctor's patients (their care teams). */
export function countForDoctor(environment: PatientEnvironment): Promise<PatientStatusCounts> {
  return countFor(environment, { doctorIds: sql`${environment.auth.userId}::uuid` });
}

/** GET /account/doctor-assistant/get-count-patient-status: patients of the assistant's doctors. */
export function countForAssistant(environment: PatientEnvironment): Promise<PatientStatusCounts> {
  return countFor(environment, { doctorIds: store.doctorsOfAssistant(environment.auth.userId) });
}

/** GET /account/operator/getCountPatientStatus and /smadmin/mhsc/getCountPatientStatus. */
export function countForCenter(
  environment: PatientEnvironment,
  centerId: string | undefined,
): Promise<PatientStatusCounts> {
  return countFor(environment, { centerId });
}
