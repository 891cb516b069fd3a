import { and, count, desc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TenantTransaction } from '../../db/database.js';
import { ecgRecords, sleepRecords, sportRecords } from '../../db/schema.js';

export interface StoredPoint {
  atMs: number;
  value: number;
  min: number;
  max: number;
  count: number;
  source: string | null;
  /** Raw readings: arrived after the late-data horizon; rollups: null. */
  late: boolean | null;
}

/**
 * Raw readings of one measure in [from, to), oldest first (a day view: at most a few thousand),
 * hot rows and compacted day blocks alike (patient_readings, migration 0058).
 */
export async function rawPoints(
  tx: TenantTransaction,
  tenantId: string,
  patientId: string,
  measure: string,
  from: Date,
  to: Date,
) {
  const result = await tx.execute<{ at_ms: number; value: number; source: string; late: boolean }>(sql`
    SELECT extract(epoch FROM measured_at)::float8 * 1000 AS at_ms, value, source, late
      FROM patient_readings(${tenantId}::uuid, ${patientId}::uuid, ${measure}, ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)
     ORDER BY measured_at, source
     LIMIT 10000`);
  return result.rows.map((row): StoredPoint => ({
    atMs: Math.round(row.at_ms),
    value: row.value,
    min: row.value,
    max: row.value,
    count: 1,
    source: row.source,
    late: row.late,
  }));
}

/** The time zone the patient's rollups and views use (their account's, else UTC; migration 0027). */
export async function patientTimeZone(tx: TenantTransaction, patientId: string): Promise<string> {
  const result = await tx.execute<{ zone: string }>(sql`SELECT patient_time_zone(${patientId}::uuid) AS zone`);
  return result.rows[0]?.zone ?? 'UTC';
}

/**
 * The local calendar period of `unit` holding the local date `date` in `zone`: [its first local
 * midnight, the next period's first local midnight), as instants. Weeks start on Monday (ISO).
 * A day with a DST change is 23 or 25 hours long.
 */
export async function localPeriod(
  tx: TenantTransaction,
  zone: string,
  unit: 'day' | 'week' | 'month' | 'year',
  date: string,
): Promise<{ from: Date; to: Date }> {
  const start = sql`date_trunc(${unit}, ${date}::date::timestamp)`;
  const result = await tx.execute<{ from_ms: number; to_ms: number }>(sql`
    SELECT extract(epoch FROM (${start}) AT TIME ZONE ${zone})::float8 * 1000 AS from_ms,
           extract(epoch FROM (${start} + ('1 ' || ${unit})::interval) AT TIME ZONE ${zone})::float8 * 1000 AS to_ms`);
  const row = result.rows[0];
  if (row === undefined) throw new Error('localPeriod: no row');
  return { from: new Date(Math.round(row.from_ms)), to: new Date(Math.round(row.to_ms)) };
}

/**
 * Rollup buckets (hourly or daily) of one measure whose start is in [from, to). Buckets are the
 * patient's local clock hours and local calendar days, each keyed by the instant it starts.
 */
export async function rollupPoints(
  tx: TenantTransaction,
  table: 'readings_hourly' | 'readings_daily',
  tenantId: string,
  patientId: string,
  measure: string,
  from: Date,
  to: Date,
) {
  const result = await tx.execute<{
    at_ms: number;
    count: number;
    sum: number;
    min: number;
    max: number;
  }>(sql`
    SELECT extract(epoch FROM bucket_start)::float8 * 1000 AS at_ms, count, sum, min, max
      FROM ${sql.identifier(table)}
     WHERE tenant_id = ${tenantId} AND patient_id = ${patientId} AND measure = ${measure}
       AND bucket_start >= ${from.toISOString()}::timestamptz AND bucket_start < ${to.toISOString()}::timestamptz
     ORDER BY bucket_start`);
  return result.rows.map((row): StoredPoint => ({
    atMs: Math.round(row.at_ms),
    value: row.sum / row.count,
    min: row.min,
    max: row.max,
    count: row.count,
    source: null,
    late: null,
  }));
}

/** The latest value of every measure the patient has (from the daily rollups' last value). */
export async function latestValues(tx: TenantTransaction, tenantId: string, patientId: string) {
  const result = await tx.execute<{ measure: string; value: number; at_ms: number }>(sql`
    SELECT DISTINCT ON (measure) measure, last_value AS value, extract(epoch FROM last_at)::float8 * 1000 AS at_ms
      FROM readings_daily
     WHERE tenant_id = ${tenantId} AND patient_id = ${patientId}
     ORDER BY measure, bucket_start DESC`);
  return result.rows.map((row) => ({
    measure: row.measure,
    value: row.value,
    atMs: Math.round(row.at_ms),
  }));
}

interface RecordPage {
  tenantId: string;
  patientId: string;
  from?: Date | undefined;
  to?: Date | undefined;
  page: number;
  size: number;
}

function pageConditions(
  table: { tenantId: PgColumn; patientId: PgColumn },
  time: PgColumn,
  query: RecordPage,
): SQL[] {
  const conditions: SQL[] = [eq(table.tenantId, query.tenantId), eq(table.patientId, query.patientId)];
  if (query.from !== undefined) conditions.push(gte(time, query.from));
  if (query.to !== undefined) conditions.push(lt(time, query.to));
  return conditions;
}

export async function listEcg(tx: TenantTransaction, query: RecordPage) {
  const where = and(...pageConditions(ecgRecords, ecgRecords.measuredAt, query));
  const { samples: _samples, ...summary } = getTableColumns(ecgRecords);
  const [items, [total]] = await Promise.all([
    tx
      .select(summary)
      .from(ecgRecords)
      .where(where)
      .orderBy(desc(ecgRecords.measuredAt))
      .limit(query.size)
      .offset(query.page * query.size),
    tx.select({ total: count() }).from(ecgRecords).where(where),
  ]);
  return { items, total: total?.total ?? 0 };
}

export async function findEcg(tx: TenantTransaction, tenantId: string, patientId: string, id: string) {
  const [row] = await tx
    .select()
    .from(ecgRecords)
    .where(
      and(eq(ecgRecords.tenantId, tenantId), eq(ecgRecords.patientId, patientId), eq(ecgRecords.id, id)),
    );
  return row;
}

export async function listSleep(tx: TenantTransaction, query: RecordPage) {
  const where = and(...pageConditions(sleepRecords, sleepRecords.startAt, query));
  const [items, [total]] = await Promise.all([
    tx
      .select()
      .from(sleepRecords)
      .where(where)
      .orderBy(desc(sleepRecords.startAt))
      .limit(query.size)
      .offset(query.page * query.size),
    tx.select({ total: count() }).from(sleepRecords).where(where),
  ]);
  return { items, total: total?.total ?? 0 };
}

export async function findSleep(tx: TenantTransaction, tenantId: string, patientId: string, id: string) {
  const [row] = await tx
    .select()
    .from(sleepRecords)
    .where(
      and(
        eq(sleepRecords.tenantId, tenantId),
        eq(sleepRecords.patientId, patientId),
        eq(sleepRecords.id, id),
      ),
    );
  return row;
}

export async function listSport(tx: TenantTransaction, query: RecordPage) {
  const where = and(...pageConditions(sportRecords, sportRecords.startAt, query));
  const [items, [total]] = await Promise.all([
    tx
      .select()
      .from(sportRecords)
      .where(where)
      .orderBy(desc(sportRecords.startAt))
      .limit(query.size)
      .offset(query.page * query.size),
    tx.select({ total: count() }).from(sportRecords).where(where),
  ]);
  return { items, total: total?.total ?? 0 };
}
