import { EVENT_LIMIT, type eventInputSchema, type PatientEvent } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import type { z } from 'zod';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { reachablePatient } from '../doctors/care-team-service.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import type { CarePlanEnvironment } from './prescription-service.js';
import type { Page } from './store.js';

/**
 * Event reminders, "My Events" (spec §3, §5, §8, §9): the patient's own diary of appointments,
 * tests, vaccinations and the like, written from the app for the session's profile (its own record
 * or a sub-user it holds; a followed patient's are not shared), read by the care team. An event
 * needs a time and an icon, no two events of a patient share a time (the database's unique index),
 * and at most EVENT_LIMIT planned events lie ahead.
 */

type EventValues = z.output<typeof eventInputSchema>;

interface EventRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  arrival_at: Date;
  label: string;
  icon: PatientEvent['icon'];
  note: string | null;
  location: string | null;
  organizer: string | null;
  status: PatientEvent['status'];
  created_at: Date;
  total: number;
}

function toEvent(row: EventRow): PatientEvent {
  return {
    id: row.id,
    patientId: row.patient_id,
    arrivalAt: new Date(row.arrival_at).toISOString(),
    label: row.label,
    icon: row.icon,
    note: row.note,
    location: row.location,
    organizer: row.organizer,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** event.duplicateTime for the database's one-event-per-time index; anything else as it is. */
function translated(error: unknown): unknown {
  let current: unknown = error;
  while (current instanceof Error) {
    if (
      current instanceof pg.DatabaseError &&
      current.code === '23505' &&
      current.constraint === 'patient_events_one_per_time'
    )
      return new AppError('event.duplicateTime', { cause: error });
    current = current.cause;
  }
  return error;
}

async function listIn(
  tx: TenantTransaction,
  environment: CarePlanEnvironment,
  patientId: string,
  subjectUserId: string | null,
  query: { page: number; size: number; when: 'upcoming' | 'past' },
): Promise<Page<PatientEvent>> {
  const now = environment.clock.now().toISOString();
  const isUpcoming = query.when === 'upcoming';
  const result = await tx.execute<EventRow>(sql`
    SELECT id, patient_id, arrival_at, label, icon, note, location, organizer, status, created_at, count(*) OVER ()::int AS total
      FROM patient_events
     WHERE patient_id = ${patientId}::uuid
       AND ${isUpcoming ? sql`arrival_at >= ${now}::timestamptz` : sql`arrival_at < ${now}::timestamptz`}
     ORDER BY arrival_at ${isUpcoming ? sql`ASC` : sql`DESC`}, id
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    { action: 'EVENTS_VIEWED', patientIds: [patientId], subjectUserId, targetId: patientId },
    environment.clock.now(),
  );
  return {
    items: result.rows.map(toEvent),
    page: query.page,
    size: query.size,
    total: result.rows[0]?.total ?? 0,
  };
}

/** The care team's view of a patient's events. Audited (EVENTS_VIEWED). */
export function listPatientEvents(
  environment: CarePlanEnvironment,
  patientId: string,
  query: { page: number; size: number; when: 'upcoming' | 'past' },
): Promise<Page<PatientEvent>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    return listIn(tx, environment, patientId, patient.userId, query);
  });
}

export function listMyEvents(
  environment: CarePlanEnvironment,
  query: { page: number; size: number; when: 'upcoming' | 'past' },
): Promise<Page<PatientEvent>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    return listIn(tx, environment, profile.patientId, environment.auth.userId, query);
  });
}

/**
 * Spec §9: planned events to come, besides `except`, must stay under EVENT_LIMIT. Writers of one
 * patient's events queue on a transaction lock, so two at once cannot both take the last place.
 */
async function assertRoom(
  tx: TenantTransaction,
  patientId: string,
  now: Date,
  except: string | null,
): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('patient_events'), hashtext(${patientId}))`);
  const result = await tx.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM patient_events
     WHERE patient_id = ${patientId}::uuid AND status = 'PLANNED' AND arrival_at >= ${now.toISOString()}::timestamptz
       AND id IS DISTINCT FROM ${except}::uuid`);
  if ((result.rows[0]?.n ?? 0) >= EVENT_LIMIT) throw new AppError('event.limitReached');
}

async function readEvent(tx: TenantTransaction, patientId: string, id: string): Promise<EventRow> {
  const result = await tx.execute<EventRow>(sql`
    SELECT id, patient_id, arrival_at, label, icon, note, location, organizer, status, created_at, 1 AS total
      FROM patient_events WHERE id = ${id}::uuid AND patient_id = ${patientId}::uuid`);
  const row = result.rows[0];
  if (row === undefined) throw new AppError('event.notFound');
  return row;
}

/** Adds an event for the session's profile. event.duplicateTime, event.limitReached, profile.readOnly. Audited. */
export async function createMyEvent(
  environment: CarePlanEnvironment,
  input: EventValues,
): Promise<PatientEvent> {
  try {
    return await withCaller(environment.database, environment.auth, async (tx) => {
      const profile = await requireProfile(tx, environment.auth);
      assertProfileWritable(profile);
      const now = environment.clock.now();
      const arrivalAt = new Date(input.arrivalAt);
      if (input.status === 'PLANNED' && arrivalAt >= now) await assertRoom(tx, profile.patientId, now, null);
      const id = uuidv7();
      await tx.execute(sql`
        INSERT INTO patient_events (tenant_id, id, patient_id, arrival_at, label, icon, note, location, organizer, status,
                                    created_by, created_at, updated_at)
        VALUES (${environment.auth.tenantId}, ${id}, ${profile.patientId}, ${arrivalAt.toISOString()}::timestamptz,
                ${input.label}, ${input.icon}, ${input.note ?? null}, ${input.location ?? null}, ${input.organizer ?? null},
                ${input.status}, ${environment.auth.userId}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`);
      await recordAudit(tx, environment.auth.tenantId, environment.audit, {
        action: 'EVENT_CREATED',
        subjectUserId: environment.auth.userId,
        targetType: 'event',
        targetId: id,
        details: { patientId: profile.patientId },
      });
      return toEvent(await readEvent(tx, profile.patientId, id));
    });
  } catch (error) {
    throw translated(error);
  }
}

/** Changes an event (its time, words, icon or status). event.notFound, event.duplicateTime, event.limitReached. Audited. */
export async function updateMyEvent(
  environment: CarePlanEnvironment,
  id: string,
  input: EventValues,
): Promise<PatientEvent> {
  try {
    return await withCaller(environment.database, environment.auth, async (tx) => {
      const profile = await requireProfile(tx, environment.auth);
      assertProfileWritable(profile);
      await readEvent(tx, profile.patientId, id);
      const now = environment.clock.now();
      const arrivalAt = new Date(input.arrivalAt);
      if (input.status === 'PLANNED' && arrivalAt >= now) await assertRoom(tx, profile.patientId, now, id);
      await tx.execute(sql`
        UPDATE patient_events SET arrival_at = ${arrivalAt.toISOString()}::timestamptz, label = ${input.label},
               icon = ${input.icon}, note = ${input.note ?? null}, location = ${input.location ?? null},
               organizer = ${input.organizer ?? null}, status = ${input.status}, updated_at = ${now.toISOString()}::timestamptz
         WHERE id = ${id}::uuid`);
      await recordAudit(tx, environment.auth.tenantId, environment.audit, {
        action: 'EVENT_UPDATED',
        subjectUserId: environment.auth.userId,
        targetType: 'event',
        targetId: id,
        details: { patientId: profile.patientId, status: input.status },
      });
      return toEvent(await readEvent(tx, profile.patientId, id));
    });
  } catch (error) {
    throw translated(error);
  }
}

export function deleteMyEvent(environment: CarePlanEnvironment, id: string): Promise<void> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    assertProfileWritable(profile);
    await readEvent(tx, profile.patientId, id);
    await tx.execute(sql`DELETE FROM patient_events WHERE id = ${id}::uuid`);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'EVENT_DELETED',
      subjectUserId: environment.auth.userId,
      targetType: 'event',
      targetId: id,
      details: { patientId: profile.patientId },
    });
  });
}
