import { levelOf, osahsScreening, type Dashboard, type OsahsResult } from '@rpm/contracts';
import { AppError } from '../../http/app-error.js';
import { findSleep, rawPoints } from './fetch-store.js';
import { readLatest, readPatient } from './fetch-service.js';
import { withVitalsPatient, type VitalsEnvironment } from './patient-access.js';
import { isThresholdMetric } from './status-rules.js';
import { ageOn, patientThresholdsOf } from './thresholds-store.js';
import { canonicalOf, tenantUnits } from './units.js';
import { readVitals } from './vitals-database.js';

/**
 * The patient app's home: the calling patient's latest values (audited as a read), each with its
 * level against their own effective thresholds (values are judged in canonical units).
 */
export async function readDashboard(environment: VitalsEnvironment): Promise<Dashboard> {
  const latest = await readLatest(environment, undefined);
  const units = await tenantUnits(environment.database, environment.auth.tenantId);
  const { thresholds } = await withVitalsPatient(
    environment,
    { patientId: undefined, permission: 'health.view', lock: false, write: false },
    (tx, patient) =>
      patientThresholdsOf(tx, patient.tenantId, patient.id, ageOn(patient.birthday, environment.clock.now())),
  );
  return {
    ...latest,
    readings: latest.readings.map((reading) => ({
      ...reading,
      level: isThresholdMetric(reading.measure)
        ? levelOf(reading.measure, canonicalOf(reading.measure, reading.value, units), thresholds)
        : null,
    })),
  };
}

/**
 * The OSAHS screening of one of the calling patient's nights: the SpO2 readings inside the sleep
 * record's window, dips of ≥ 3 points from the rolling baseline per hour of total sleep. Audited.
 */
export function readOsahs(environment: VitalsEnvironment, recordId: string): Promise<OsahsResult> {
  return readPatient(environment, undefined, `osahs:${recordId}`, async (tx, patient) => {
    const night = await findSleep(tx, patient.tenantId, patient.id, recordId);
    if (night === undefined) throw new AppError('health.recordNotFound');
    const readings = await readVitals(environment.database, tx, patient, (vitals) =>
      rawPoints(vitals, patient.tenantId, patient.id, 'SPO2', night.startAt, night.endAt),
    );
    return osahsScreening(
      {
        id: night.id,
        startAt: night.startAt.toISOString(),
        endAt: night.endAt.toISOString(),
        totalMinutes: night.totalMinutes,
      },
      readings.map((reading) => ({ atMs: reading.atMs, value: reading.value })),
    );
  });
}
