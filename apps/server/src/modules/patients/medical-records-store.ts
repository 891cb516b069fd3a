import type { MedicalRecordListQuery } from '@rpm/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { medicalRecords, patientFiles, users } from '../../db/schema.js';
import { fullName } from '../care-plan/store.js';

/**
 * Medical records and their attachments (migrations 0008, 0042). Every query runs in the caller's
 * transaction, so the database's access rule (tenant, center, no followers, no patient writes)
 * decides what exists.
 */

export interface MedicalRecordRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  title: string;
  record_type: string;
  examined_on: string;
  place: string | null;
  doctor_name: string | null;
  note: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  total: number;
}

const RECORD_COLUMNS = sql`
  r.id, r.patient_id, r.title, r.record_type, r.examined_on::text AS examined_on, r.place, r.doctor_name,
  r.note, r.created_by, ${fullName('creator')} AS created_by_name, r.created_at, r.updated_at`;
const RECORD_JOINS = sql`LEFT JOIN users creator ON creator.tenant_id = r.tenant_id AND creator.id = r.created_by`;

const SORT_COLUMNS = {
  examinationDate: sql`r.examined_on`,
  title: sql`lower(r.title)`,
  created: sql`r.created_at`,
} as const satisfies Record<MedicalRecordListQuery['sortField'], unknown>;

export async function listRecords(
  tx: TenantTransaction,
  patientId: string,
  query: MedicalRecordListQuery,
): Promise<MedicalRecordRow[]> {
  const search = query.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await tx.execute<MedicalRecordRow>(sql`
    SELECT ${RECORD_COLUMNS}, count(*) OVER ()::int AS total
      FROM medical_records r ${RECORD_JOINS}
     WHERE r.patient_id = ${patientId}::uuid
       AND (${query.type ?? null}::text IS NULL OR r.record_type = ${query.type ?? null})
       AND (${pattern}::text IS NULL OR r.title ILIKE ${pattern} OR r.place ILIKE ${pattern}
            OR r.doctor_name ILIKE ${pattern})
     ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, r.created_at DESC, r.id
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  return result.rows;
}

export async function findRecord(
  tx: TenantTransaction,
  patientId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<MedicalRecordRow | undefined> {
  const result = await tx.execute<MedicalRecordRow>(sql`
    SELECT ${RECORD_COLUMNS}, 1 AS total
      FROM medical_records r ${RECORD_JOINS}
     WHERE r.id = ${id}::uuid AND r.patient_id = ${patientId}::uuid
     ${options.lock === true ? sql`FOR UPDATE OF r` : sql``}`);
  return result.rows[0];
}

export async function insertRecord(
  tx: TenantTransaction,
  row: typeof medicalRecords.$inferInsert,
): Promise<void> {
  await tx.insert(medicalRecords).values(row);
}

export async function updateRecord(
  tx: TenantTransaction,
  id: string,
  changes: Pick<
    typeof medicalRecords.$inferInsert,
    'title' | 'recordType' | 'examinedOn' | 'place' | 'doctorName' | 'note' | 'updatedBy' | 'updatedAt'
  >,
): Promise<void> {
  await tx.update(medicalRecords).set(changes).where(eq(medicalRecords.id, id));
}

/** Removes the record (its attachment rows go by cascade); returns the storage keys of its files. */
export async function deleteRecord(tx: TenantTransaction, id: string): Promise<string[]> {
  const files = await tx
    .select({ key: patientFiles.storageKey })
    .from(patientFiles)
    .where(eq(patientFiles.recordId, id));
  await tx.delete(medicalRecords).where(eq(medicalRecords.id, id));
  return files.map((file) => file.key);
}

// Attachments ---------------------------------------------------------------------------------------

const FILE_COLUMNS = {
  file: patientFiles,
  firstName: users.firstName,
  middleName: users.middleName,
  lastName: users.lastName,
};

/** The attachments of the given records, oldest first. */
export async function filesOf(tx: TenantTransaction, recordIds: string[]) {
  if (recordIds.length === 0) return [];
  return tx
    .select(FILE_COLUMNS)
    .from(patientFiles)
    .leftJoin(users, and(eq(users.tenantId, patientFiles.tenantId), eq(users.id, patientFiles.uploadedBy)))
    .where(inArray(patientFiles.recordId, recordIds))
    .orderBy(asc(patientFiles.uploadedAt), asc(patientFiles.id));
}

export async function findFile(tx: TenantTransaction, recordId: string, fileId: string) {
  const rows = await tx
    .select(FILE_COLUMNS)
    .from(patientFiles)
    .leftJoin(users, and(eq(users.tenantId, patientFiles.tenantId), eq(users.id, patientFiles.uploadedBy)))
    .where(and(eq(patientFiles.recordId, recordId), eq(patientFiles.id, fileId)))
    .limit(1);
  return rows[0];
}

export async function countFiles(tx: TenantTransaction, recordId: string): Promise<number> {
  const result = await tx.execute<{ count: number }>(
    sql`SELECT count(*)::int AS count FROM patient_files WHERE record_id = ${recordId}::uuid`,
  );
  return result.rows[0]?.count ?? 0;
}

export async function insertFile(
  tx: TenantTransaction,
  row: typeof patientFiles.$inferInsert,
): Promise<void> {
  await tx.insert(patientFiles).values(row);
}

export async function deleteFile(tx: TenantTransaction, fileId: string): Promise<void> {
  await tx.delete(patientFiles).where(eq(patientFiles.id, fileId));
}
