import {
  localDateSchema,
  scheduleProblems,
  type CareReminder,
  type CareReminderInput,
  type FieldError,
  type ReminderOccurrence,
  type ReminderSchedule,
} from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { notifyPatient } from '../notifications/notify.js';
import { reachablePatient } from '../doctors/care-team-service.js';
import { requireProfile } from '../followers/profile.js';
import type { CarePlanEnvironment } from './prescription-service.js';
import { expandSchedule } from './schedule.js';
import { fullName } from './store.js';

/**
 * Care reminders (spec §3 Reminder, §6): reminders on a patient that are not a medicine's dose,
 * written by doctors and their assistants (health.remind), deleted by them (the row is kept with
 * who deleted it), read by the care team and by the patient's app, which gets the times of a day
 * computed from the schedule in the patient's time zone.
 */

interface ReminderRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  title: string;
  note: string | null;
  schedule: ReminderSchedule;
  created_by: string;
  created_by_name: string;
  created_at: Date;
}

const SELECT = sql`
  SELECT r.id, r.patient_id, r.title, r.note, r.schedule, r.created_by, r.created_at,
         coalesce(${fullName('u')}, '') AS created_by_name
    FROM care_reminders r
    LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.created_by`;

function toReminder(row: ReminderRow): CareReminder {
  return {
    id: row.id,
    patientId: row.patient_id,
    title: row.title,
    note: row.note,
    schedule: row.schedule,
    createdBy: { id: row.created_by, fullName: row.created_by_name },
    createdAt: new Date(row.created_at).toISOString(),
  };
}

async function remindersOf(tx: TenantTransaction, patientId: string): Promise<ReminderRow[]> {
  const result = await tx.execute<ReminderRow>(sql`
    ${SELECT} WHERE r.patient_id = ${patientId}::uuid AND r.deleted_at IS NULL ORDER BY r.created_at DESC, r.id`);
  return result.rows;
}

/** A patient's care reminders, newest first. Audited (REMINDERS_VIEWED). */
export function listReminders(environment: CarePlanEnvironment, patientId: string): Promise<CareReminder[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    const rows = await remindersOf(tx, patientId);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'REMINDERS_VIEWED',
        patientIds: [patientId],
        subjectUserId: patient.userId,
        targetId: patientId,
      },
      environment.clock.now(),
    );
    return rows.map(toReminder);
  });
}

/** Spec §5 reminder rules (times, labels, repeat, dates) as field errors; reminder.invalid. */
function assertValid(input: CareReminderInput): void {
  const problems = scheduleProblems(input.schedule);
  if (problems.length === 0) return;
  const fieldErrors: FieldError[] = problems.map((problem) => ({
    field: `body.${problem.path}`,
    code: problem.code,
    message: `carePlan:problems.${problem.code}`,
  }));
  throw new AppError('reminder.invalid', { fieldErrors });
}

export function createReminder(
  environment: CarePlanEnvironment,
  patientId: string,
  input: CareReminderInput,
): Promise<CareReminder> {
  assertValid(input);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    if (patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
    const id = uuidv7();
    const now = environment.clock.now();
    await tx.execute(sql`
      INSERT INTO care_reminders (tenant_id, id, patient_id, title, note, schedule, created_by, created_at)
      VALUES (${environment.auth.tenantId}, ${id}, ${patientId}, ${input.title}, ${input.note ?? null},
              ${JSON.stringify(input.schedule)}::jsonb, ${environment.auth.userId}, ${now.toISOString()}::timestamptz)`);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'REMINDER_CREATED',
      subjectUserId: patient.userId,
      targetType: 'reminder',
      targetId: id,
      details: { patientId },
    });
    await notifyPatient(tx, environment.auth.tenantId, patientId, {
      kind: 'reminder.created',
      params: { title: input.title, authorName: environment.auth.fullName },
      link: '/medicines',
      senderId: environment.auth.userId,
      at: now,
    });
    const result = await tx.execute<ReminderRow>(sql`${SELECT} WHERE r.id = ${id}::uuid`);
    const row = result.rows[0];
    if (row === undefined) throw new Error('a reminder just written is not visible');
    return toReminder(row);
  });
}

/** Deletes a care reminder (kept with who deleted it); reminder.notFound when it is not there. */
export function deleteReminder(
  environment: CarePlanEnvironment,
  patientId: string,
  id: string,
): Promise<void> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    const deleted = await tx.execute(sql`
      UPDATE care_reminders SET deleted_at = ${environment.clock.now().toISOString()}::timestamptz,
             deleted_by = ${environment.auth.userId}::uuid
       WHERE id = ${id}::uuid AND patient_id = ${patientId}::uuid AND deleted_at IS NULL
      RETURNING id`);
    if (deleted.rows.length === 0) throw new AppError('reminder.notFound');
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'REMINDER_DELETED',
      subjectUserId: patient.userId,
      targetType: 'reminder',
      targetId: id,
      details: { patientId },
    });
  });
}

/**
 * The app: the times the profile's care reminders ring on a local day (default today where the
 * patient lives), in time order. Audited (REMINDERS_VIEWED).
 */
export function listMyReminderTimes(
  environment: CarePlanEnvironment,
  date: string | undefined,
): Promise<ReminderOccurrence[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    const zoneResult = await tx.execute<{ zone: string }>(
      sql`SELECT patient_time_zone(${profile.patientId}::uuid) AS zone`,
    );
    const zone = zoneResult.rows[0]?.zone ?? 'UTC';
    const now = environment.clock.now();
    const day = localDateSchema.parse(
      date ??
        Temporal.Instant.fromEpochMilliseconds(now.getTime())
          .toZonedDateTimeISO(zone)
          .toPlainDate()
          .toString(),
    );
    const start = Temporal.PlainDate.from(day).toZonedDateTime({ timeZone: zone });
    const from = new Date(start.epochMilliseconds);
    const to = new Date(start.add({ days: 1 }).epochMilliseconds);
    const rows = await remindersOf(tx, profile.patientId);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'REMINDERS_VIEWED',
        patientIds: [profile.patientId],
        subjectUserId: environment.auth.userId,
        targetId: profile.patientId,
        details: { date: day },
      },
      now,
    );
    return rows
      .flatMap((row) =>
        expandSchedule(row.schedule, zone, from, to).map((occurrence): ReminderOccurrence => ({
          reminderId: row.id,
          title: row.title,
          note: row.note,
          at: occurrence.at.toISOString(),
          localDate: occurrence.localDate,
          localTime: occurrence.localTime,
          label: occurrence.label,
        })),
      )
      .sort((a, b) => a.at.localeCompare(b.at));
  });
}
