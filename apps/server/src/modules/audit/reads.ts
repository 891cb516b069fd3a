import type { AuditAction } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { auditLog, patients } from '../../db/schema.js';
import type { AuditContext } from './store.js';

/**
 * One read of patient data (PHI) made for a request: what kind of read, and every patient whose
 * data the answer carries. A list names the patients on the page it returns.
 */
export interface PatientRead {
  action: AuditAction;
  /** The patients revealed (nulls and repeats are dropped; an empty page names none). */
  patientIds: Iterable<string | null | undefined>;
  /** The patient's own account when one patient is read (their activity history shows it). */
  subjectUserId?: string | null;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
}

/** The ids a read names, without repeats or gaps, in the order they were met. */
export function patientIdsOf(ids: Iterable<string | null | undefined>): string[] {
  const seen = new Set<string>();
  for (const id of ids) if (typeof id === 'string' && id !== '') seen.add(id);
  return [...seen];
}

/**
 * Writes the PHI reads of one request as audit rows with ONE statement (a multi-row INSERT, a
 * single row in the usual case of one read per request), in the transaction that made the read:
 * a request that fails writes nothing, and a failed audit write fails the request, so no data
 * leaves without its row. The patients are stored as `details.patientIds` (a JSON array of ids,
 * indexed by migration 0023), one row per read rather than one per patient, so a page of 100
 * patients costs the same single row as a profile.
 */
export async function recordPatientReads(
  tx: TenantTransaction,
  tenantId: string,
  context: AuditContext,
  reads: PatientRead | readonly PatientRead[],
  at?: Date,
): Promise<void> {
  const list = Array.isArray(reads) ? (reads as readonly PatientRead[]) : [reads as PatientRead];
  if (list.length === 0) return;
  await tx.insert(auditLog).values(
    list.map((read) => ({
      tenantId,
      id: uuidv7(),
      action: read.action,
      actorUserId: context.actorUserId,
      actorTenantId: context.actorTenantId,
      subjectUserId: read.subjectUserId ?? null,
      targetType: read.targetType ?? 'patient',
      targetId: read.targetId ?? null,
      ip: context.ip,
      userAgent: context.userAgent?.slice(0, 300) ?? null,
      requestId: context.requestId,
      details: { ...read.details, patientIds: patientIdsOf(read.patientIds) },
      ...(at ? { occurredAt: at } : {}),
    })),
  );
}

/**
 * The patient records of an account (a patient's own login), as `tx` sees them: what reading that
 * account's photo or history reveals. Staff accounts have none.
 */
export async function patientIdsOfAccount(tx: TenantTransaction, userId: string): Promise<string[]> {
  const rows = await tx.select({ id: patients.id }).from(patients).where(eq(patients.userId, userId));
  return rows.map((row) => row.id);
}

/** The patients an audit entry names: `details.patientIds`, `details.patientId`, or a patient target. */
export function patientIdsNamedBy(entry: { targetType: string | null; targetId: string | null; details: Record<string, unknown> }): string[] {
  const { patientIds, patientId } = entry.details;
  return [
    ...(Array.isArray(patientIds) ? patientIds.filter((id): id is string => typeof id === 'string') : []),
    ...(typeof patientId === 'string' ? [patientId] : []),
    ...(entry.targetType === 'patient' && entry.targetId !== null ? [entry.targetId] : []),
  ];
}
