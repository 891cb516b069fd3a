import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TenantTransaction } from '../../db/database.js';
import { careRequests, patients, users } from '../../db/schema.js';

/** Care requests: SQL only, inside the caller's transaction (center visibility by the database). */

const doctor = alias(users, 'doctor');
const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

function selectRequests(tx: TenantTransaction) {
  return tx
    .select({
      request: careRequests,
      patient: {
        id: patients.id,
        patientCode: patients.patientCode,
        firstName: patients.firstName,
        middleName: patients.middleName,
        lastName: patients.lastName,
        userId: patients.userId,
      },
      doctor: { firstName: doctor.firstName, middleName: doctor.middleName, lastName: doctor.lastName },
      requester: {
        firstName: requester.firstName,
        middleName: requester.middleName,
        lastName: requester.lastName,
      },
      decider: { firstName: decider.firstName, middleName: decider.middleName, lastName: decider.lastName },
    })
    .from(careRequests)
    .innerJoin(
      patients,
      and(eq(patients.tenantId, careRequests.tenantId), eq(patients.id, careRequests.patientId)),
    )
    .leftJoin(doctor, and(eq(doctor.tenantId, careRequests.tenantId), eq(doctor.id, careRequests.doctorId)))
    .leftJoin(
      requester,
      and(eq(requester.tenantId, careRequests.tenantId), eq(requester.id, careRequests.requesterId)),
    )
    .leftJoin(
      decider,
      and(eq(decider.tenantId, careRequests.tenantId), eq(decider.id, careRequests.decidedBy)),
    );
}
export type RequestRow = Awaited<ReturnType<ReturnType<typeof selectRequests>['execute']>>[number];

/** Who a caller answers for: a doctor their own requests, a patient account theirs, staff with user.assign patients' ones. */
export interface ReceivedBy {
  userId: string;
  role: string;
  /** Staff who may assign doctors answer doctors' requests on behalf of the patients they see. */
  answersForPatients: boolean;
}

/** The requests a caller may approve or reject (their received box). */
export function receivedBy(caller: ReceivedBy): SQL {
  const asDoctor = sql`(${careRequests.kind} = 'PATIENT_REQUEST' AND ${careRequests.doctorId} = ${caller.userId})`;
  // A patient account answers for its own record and for the sub-users it holds.
  const asPatient = sql`(${careRequests.kind} = 'DOCTOR_REQUEST' AND (${patients.userId} = ${caller.userId} OR ${patients.holderUserId} = ${caller.userId}))`;
  const forPatients = sql`(${careRequests.kind} = 'DOCTOR_REQUEST' AND ${careRequests.requesterId} <> ${caller.userId})`;
  if (caller.role === 'DOCTOR') return asDoctor;
  if (caller.role === 'PATIENT') return asPatient;
  return caller.answersForPatients ? forPatients : sql`false`;
}

export interface RequestFilter {
  box: 'sent' | 'received';
  status?: string | undefined;
  kind?: string | undefined;
  /** Only the requests about this patient. */
  patientId?: string | undefined;
  page: number;
  size: number;
}

export async function listRequests(
  tx: TenantTransaction,
  caller: ReceivedBy,
  filter: RequestFilter,
): Promise<{ items: RequestRow[]; total: number }> {
  const where = and(
    filter.box === 'sent' ? eq(careRequests.requesterId, caller.userId) : receivedBy(caller),
    filter.status === undefined ? undefined : eq(careRequests.status, filter.status),
    filter.kind === undefined ? undefined : eq(careRequests.kind, filter.kind),
    filter.patientId === undefined ? undefined : eq(careRequests.patientId, filter.patientId),
  );
  const items = await selectRequests(tx)
    .where(where)
    .orderBy(desc(careRequests.createdAt), desc(careRequests.id))
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const totals = await tx
    .select({ total: count() })
    .from(careRequests)
    .innerJoin(
      patients,
      and(eq(patients.tenantId, careRequests.tenantId), eq(patients.id, careRequests.patientId)),
    )
    .where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** A request the transaction may see, locked for the rest of the transaction when asked. */
export async function findRequest(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<RequestRow | undefined> {
  if (options.lock === true) {
    const locked = await tx
      .select({ id: careRequests.id })
      .from(careRequests)
      .where(eq(careRequests.id, id))
      .for('update');
    if (locked.length === 0) return undefined;
  }
  const rows = await selectRequests(tx).where(eq(careRequests.id, id)).limit(1);
  return rows[0];
}

/** Whether the caller may decide the request (it is in their received box). */
export async function isReceivedBy(tx: TenantTransaction, id: string, caller: ReceivedBy): Promise<boolean> {
  const rows = await tx
    .select({ id: careRequests.id })
    .from(careRequests)
    .innerJoin(
      patients,
      and(eq(patients.tenantId, careRequests.tenantId), eq(patients.id, careRequests.patientId)),
    )
    .where(and(eq(careRequests.id, id), receivedBy(caller)))
    .limit(1);
  return rows.length > 0;
}

export async function insertRequest(
  tx: TenantTransaction,
  values: typeof careRequests.$inferInsert,
): Promise<void> {
  await tx.insert(careRequests).values(values);
}

export async function decideRequest(
  tx: TenantTransaction,
  id: string,
  change: { status: string; decidedAt: Date; decidedBy: string; rejectReason?: string },
): Promise<void> {
  await tx.update(careRequests).set(change).where(eq(careRequests.id, id));
}

/** The requests about one patient (both directions), newest first. */
export async function listRequestsOfPatient(
  tx: TenantTransaction,
  patientId: string,
  filter: { page: number; size: number },
): Promise<{ items: RequestRow[]; total: number }> {
  const where = eq(careRequests.patientId, patientId);
  const items = await selectRequests(tx)
    .where(where)
    .orderBy(desc(careRequests.createdAt), desc(careRequests.id))
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const totals = await tx.select({ total: count() }).from(careRequests).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}
