import { AppError } from '../../http/app-error.js';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { assertProfileWritable, resolveProfile, type ResolvedProfile } from '../followers/profile.js';
import type { AlertEnvironment } from './environment.js';
import { loadAlertPatient, type AlertPatient } from './patient-context.js';

/** What the patient app's self calls need: the database, the caller, the clock and the audit context. */
export type OwnPatientEnvironment = Omit<AlertEnvironment, 'kick' | 'secretsKey'>;

/**
 * Runs `work` for the record the signed-in patient's call is about, in the caller's view: its own
 * record, or the profile it chose (followers/profile.ts: a sub-user it holds, or a patient it
 * follows, for which a `write` is profile.readOnly). A staff login has no patient record:
 * health.noPatientProfile (404).
 */
export async function withOwnPatient<T>(
  environment: OwnPatientEnvironment,
  options: { lock?: boolean; write: boolean },
  work: (tx: TenantTransaction, patient: AlertPatient, profile: ResolvedProfile) => Promise<T>,
): Promise<T> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await resolveProfile(tx, environment.auth);
    if (profile === undefined) throw new AppError('health.noPatientProfile');
    if (options.write) assertProfileWritable(profile);
    const patient = await loadAlertPatient(tx, profile.patientId, options);
    // A deleted account's own record is no longer served here (as before profiles existed).
    if (!patient?.isActive) throw new AppError('health.noPatientProfile');
    return work(tx, patient, profile);
  });
}
