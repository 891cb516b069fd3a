import { AppError } from '../../http/app-error.js';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import type { AlertEnvironment } from './environment.js';
import { findOwnPatientId, loadAlertPatient, type AlertPatient } from './patient-context.js';

/** What the patient app's self calls need: the database, the caller, the clock and the audit context. */
export type OwnPatientEnvironment = Omit<AlertEnvironment, 'kick'>;

/**
 * Runs `work` for the signed-in patient's own record, in the caller's view (a patient login sees
 * its own record only). A staff login has no patient record: health.noPatientProfile (404).
 */
export async function withOwnPatient<T>(
  environment: OwnPatientEnvironment,
  work: (tx: TenantTransaction, patient: AlertPatient) => Promise<T>,
  options: { lock?: boolean } = {},
): Promise<T> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patientId = await findOwnPatientId(tx, environment.auth.userId);
    const patient = patientId === undefined ? undefined : await loadAlertPatient(tx, patientId, options);
    if (patient === undefined) throw new AppError('health.noPatientProfile');
    return work(tx, patient);
  });
}
