import type { ScheduleListQuery, ScheduleStatus } from '@rpm/contracts';
import { eq, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { doctorSchedules } from '../../db/schema.js';
import { fullName } from '../care-plan/store.js';

/**
 * Doctor schedules (migration 0043). Every query runs in the caller's transaction, so the
 * database's rule (tenant, the centers the caller sees, approved ones only for a patient session,
 * no patient writes) decides what exists.
 */

export interface ScheduleRow extends Record<string, unknown> {
  id: string;
  doctor_id: string;
  doctor_name: string;
  doctor_email: string | null;
  doctor_phone: string | null;
  health_center_id: string | null;
  health_center_name: string | null;
  kind: 'SINGLE' | 'WEEKLY';
  start_date: string;
  end_date: string;
  weekdays: number[];
  start_time: string;
  end_time: string;
  slot_minutes: number;
  time_zone: string;
  note: string | null;
  status: ScheduleStatus;
  requested_at: Date | string;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | string | null;
  reason: string | null;
  deletion_requested_at: Date | string | null;
  total: number;
}

const COLUMNS = sql`
  s.id, s.doctor_id, ${fullName('doctor')} AS doctor_name, doctor.email AS doctor_email, doctor.phone AS doctor_phone,
  s.health_center_id, center.name AS health_center_name, s.kind, s.start_date::text AS start_date,
  s.end_date::text AS end_date, s.weekdays, to_char(s.start_time, 'HH24:MI') AS start_time,
  to_char(s.end_time, 'HH24:MI') AS end_time, s.slot_minutes, s.time_zone, s.note, s.status, s.requested_at,
  s.decided_by, ${fullName('decider')} AS decided_by_name, s.decided_at, s.reason, s.deletion_requested_at`;
const JOINS = sql`
  JOIN users doctor ON doctor.tenant_id = s.tenant_id AND doctor.id = s.doctor_id
  LEFT JOIN health_centers center ON center.tenant_id = s.tenant_id AND center.id = s.health_center_id
  LEFT JOIN users decider ON decider.tenant_id = s.tenant_id AND decider.id = s.decided_by`;

const SORT_COLUMNS = {
  requested: sql`s.requested_at`,
  start: sql`s.start_date`,
  doctor: sql`lower(${fullName('doctor')})`,
} as const satisfies Record<ScheduleListQuery['sortField'], unknown>;

export async function listSchedules(
  tx: TenantTransaction,
  query: ScheduleListQuery,
  options: { doctorId?: string } = {},
): Promise<ScheduleRow[]> {
  const search = query.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const doctorId = options.doctorId ?? query.doctorId ?? null;
  const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await tx.execute<ScheduleRow>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total
      FROM doctor_schedules s ${JOINS}
     WHERE (${query.status ?? null}::text IS NULL AND s.status <> 'DELETED' OR s.status = ${query.status ?? null})
       AND (${doctorId}::uuid IS NULL OR s.doctor_id = ${doctorId}::uuid)
       AND (${query.centerId ?? null}::uuid IS NULL OR s.health_center_id = ${query.centerId ?? null}::uuid)
       AND (${pattern}::text IS NULL OR ${fullName('doctor')} ILIKE ${pattern} OR doctor.email ILIKE ${pattern}
            OR doctor.phone ILIKE ${pattern})
     ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, s.id ${direction}
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  return result.rows;
}

export async function findSchedule(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ScheduleRow | undefined> {
  if (options.lock === true) {
    const locked = await tx.execute(sql`SELECT id FROM doctor_schedules WHERE id = ${id}::uuid FOR UPDATE`);
    if (locked.rows.length === 0) return undefined;
  }
  const result = await tx.execute<ScheduleRow>(sql`
    SELECT ${COLUMNS}, 1 AS total FROM doctor_schedules s ${JOINS} WHERE s.id = ${id}::uuid`);
  return result.rows[0];
}

/** The doctor's schedules that hold its time and share a day with [from, to]. */
export async function holdingSchedulesOf(
  tx: TenantTransaction,
  doctorId: string,
  from: string,
  to: string,
): Promise<ScheduleRow[]> {
  const result = await tx.execute<ScheduleRow>(sql`
    SELECT ${COLUMNS}, 1 AS total FROM doctor_schedules s ${JOINS}
     WHERE s.doctor_id = ${doctorId}::uuid AND s.status IN ('NEW', 'APPROVED', 'DELETION_REQUESTED')
       AND s.start_date <= ${to}::date AND s.end_date >= ${from}::date`);
  return result.rows;
}

/** Schedules shown in a calendar between two days: approved (and, asked, the pending ones). */
export async function calendarSchedules(
  tx: TenantTransaction,
  filter: {
    from: string;
    to: string;
    doctorId?: string | undefined;
    centerId?: string | undefined;
    withPending: boolean;
  },
): Promise<ScheduleRow[]> {
  const statuses = filter.withPending
    ? ['APPROVED', 'NEW', 'DELETION_REQUESTED']
    : ['APPROVED', 'DELETION_REQUESTED'];
  const result = await tx.execute<ScheduleRow>(sql`
    SELECT ${COLUMNS}, 1 AS total FROM doctor_schedules s ${JOINS}
     WHERE s.status = ANY (${sql.param(statuses)}::text[])
       AND s.start_date <= ${filter.to}::date AND s.end_date >= ${filter.from}::date
       AND (${filter.doctorId ?? null}::uuid IS NULL OR s.doctor_id = ${filter.doctorId ?? null}::uuid)
       AND (${filter.centerId ?? null}::uuid IS NULL OR s.health_center_id = ${filter.centerId ?? null}::uuid)
     ORDER BY s.start_date, s.start_time`);
  return result.rows;
}

/** The doctor's center and time zone now (every account has a zone), for a new schedule. */
export async function doctorPlace(
  tx: TenantTransaction,
  doctorId: string,
): Promise<{ healthCenterId: string | null; timeZone: string } | undefined> {
  const result = await tx.execute<{ health_center_id: string | null; time_zone: string }>(sql`
    SELECT health_center_id, time_zone FROM users WHERE id = ${doctorId}::uuid AND role = 'DOCTOR'`);
  const row = result.rows[0];
  return row === undefined ? undefined : { healthCenterId: row.health_center_id, timeZone: row.time_zone };
}

/** Serialises the schedule changes of one doctor (the conflict check reads, then writes). */
export async function lockDoctorSchedules(tx: TenantTransaction, doctorId: string): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended('doctor-schedules:' || ${doctorId}, 0))`,
  );
}

export async function insertSchedule(
  tx: TenantTransaction,
  row: typeof doctorSchedules.$inferInsert,
): Promise<void> {
  await tx.insert(doctorSchedules).values(row);
}

export async function updateSchedule(
  tx: TenantTransaction,
  id: string,
  changes: Partial<typeof doctorSchedules.$inferInsert>,
): Promise<void> {
  await tx.update(doctorSchedules).set(changes).where(eq(doctorSchedules.id, id));
}
