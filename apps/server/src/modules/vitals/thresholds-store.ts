import {
  ALERT_LEVELS,
  defaultThresholds,
  THRESHOLD_METRICS,
  type AlertLevel,
  type ThresholdMetric,
  type ThresholdSet,
} from '@rpm/contracts';
import { and, eq } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { patientThresholds, tenantThresholds } from '../../db/schema.js';

interface ThresholdRow {
  metric: string;
  level: string;
  lowerBound: number | null;
  upperBound: number | null;
  updatedBy: string | null;
  updatedAt: Date;
}

/** Age in whole years on `now`, from a date-only birthday (null when unknown). */
export function ageOn(birthday: string | null, now: Date): number | null {
  if (birthday === null) return null;
  const [year, month, day] = birthday.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - year;
  if (now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day)) age -= 1;
  return age;
}

const copyOf = (set: ThresholdSet): ThresholdSet => structuredClone(set);

/** A stored threshold entry: a (metric, level) whose bounds differ from the base. */
export type ThresholdEntryRow = Pick<ThresholdRow, 'metric' | 'level' | 'lowerBound' | 'upperBound'>;

function overlay(base: ThresholdSet, rows: readonly ThresholdEntryRow[]): ThresholdSet {
  const result = copyOf(base);
  for (const row of rows) {
    result[row.metric as ThresholdMetric][row.level as AlertLevel] = {
      lower: row.lowerBound,
      upper: row.upperBound,
    };
  }
  return result;
}

export interface EffectiveThresholds {
  thresholds: ThresholdSet;
  /** What the rows overlay: the spec defaults (tenant level) or the tenant's set (patient level). */
  base: ThresholdSet;
  custom: string[];
  updatedAt: Date | null;
  updatedBy: string | null;
}

function describe(base: ThresholdSet, rows: readonly ThresholdRow[]): EffectiveThresholds {
  const latest = rows.reduce<ThresholdRow | null>(
    (found, row) => (found === null || row.updatedAt > found.updatedAt ? row : found),
    null,
  );
  return {
    thresholds: overlay(base, rows),
    base,
    custom: rows.map((row) => `${row.metric}.${row.level}`).sort(),
    updatedAt: latest?.updatedAt ?? null,
    updatedBy: latest?.updatedBy ?? null,
  };
}

/** The tenant's defaults: spec reference ranges for the age, overlaid with the tenant's rows. */
export async function tenantDefaults(
  tx: TenantTransaction,
  tenantId: string,
  ageYears: number | null,
): Promise<EffectiveThresholds> {
  const rows = await tx.select().from(tenantThresholds).where(eq(tenantThresholds.tenantId, tenantId));
  return describe(defaultThresholds(ageYears), rows);
}

/** A patient's effective thresholds: their own rows over the tenant's defaults. */
export async function patientThresholdsOf(
  tx: TenantTransaction,
  tenantId: string,
  patientId: string,
  ageYears: number | null,
): Promise<EffectiveThresholds> {
  const [tenantLevel, rows] = await Promise.all([
    tenantDefaults(tx, tenantId, ageYears),
    tx
      .select()
      .from(patientThresholds)
      .where(and(eq(patientThresholds.tenantId, tenantId), eq(patientThresholds.patientId, patientId))),
  ]);
  return describe(tenantLevel.thresholds, rows);
}

/**
 * A patient's effective thresholds from rows read elsewhere (one statement with other state, see
 * status-engine loadForReadings): the spec's ranges for the age, the tenant's rows over them, the
 * patient's over those — as patientThresholdsOf composes them.
 */
export function effectiveThresholdsOf(
  ageYears: number | null,
  tenantRows: readonly ThresholdEntryRow[],
  patientRows: readonly ThresholdEntryRow[],
): ThresholdSet {
  return overlay(overlay(defaultThresholds(ageYears), tenantRows), patientRows);
}

/** The (metric, level) entries of `wanted` that differ from `base`: what is stored as custom. */
export function differences(wanted: ThresholdSet, base: ThresholdSet) {
  const found: { metric: ThresholdMetric; level: AlertLevel; lower: number | null; upper: number | null }[] =
    [];
  for (const metric of THRESHOLD_METRICS) {
    for (const level of ALERT_LEVELS) {
      const bounds = wanted[metric][level];
      const original = base[metric][level];
      if (bounds.lower !== original.lower || bounds.upper !== original.upper)
        found.push({ metric, level, ...bounds });
    }
  }
  return found;
}

export async function replacePatientThresholds(
  tx: TenantTransaction,
  tenantId: string,
  patientId: string,
  entries: ReturnType<typeof differences>,
  updatedBy: string | null,
  now: Date,
) {
  await tx
    .delete(patientThresholds)
    .where(and(eq(patientThresholds.tenantId, tenantId), eq(patientThresholds.patientId, patientId)));
  if (entries.length === 0) return;
  await tx.insert(patientThresholds).values(
    entries.map((entry) => ({
      tenantId,
      patientId,
      metric: entry.metric,
      level: entry.level,
      lowerBound: entry.lower,
      upperBound: entry.upper,
      updatedBy,
      updatedAt: now,
    })),
  );
}

export async function replaceTenantThresholds(
  tx: TenantTransaction,
  tenantId: string,
  entries: ReturnType<typeof differences>,
  updatedBy: string | null,
  now: Date,
) {
  await tx.delete(tenantThresholds).where(eq(tenantThresholds.tenantId, tenantId));
  if (entries.length === 0) return;
  await tx.insert(tenantThresholds).values(
    entries.map((entry) => ({
      tenantId,
      metric: entry.metric,
      level: entry.level,
      lowerBound: entry.lower,
      upperBound: entry.upper,
      updatedBy,
      updatedAt: now,
    })),
  );
}
