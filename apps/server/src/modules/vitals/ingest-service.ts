import type { CollectorBatch, CollectorResult, HotlineCall, ManualEntry, VitalStatus } from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { patients } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { checkBatch, checkReading, type CheckedBatch } from './ingest-input.js';
import {
  claimBatch,
  insertHotlineCall,
  insertReadings,
  insertRecords,
  markDeviceSynced,
  recordBatchAnswer,
} from './ingest-store.js';
import { withVitalsPatient, type VitalsEnvironment, type VitalsPatient } from './patient-access.js';
import {
  applyStatusDecision,
  decideStatus,
  evaluateReadings,
  type DirectSos,
  type EvaluatedReading,
} from './status-engine.js';
import { ageOn, patientThresholdsOf } from './thresholds-store.js';
import { tenantUnits } from './units.js';

/** Evaluates what a batch added and writes the status, history, event and signal it implies. */
async function evaluateAndApply(
  tx: TenantTransaction,
  environment: VitalsEnvironment,
  patient: VitalsPatient,
  added: readonly EvaluatedReading[],
  direct: readonly DirectSos[],
  lastReadingAt: Date | null,
): Promise<VitalStatus> {
  const now = environment.clock.now();
  if (lastReadingAt !== null && (patient.lastReadingAt === null || lastReadingAt > patient.lastReadingAt)) {
    await tx
      .update(patients)
      .set({
        lastReadingAt: sql`greatest(${patients.lastReadingAt}, ${lastReadingAt.toISOString()}::timestamptz)`,
      })
      .where(and(eq(patients.tenantId, patient.tenantId), eq(patients.id, patient.id)));
  }
  if (added.length === 0 && direct.length === 0) return patient.status;
  // Thresholds read once per patient per batch.
  const { thresholds } = await patientThresholdsOf(
    tx,
    patient.tenantId,
    patient.id,
    ageOn(patient.birthday, now),
  );
  const evaluation = evaluateReadings(added, thresholds);
  const decision = decideStatus(patient, evaluation, direct);
  return applyStatusDecision(tx, environment.clock, patient, decision, {
    evaluation,
    direct,
    changedBy: null,
  });
}

function countItems(checked: CheckedBatch, insertedKeys: ReadonlySet<string>) {
  // An item is accepted when at least one of its rows was new (a blood-pressure pair is one item).
  const acceptedItems = new Set<number>();
  const validItems = new Set<number>();
  for (const row of checked.readings) {
    validItems.add(row.item);
    if (insertedKeys.has(`${row.measure}|${row.measuredAt.getTime()}|${row.source}`))
      acceptedItems.add(row.item);
  }
  return { accepted: acceptedItems.size, valid: validItems.size };
}

/**
 * POST /collector/readings: validates every item, stores the valid ones (readings in one statement,
 * records skipping what exists), keeps the device's sync state, evaluates the new readings and
 * events in the same transaction, and keeps the answer for a retry of the same batch id.
 */
export async function ingestBatch(
  environment: VitalsEnvironment,
  batch: CollectorBatch,
): Promise<CollectorResult> {
  const units = await tenantUnits(environment.database, environment.auth.tenantId);
  const now = environment.clock.now();
  const checked = checkBatch(batch, units, now);
  return withVitalsPatient(
    environment,
    { patientId: batch.patientId, permission: 'health.update', lock: true, write: true },
    async (tx, patient) => {
      const claim = await claimBatch(tx, patient.tenantId, batch.batchId, patient.id);
      if (!claim.isNew) {
        if (claim.patientId !== patient.id || claim.response === null)
          throw new AppError('health.batchConflict');
        return { ...claim.response, replayed: true };
      }
      const deviceId =
        batch.deviceId !== undefined &&
        (await markDeviceSynced(tx, patient.tenantId, batch.deviceId, patient.id, now))
          ? batch.deviceId
          : null;
      const target = {
        tenantId: patient.tenantId,
        patientId: patient.id,
        deviceId,
        batchId: batch.batchId,
        receivedAt: now,
      };
      const inserted = await insertReadings(tx, target, checked.readings);
      const records = await insertRecords(tx, target, checked);
      const insertedKeys = new Set(inserted.map((row) => `${row.measure}|${row.atMs}|${row.source}`));
      const { accepted: acceptedReadings, valid: validReadings } = countItems(checked, insertedKeys);
      const added = inserted.map((row) => ({
        measure: row.measure,
        value: row.value,
        measuredAt: new Date(row.atMs),
      }));
      const direct: DirectSos[] = records.events.map((event) => ({
        source: event.type === 'FALL' ? 'FALL' : 'SOS_BUTTON',
        at: event.occurredAt,
        location: event.lat !== null && event.lng !== null ? { lat: event.lat, lng: event.lng } : null,
      }));
      const lastAt = inserted.reduce<number | null>(
        (latest, row) => (latest === null || row.atMs > latest ? row.atMs : latest),
        null,
      );
      const status = await evaluateAndApply(
        tx,
        environment,
        patient,
        added,
        direct,
        lastAt === null ? null : new Date(lastAt),
      );

      const accepted = acceptedReadings + records.ecg + records.sleep + records.sport + records.events.length;
      const valid =
        validReadings +
        checked.ecg.length +
        checked.sleep.length +
        checked.sport.length +
        checked.events.length;
      const result: CollectorResult = {
        batchId: batch.batchId,
        patientId: patient.id,
        accepted,
        duplicates: valid - accepted,
        rejected: checked.problems.length,
        problems: checked.problems,
        status,
        replayed: false,
      };
      await recordBatchAnswer(tx, patient.tenantId, batch.batchId, result);
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'HEALTH_DATA_RECEIVED',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: {
          batchId: batch.batchId,
          accepted,
          duplicates: result.duplicates,
          rejected: result.rejected,
        },
      });
      return result;
    },
  );
}

/** POST /health/manual: one manual entry (spec §5), refused as a whole with the item's code. */
export async function enterManually(environment: VitalsEnvironment, entry: ManualEntry) {
  const units = await tenantUnits(environment.database, environment.auth.tenantId);
  const now = environment.clock.now();
  const checked = checkReading({ ...entry, source: 'MANUAL' }, 0, units, now);
  if (checked.problem !== null) {
    throw new AppError(checked.problem.code, {
      fieldErrors: [
        { field: `body.${checked.problem.field}`, code: checked.problem.code, message: checked.problem.code },
      ],
    });
  }
  const rows = checked.rows;
  return withVitalsPatient(
    environment,
    { patientId: entry.patientId, permission: 'health.update', lock: true, write: true },
    async (tx, patient) => {
      const target = {
        tenantId: patient.tenantId,
        patientId: patient.id,
        deviceId: null,
        batchId: null,
        receivedAt: now,
      };
      const inserted = await insertReadings(tx, target, rows);
      const added = inserted.map((row) => ({
        measure: row.measure,
        value: row.value,
        measuredAt: new Date(row.atMs),
      }));
      const status = await evaluateAndApply(tx, environment, patient, added, [], rows[0]?.measuredAt ?? null);
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'HEALTH_MANUAL_ENTRY',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { measure: entry.measure, measuredAt: entry.measuredAt, stored: inserted.length > 0 },
      });
      return { patientId: patient.id, stored: inserted.length > 0, status };
    },
  );
}

/** POST /health/sos/hotline: a hotline call raises SOS directly (sub-users: HIGH_RISK). */
export async function recordHotlineCall(environment: VitalsEnvironment, call: HotlineCall) {
  const now = environment.clock.now();
  return withVitalsPatient(
    environment,
    { patientId: call.patientId, permission: 'health.view', lock: true, write: true },
    async (tx, patient) => {
      const location = call.location ?? null;
      await insertHotlineCall(tx, {
        tenantId: patient.tenantId,
        patientId: patient.id,
        at: now,
        note: call.note ?? '',
        lat: location?.lat ?? null,
        lng: location?.lng ?? null,
        createdBy: environment.auth.userId,
      });
      const status = await evaluateAndApply(
        tx,
        environment,
        patient,
        [],
        [{ source: 'HOTLINE_CALL', at: now, location }],
        null,
      );
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'SOS_HOTLINE_CALL',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { note: call.note ?? '' },
      });
      return { patientId: patient.id, status };
    },
  );
}
