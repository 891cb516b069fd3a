import { defaultThresholds, thresholdProblems, type ThresholdSet, type ThresholdsView } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { withVitalsPatient, type VitalsEnvironment } from './patient-access.js';
import {
  ageOn,
  differences,
  patientThresholdsOf,
  replacePatientThresholds,
  replaceTenantThresholds,
  tenantDefaults,
  type EffectiveThresholds,
} from './thresholds-store.js';

/**
 * Thresholds (spec §3, §6): per patient set by doctors (health.threshold), over the tenant's
 * defaults, over the spec's reference ranges. Stored as the levels that differ from the base, so
 * "custom" is exactly what someone changed; a reset removes them. Every change is audited.
 */

const viewOf = (effective: EffectiveThresholds): ThresholdsView => ({
  thresholds: effective.thresholds,
  custom: effective.custom,
  updatedAt: effective.updatedAt === null ? null : effective.updatedAt.toISOString(),
  updatedBy: effective.updatedBy,
});

function assertValid(thresholds: ThresholdSet) {
  const problems = thresholdProblems(thresholds);
  if (problems.length > 0) {
    throw new AppError('health.invalidThresholds', {
      fieldErrors: problems.map((path) => ({
        field: `body.thresholds.${path}`,
        code: 'invalid',
        message: 'health.invalidThresholds',
      })),
    });
  }
}

/**
 * A patient's effective thresholds: a PHI read (they follow the patient's age and care), audited.
 * Without a patient id, a patient session's own.
 */
export function readPatientThresholds(environment: VitalsEnvironment, patientId: string | undefined) {
  return withVitalsPatient(
    environment,
    { patientId, permission: 'health.view', lock: false, write: false },
    async (tx, patient) => {
      const view = viewOf(
        await patientThresholdsOf(
          tx,
          patient.tenantId,
          patient.id,
          ageOn(patient.birthday, environment.clock.now()),
        ),
      );
      await recordPatientReads(tx, patient.tenantId, environment.audit, {
        action: 'THRESHOLDS_VIEWED',
        patientIds: [patient.id],
        subjectUserId: patient.userId,
        targetId: patient.id,
        details: { custom: view.custom.length },
      });
      return view;
    },
  );
}

export function updatePatientThresholds(
  environment: VitalsEnvironment,
  patientId: string,
  wanted: ThresholdSet,
) {
  assertValid(wanted);
  return withVitalsPatient(
    environment,
    { patientId, permission: 'health.threshold', lock: true, write: true },
    async (tx, patient) => {
      const now = environment.clock.now();
      const age = ageOn(patient.birthday, now);
      const before = await patientThresholdsOf(tx, patient.tenantId, patient.id, age);
      const entries = differences(wanted, before.base);
      await replacePatientThresholds(tx, patient.tenantId, patient.id, entries, environment.auth.userId, now);
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'THRESHOLDS_UPDATED',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { before: before.custom, after: entries },
      });
      return viewOf(await patientThresholdsOf(tx, patient.tenantId, patient.id, age));
    },
  );
}

export function resetPatientThresholds(environment: VitalsEnvironment, patientId: string) {
  return withVitalsPatient(
    environment,
    { patientId, permission: 'health.threshold', lock: true, write: true },
    async (tx, patient) => {
      const now = environment.clock.now();
      const age = ageOn(patient.birthday, now);
      const before = await patientThresholdsOf(tx, patient.tenantId, patient.id, age);
      await replacePatientThresholds(tx, patient.tenantId, patient.id, [], environment.auth.userId, now);
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'THRESHOLDS_RESET',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { removed: before.custom },
      });
      return viewOf(await patientThresholdsOf(tx, patient.tenantId, patient.id, age));
    },
  );
}

/** The tenant's defaults as they apply to a patient of unknown age (heart-rate ceiling for 40 years). */
export function readTenantThresholds(environment: VitalsEnvironment) {
  return withCaller(environment.database, environment.auth, async (tx) =>
    viewOf(await tenantDefaults(tx, environment.auth.tenantId, null)),
  );
}

export function updateTenantThresholds(environment: VitalsEnvironment, wanted: ThresholdSet) {
  assertValid(wanted);
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    const before = await tenantDefaults(tx, auth.tenantId, null);
    const entries = differences(wanted, defaultThresholds(null));
    await replaceTenantThresholds(tx, auth.tenantId, entries, auth.userId, now);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'THRESHOLD_DEFAULTS_UPDATED',
      targetType: 'tenant',
      targetId: auth.tenantId,
      details: { before: before.custom, after: entries },
    });
    return viewOf(await tenantDefaults(tx, auth.tenantId, null));
  });
}

export function resetTenantThresholds(environment: VitalsEnvironment) {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const before = await tenantDefaults(tx, auth.tenantId, null);
    await replaceTenantThresholds(tx, auth.tenantId, [], auth.userId, environment.clock.now());
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'THRESHOLD_DEFAULTS_RESET',
      targetType: 'tenant',
      targetId: auth.tenantId,
      details: { removed: before.custom },
    });
    return viewOf(await tenantDefaults(tx, auth.tenantId, null));
  });
}
