import { evidenceFromRecord, type LevelEvidence, type PatientLifecycle, type ThresholdSet, type VitalStatus } from '@rpm/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { patientThresholds, tenantThresholds } from '../../db/schema.js';
import { MINUTE } from '../../lib/clock.js';
import { effectiveThresholdsOf, type ThresholdEntryRow } from './thresholds-store.js';

/**
 * What the status engine (status-engine.ts) decides from, read from the database: a patient's
 * lifecycle state (status, evidence, alert episode, open SOS case, the tenant's come-down window),
 * and for a readings batch the same with the patient's thresholds and latest-reading time in one
 * statement.
 */

const RANK: Record<VitalStatus, number> = { NORMAL: 0, AT_RISK: 1, HIGH_RISK: 2, SOS: 3 };
const asStatus = (value: string): VitalStatus => (value in RANK ? (value as VitalStatus) : 'NORMAL');

/** What the lifecycle rules need beyond the patient row the caller holds. */
interface LifecycleRow extends Record<string, unknown> {
  status: string;
  account_kind: string;
  health_center_id: string | null;
  birthday: string | null;
  suppressed: boolean;
  episode_level: string;
  evidence: Record<string, number>;
  open_case: boolean;
  settle_minutes: number;
}

/** A patient's lifecycle state and what the executor needs to apply a plan to it. */
export interface LoadedLifecycle {
  state: PatientLifecycle;
  accountKind: string;
  birthday: string | null;
  healthCenterId: string | null;
  windowMs: number;
}

const evidenceOf = (stored: Record<string, number>): LevelEvidence => evidenceFromRecord(stored);

/** The lifecycle columns of patient `p` (one list for every loader). */
const lifecycleColumns = (tenantId: string) => sql`
    p.status, p.account_kind, p.health_center_id, p.birthday::text AS birthday,
    p.alerts_suppressed_until_normal AS suppressed, p.alert_episode_level AS episode_level,
    p.level_evidence AS evidence,
    EXISTS (SELECT 1 FROM sos_cases c WHERE c.patient_id = p.id AND c.status <> 'CLOSED') AS open_case,
    coalesce((SELECT s.status_settle_minutes FROM alert_settings s WHERE s.tenant_id = ${tenantId}::uuid), 30)::int AS settle_minutes`;

const lifecycleOf = (row: LifecycleRow): LoadedLifecycle => ({
  state: {
    status: asStatus(row.status),
    evidence: evidenceOf(row.evidence),
    hasOpenCase: row.open_case,
    episode: { level: asStatus(row.episode_level), suppressed: row.suppressed },
  },
  accountKind: row.account_kind,
  birthday: row.birthday,
  healthCenterId: row.health_center_id,
  windowMs: row.settle_minutes * MINUTE,
});

/** The lifecycle state of a patient (optionally locking the row first), undefined when unseen. */
export async function loadLifecycle(
  tx: TenantTransaction,
  tenantId: string,
  patientId: string,
  lock: boolean,
): Promise<LoadedLifecycle | undefined> {
  if (lock) await tx.execute(sql`SELECT 1 FROM patients WHERE id = ${patientId}::uuid FOR UPDATE`);
  const result = await tx.execute<LifecycleRow>(
    sql`SELECT ${lifecycleColumns(tenantId)} FROM patients p WHERE p.id = ${patientId}::uuid`,
  );
  const row = result.rows[0];
  return row === undefined ? undefined : lifecycleOf(row);
}

/** What a batch's evaluation starts from: the patient's lifecycle and effective thresholds. */
export interface ReadingsState {
  lifecycle: LoadedLifecycle;
  thresholds: ThresholdSet;
}

/** The row readingsStateColumns reads. */
export type ReadingsStateRow = LifecycleRow & { tenant_entries: ThresholdEntryRow[]; patient_entries: ThresholdEntryRow[] };

/**
 * The select list of a readings batch's starting point, for patient `p`: the lifecycle state with
 * the tenant's and the patient's threshold rows (composed by readingsStateOf as
 * patientThresholdsOf composes them). Other statements read it alongside their own work (the
 * collector's batch claim).
 */
export function readingsStateColumns(tenantId: string): SQL {
  const entries = (table: typeof tenantThresholds | typeof patientThresholds, where: SQL) => sql`(
      SELECT coalesce(json_agg(json_build_object('metric', t.metric, 'level', t.level, 'lowerBound', t.lower_bound, 'upperBound', t.upper_bound)), '[]')
        FROM ${table} t WHERE ${where})`;
  return sql`${lifecycleColumns(tenantId)},
           ${entries(tenantThresholds, sql`t.tenant_id = ${tenantId}::uuid`)} AS tenant_entries,
           ${entries(patientThresholds, sql`t.tenant_id = ${tenantId}::uuid AND t.patient_id = p.id`)} AS patient_entries`;
}

/** A row of readingsStateColumns as the state the engine starts from. */
export function readingsStateOf(row: ReadingsStateRow, ageYears: number | null): ReadingsState {
  return {
    lifecycle: lifecycleOf(row),
    thresholds: effectiveThresholdsOf(ageYears, row.tenant_entries, row.patient_entries),
  };
}

/**
 * What a readings batch needs once its readings are stored, in one statement (the patient row is
 * locked by the ingest): moves the patient's latest reading time forward to `lastReadingAt` (null:
 * leaves it), and reads the lifecycle state with the tenant's and the patient's threshold rows
 * (readingsStateColumns). Undefined when the patient is not seen.
 */
export async function loadForReadings(
  tx: TenantTransaction,
  patient: { tenantId: string; id: string },
  ageYears: number | null,
  lastReadingAt: Date | null,
): Promise<ReadingsState | undefined> {
  const touched = lastReadingAt === null ? sql`SELECT 1 WHERE false` : touchLastReading(patient, lastReadingAt);
  const result = await tx.execute<ReadingsStateRow>(sql`
    WITH touched AS (${touched})
    SELECT ${readingsStateColumns(patient.tenantId)}
      FROM patients p
     WHERE p.tenant_id = ${patient.tenantId}::uuid AND p.id = ${patient.id}::uuid`);
  const row = result.rows[0];
  return row === undefined ? undefined : readingsStateOf(row, ageYears);
}

/** Moves the patient's latest reading time forward to `at` (an UPDATE, for a WITH clause). */
export function touchLastReading(patient: { tenantId: string; id: string }, at: Date): SQL {
  const instant = at.toISOString();
  return sql`UPDATE patients SET last_reading_at = ${instant}::timestamptz
       WHERE tenant_id = ${patient.tenantId}::uuid AND id = ${patient.id}::uuid
         AND (last_reading_at IS NULL OR last_reading_at < ${instant}::timestamptz)
      RETURNING 1`;
}
