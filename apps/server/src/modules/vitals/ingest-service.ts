import {
  displayUnit,
  isLateReading,
  normalizedBatchText,
  type CollectorBatch,
  type CollectorResult,
  type HotlineCall,
  type ManualEntry,
  type VitalStatus,
} from '@rpm/contracts';
import { createHash } from 'node:crypto';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { auditInsertOf, recordAudit } from '../audit/store.js';
import { checkBatch, checkReading, type CheckedBatch } from './ingest-input.js';
import {
  claimBatch,
  insertHotlineCall,
  readingKey,
  insertRecords,
  type InsertedReading,
  markDeviceSynced,
  recordBatchAnswer,
} from './ingest-store.js';
import { withVitalsPatient, type VitalsEnvironment, type VitalsPatient } from './patient-access.js';
import {
  applyStatusDecision,
  decideStatus,
  evaluateReadings,
  loadForReadings,
  type DirectSos,
  type EvaluatedReading,
  readingsStateColumns,
  readingsStateOf,
  touchLastReading,
  type ReadingsState,
  type ReadingsStateRow,
} from './status-engine.js';
import { ageOn } from './thresholds-store.js';
import { ingestSettings, preferencesOf } from './units.js';
import { storeReadings } from './vitals-database.js';

/** The later of two instants (null: unknown). */
const laterOf = (first: Date | null, second: Date | null) =>
  first === null ? second : second === null || first >= second ? first : second;

/**
 * Evaluates what a batch added and writes the status, history, event and signal it implies; moves
 * the patient's latest reading time to `lastReadingAt` when that is later. The time, the lifecycle
 * state and the thresholds take one statement (loadForReadings). With `start` (the state read
 * already, with the collector's claim) the time moves with the status write if there is one;
 * otherwise it is answered as `unmovedReadingTime`, for the caller to move.
 */
async function evaluateAndApply(
  tx: TenantTransaction,
  environment: VitalsEnvironment,
  patient: VitalsPatient,
  added: readonly EvaluatedReading[],
  direct: readonly DirectSos[],
  lastReadingAt: Date | null,
  start?: ReadingsState,
): Promise<{ status: VitalStatus; unmovedReadingTime: Date | null }> {
  const now = environment.clock.now();
  const later =
    lastReadingAt !== null && (patient.lastReadingAt === null || lastReadingAt > patient.lastReadingAt)
      ? lastReadingAt
      : null;
  const hasWork = added.length > 0 || direct.length > 0;
  // With `start`, the time is the status write's to move, else the caller's; without, loadForReadings moves it.
  const callersTime = start === undefined ? null : later;
  const unchanged = { status: patient.status, unmovedReadingTime: callersTime };
  if (!hasWork && (later === null || start !== undefined)) return unchanged;
  const state = start ?? (await loadForReadings(tx, patient, ageOn(patient.birthday, now), later));
  // Only late readings (stored, never judged): the latest-reading time was all there was to move.
  if (state === undefined || !hasWork) return unchanged;
  const evaluation = evaluateReadings(added, state.thresholds);
  const decision = decideStatus(patient, evaluation, direct);
  const applied = await applyStatusDecision(tx, environment.clock, patient, decision, {
    evaluation,
    direct,
    changedBy: null,
    lifecycle: state.lifecycle,
    lastReadingAt: callersTime,
  });
  return { status: applied.status, unmovedReadingTime: applied.movedLastReading ? null : callersTime };
}

function countItems(checked: CheckedBatch, inserted: readonly InsertedReading[]) {
  // An item is accepted when at least one of its rows was new (a blood-pressure pair is one item).
  const validItems = new Set<number>();
  for (const row of checked.readings) validItems.add(row.item);
  // Every row stored (the usual batch): every item is accepted, without comparing keys.
  if (inserted.length === checked.readings.length) return { accepted: validItems.size, valid: validItems.size };
  const insertedKeys = new Set(inserted.map((row) => readingKey(row.measure, row.atMs, row.source)));
  const acceptedItems = new Set<number>();
  for (const row of checked.readings) {
    if (insertedKeys.has(readingKey(row.measure, row.measuredAt.getTime(), row.source)))
      acceptedItems.add(row.item);
  }
  return { accepted: acceptedItems.size, valid: validItems.size };
}

/**
 * POST /collector/readings: validates every item, stores the valid ones (readings in one statement,
 * records skipping what exists), keeps the device's sync state, evaluates the new readings and
 * events that are not late in the same transaction, and keeps the answer for a retry of the same
 * batch id with the same content (another content under that id: health.batchReused).
 */
export async function ingestBatch(
  environment: VitalsEnvironment,
  batch: CollectorBatch,
): Promise<CollectorResult> {
  const { units, lateHorizonMinutes } = await ingestSettings(environment.database, environment.auth);
  const now = environment.clock.now();
  const contentHash = createHash('sha256').update(normalizedBatchText(batch)).digest('hex');
  return withVitalsPatient(
    environment,
    { patientId: batch.patientId, permission: 'health.update', lock: true, write: true },
    async (tx, patient) => {
      // The claim reads what the evaluation starts from in the same statement: its state does not
      // depend on the readings, and the patient row is locked.
      const claim = await claimBatch(
        tx,
        { tenantId: patient.tenantId, batchId: batch.batchId, patientId: patient.id, contentHash },
        readingsStateColumns(patient.tenantId),
      );
      if (!claim.isNew) {
        if (claim.patientId !== patient.id || claim.response === null)
          throw new AppError('health.batchConflict');
        // Same id, other content: refused whole (the device re-sends under a new id).
        if (claim.contentHash !== null && claim.contentHash !== contentHash)
          throw new AppError('health.batchReused');
        return { ...claim.response, replayed: true };
      }
      const device =
        batch.deviceId === undefined
          ? null
          : await markDeviceSynced(tx, patient.tenantId, batch.deviceId, patient.id, now);
      const deviceId = device === null ? null : (batch.deviceId ?? null);
      const accountSince = patient.createdAt;
      const checked = checkBatch(batch, {
        now,
        deviceUnits: preferencesOf(units.device),
        enteredUnits: preferencesOf(units.entered),
        accountSince,
        deviceSince: laterOf(accountSince, device?.boundAt ?? null),
        lateHorizonMinutes,
      });
      const target = {
        tenantId: patient.tenantId,
        patientId: patient.id,
        deviceId,
        batchId: batch.batchId,
        receivedAt: now,
      };
      const inserted = await storeReadings(environment.database, tx, target, checked.readings);
      const records = await insertRecords(tx, target, checked);
      const { accepted: acceptedReadings, valid: validReadings } = countItems(checked, inserted);
      // Late readings and events are stored and shown, never judged (contracts isLateReading).
      const added = inserted
        .filter((row) => !row.late)
        .map((row) => ({ measure: row.measure, value: row.value, measuredAt: new Date(row.atMs) }));
      const currentEvents = records.events.filter(
        (event) => !isLateReading(event.occurredAt, now, lateHorizonMinutes),
      );
      const direct: DirectSos[] = currentEvents.map((event) => ({
        source: event.type === 'FALL' ? 'FALL' : 'SOS_BUTTON',
        at: event.occurredAt,
        location: event.lat !== null && event.lng !== null ? { lat: event.lat, lng: event.lng } : null,
      }));
      const lastAt = inserted.reduce<number | null>(
        (latest, row) => (latest === null || row.atMs > latest ? row.atMs : latest),
        null,
      );
      const { status, unmovedReadingTime } = await evaluateAndApply(
        tx,
        environment,
        patient,
        added,
        direct,
        lastAt === null ? null : new Date(lastAt),
        readingsStateOf(claim.also as ReadingsStateRow, ageOn(patient.birthday, now)),
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
        late: inserted.filter((row) => row.late).length,
        units,
      };
      await recordBatchAnswer(
        tx,
        patient.tenantId,
        batch.batchId,
        result,
        auditInsertOf(tx, patient.tenantId, environment.audit, {
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
        }),
        // The latest reading time moves with the answer unless the status write moved it.
        unmovedReadingTime === null ? null : touchLastReading(patient, unmovedReadingTime),
      );
      return result;
    },
  );
}

/**
 * POST /health/manual: one manual entry (spec §5) in the entering user's units, refused as a whole
 * with the item's code; a late entry is stored and not judged. The answer names the units used.
 */
export async function enterManually(environment: VitalsEnvironment, entry: ManualEntry) {
  const { units, lateHorizonMinutes } = await ingestSettings(environment.database, environment.auth);
  const now = environment.clock.now();
  const enteredUnits = preferencesOf(units.entered);
  return withVitalsPatient(
    environment,
    { patientId: entry.patientId, permission: 'health.update', lock: true, write: true },
    async (tx, patient) => {
      const accountSince = patient.createdAt;
      const checked = checkReading({ ...entry, source: 'MANUAL' }, 0, {
        now,
        deviceUnits: preferencesOf(units.device),
        enteredUnits,
        accountSince,
        deviceSince: accountSince,
        lateHorizonMinutes,
      });
      if (checked.problem !== null) {
        throw new AppError(checked.problem.code, {
          fieldErrors: [
            { field: `body.${checked.problem.field}`, code: checked.problem.code, message: checked.problem.code },
          ],
        });
      }
      const rows = checked.rows;
      const target = {
        tenantId: patient.tenantId,
        patientId: patient.id,
        deviceId: null,
        batchId: null,
        receivedAt: now,
      };
      const inserted = await storeReadings(environment.database, tx, target, rows);
      const added = inserted
        .filter((row) => !row.late)
        .map((row) => ({ measure: row.measure, value: row.value, measuredAt: new Date(row.atMs) }));
      const { status } = await evaluateAndApply(tx, environment, patient, added, [], rows[0]?.measuredAt ?? null);
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'HEALTH_MANUAL_ENTRY',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { measure: entry.measure, measuredAt: entry.measuredAt, stored: inserted.length > 0 },
      });
      return {
        patientId: patient.id,
        stored: inserted.length > 0,
        status,
        late: rows.some((row) => row.late),
        unit: entry.measure === 'BLOOD_PRESSURE' ? 'mmHg' : displayUnit(entry.measure, enteredUnits),
        units: units.entered,
      };
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
      const { status } = await evaluateAndApply(
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
