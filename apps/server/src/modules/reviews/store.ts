import type { ReviewListQuery } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { fullName } from '../care-plan/store.js';

/**
 * Reviews and their images (migration 0050). Every query runs in the caller's transaction, so the
 * database's rule decides what exists: staff see a review where they see its doctor and its
 * patient; a patient session its own profiles' reviews and the visible reviews of every doctor.
 */

export interface ReviewRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  patient_name: string | null;
  doctor_id: string;
  doctor_name: string | null;
  appointment_id: string | null;
  appointment_starts_at: Date | string | null;
  rating: number;
  message: string;
  author_initial: string;
  report_message: string | null;
  reported_at: Date | string | null;
  reported_by: string | null;
  reported_by_name: string | null;
  hidden_reason: string | null;
  hidden_at: Date | string | null;
  hidden_by: string | null;
  hidden_by_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  total: number;
}

export interface ImageRow extends Record<string, unknown> {
  id: string;
  review_id: string;
  storage_key: string;
  content_type: string;
  size_bytes: number;
}

const COLUMNS = sql`
  r.id, r.patient_id, ${fullName('patient')} AS patient_name, r.doctor_id, ${fullName('doctor')} AS doctor_name,
  r.appointment_id, appointment.starts_at AS appointment_starts_at, r.rating, r.message, r.author_initial,
  r.report_message, r.reported_at, r.reported_by, ${fullName('reporter')} AS reported_by_name,
  r.hidden_reason, r.hidden_at, r.hidden_by, ${fullName('hider')} AS hidden_by_name, r.created_at, r.updated_at`;
// Staff joins: the patient and the doctor are seen where the review is (the same rule).
const JOINS = sql`
  LEFT JOIN patients patient ON patient.tenant_id = r.tenant_id AND patient.id = r.patient_id
  LEFT JOIN users doctor ON doctor.tenant_id = r.tenant_id AND doctor.id = r.doctor_id
  LEFT JOIN appointments appointment ON appointment.tenant_id = r.tenant_id AND appointment.id = r.appointment_id
  LEFT JOIN users reporter ON reporter.tenant_id = r.tenant_id AND reporter.id = r.reported_by
  LEFT JOIN users hider ON hider.tenant_id = r.tenant_id AND hider.id = r.hidden_by`;

const STATE_OF = sql`CASE WHEN r.hidden_at IS NOT NULL THEN 'HIDDEN' WHEN r.reported_at IS NOT NULL THEN 'REPORTED' ELSE 'VISIBLE' END`;

const SORT_COLUMNS = {
  created: sql`r.created_at`,
  rating: sql`r.rating`,
  doctor: sql`lower(${fullName('doctor')})`,
} as const satisfies Record<ReviewListQuery['sortField'], unknown>;

const likePattern = (search: string | undefined) => {
  const trimmed = search?.trim();
  return trimmed ? `%${trimmed.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
};

/** The management list: search, rating, state and doctor filters, sorted and paged. */
export async function listReviews(tx: TenantTransaction, query: ReviewListQuery): Promise<ReviewRow[]> {
  const pattern = likePattern(query.search);
  const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await tx.execute<ReviewRow>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total
      FROM doctor_reviews r ${JOINS}
     WHERE (${query.rating ?? null}::int IS NULL OR r.rating = ${query.rating ?? null})
       AND (${query.state ?? null}::text IS NULL OR ${STATE_OF} = ${query.state ?? null})
       AND (${query.doctorId ?? null}::uuid IS NULL OR r.doctor_id = ${query.doctorId ?? null})
       AND (${pattern}::text IS NULL OR r.message ILIKE ${pattern} OR ${fullName('patient')} ILIKE ${pattern}
            OR ${fullName('doctor')} ILIKE ${pattern})
     ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, r.created_at DESC, r.id
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  return result.rows;
}

export async function findReview(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ReviewRow | undefined> {
  if (options.lock === true) {
    const locked = await tx.execute(sql`SELECT id FROM doctor_reviews WHERE id = ${id}::uuid FOR UPDATE`);
    if (locked.rows.length === 0) return undefined;
  }
  const result = await tx.execute<ReviewRow>(sql`
    SELECT ${COLUMNS}, 1 AS total FROM doctor_reviews r ${JOINS} WHERE r.id = ${id}::uuid`);
  return result.rows[0];
}

/** A patient profile's own reviews, newest first. */
export async function listOwnReviews(
  tx: TenantTransaction,
  patientId: string,
  page: { page: number; size: number },
): Promise<ReviewRow[]> {
  const result = await tx.execute<ReviewRow>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total
      FROM doctor_reviews r ${JOINS}
     WHERE r.patient_id = ${patientId}::uuid
     ORDER BY r.updated_at DESC, r.id
     LIMIT ${page.size} OFFSET ${page.page * page.size}`);
  return result.rows;
}

export interface PublicReviewRow extends Record<string, unknown> {
  id: string;
  rating: number;
  message: string;
  author_initial: string;
  appointment_id: string | null;
  created_at: Date | string;
  total: number;
}

/** A doctor's visible reviews without their authors (the initial only), newest first. */
export async function listDoctorReviews(
  tx: TenantTransaction,
  doctorId: string,
  page: { page: number; size: number },
): Promise<PublicReviewRow[]> {
  const result = await tx.execute<PublicReviewRow>(sql`
    SELECT r.id, r.rating, r.message, r.author_initial, r.appointment_id, r.created_at, count(*) OVER ()::int AS total
      FROM doctor_reviews r
     WHERE r.doctor_id = ${doctorId}::uuid AND r.hidden_at IS NULL
     ORDER BY r.created_at DESC, r.id
     LIMIT ${page.size} OFFSET ${page.page * page.size}`);
  return result.rows;
}

/** The doctor's rating as the trigger of migration 0050 keeps it. */
export async function doctorRating(
  tx: TenantTransaction,
  doctorId: string,
): Promise<{ ratingAverage: number; ratingCount: number }> {
  const result = await tx.execute<{ rating_average: string; rating_count: number }>(
    sql`SELECT rating_average, rating_count FROM doctor_profiles WHERE doctor_id = ${doctorId}::uuid`,
  );
  const row = result.rows[0];
  return { ratingAverage: row === undefined ? 0 : Number(row.rating_average), ratingCount: row?.rating_count ?? 0 };
}

export async function imagesOf(tx: TenantTransaction, reviewIds: string[]): Promise<ImageRow[]> {
  if (reviewIds.length === 0) return [];
  const result = await tx.execute<ImageRow>(sql`
    SELECT id, review_id, storage_key, content_type, size_bytes FROM doctor_review_images
     WHERE review_id = ANY(${`{${reviewIds.join(',')}}`}::uuid[]) ORDER BY review_id, position`);
  return result.rows;
}

/** Whether the patient may rate the doctor: on its care team, or seen at a completed appointment. */
export async function hasCareRelation(tx: TenantTransaction, patientId: string, doctorId: string): Promise<boolean> {
  const result = await tx.execute<{ related: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM patient_doctors WHERE patient_id = ${patientId}::uuid AND doctor_id = ${doctorId}::uuid)
        OR EXISTS (SELECT 1 FROM appointments WHERE patient_id = ${patientId}::uuid AND doctor_id = ${doctorId}::uuid
                                              AND status = 'COMPLETED') AS related`);
  return result.rows[0]?.related === true;
}

export interface AppointmentFacts extends Record<string, unknown> {
  patient_id: string;
  doctor_id: string;
  status: string;
}

export async function findAppointment(tx: TenantTransaction, appointmentId: string): Promise<AppointmentFacts | undefined> {
  const result = await tx.execute<AppointmentFacts>(
    sql`SELECT patient_id, doctor_id, status FROM appointments WHERE id = ${appointmentId}::uuid`,
  );
  return result.rows[0];
}

export interface ReviewWrite {
  tenantId: string;
  id: string;
  patientId: string;
  doctorId: string;
  appointmentId: string | null;
  rating: number;
  message: string;
  authorInitial: string;
  userId: string;
  at: Date;
}

/**
 * Writes the patient's review of its subject, replacing the one it had (one per patient and
 * doctor, or per appointment): rating, message and author initial; the moderation state stays.
 * Returns the review's id and whether it was new.
 */
export async function upsertReview(tx: TenantTransaction, review: ReviewWrite): Promise<{ id: string; isNew: boolean }> {
  const conflict =
    review.appointmentId === null
      ? sql`(tenant_id, patient_id, doctor_id) WHERE appointment_id IS NULL`
      : sql`(tenant_id, appointment_id) WHERE appointment_id IS NOT NULL`;
  const result = await tx.execute<{ id: string; is_new: boolean }>(sql`
    INSERT INTO doctor_reviews (tenant_id, id, patient_id, doctor_id, appointment_id, rating, message, author_initial,
                                created_by, created_at, updated_at)
    VALUES (${review.tenantId}::uuid, ${review.id}::uuid, ${review.patientId}::uuid, ${review.doctorId}::uuid,
            ${review.appointmentId}::uuid, ${review.rating}, ${review.message}, ${review.authorInitial},
            ${review.userId}::uuid, ${review.at}, ${review.at})
    ON CONFLICT ${conflict} DO UPDATE
      SET rating = EXCLUDED.rating, message = EXCLUDED.message, author_initial = EXCLUDED.author_initial,
          updated_at = EXCLUDED.updated_at
    RETURNING id, (xmax = 0) AS is_new`);
  const row = result.rows[0];
  if (row === undefined) throw new Error('the review was not written');
  return { id: row.id, isNew: row.is_new };
}

export async function deleteImages(tx: TenantTransaction, reviewId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM doctor_review_images WHERE review_id = ${reviewId}::uuid`);
}

export async function insertImage(
  tx: TenantTransaction,
  image: { tenantId: string; id: string; reviewId: string; position: number; key: string; contentType: string; size: number; at: Date },
): Promise<void> {
  await tx.execute(sql`
    INSERT INTO doctor_review_images (tenant_id, id, review_id, position, storage_key, content_type, size_bytes, created_at)
    VALUES (${image.tenantId}::uuid, ${image.id}::uuid, ${image.reviewId}::uuid, ${image.position}, ${image.key},
            ${image.contentType}, ${image.size}, ${image.at})`);
}

export async function setReport(
  tx: TenantTransaction,
  id: string,
  report: { message: string; by: string; at: Date },
): Promise<void> {
  await tx.execute(sql`
    UPDATE doctor_reviews SET report_message = ${report.message}, reported_by = ${report.by}::uuid, reported_at = ${report.at}
     WHERE id = ${id}::uuid`);
}

export async function setHidden(
  tx: TenantTransaction,
  id: string,
  hidden: { reason: string; by: string; at: Date } | null,
): Promise<void> {
  if (hidden === null) {
    await tx.execute(sql`UPDATE doctor_reviews SET hidden_at = NULL, hidden_by = NULL, hidden_reason = NULL WHERE id = ${id}::uuid`);
    return;
  }
  await tx.execute(sql`
    UPDATE doctor_reviews SET hidden_reason = ${hidden.reason}, hidden_by = ${hidden.by}::uuid, hidden_at = ${hidden.at}
     WHERE id = ${id}::uuid`);
}

/** The first letter of the patient's name: all other patients learn of the author. */
export async function authorInitialOf(tx: TenantTransaction, patientId: string): Promise<string> {
  const result = await tx.execute<{ initial: string | null }>(
    sql`SELECT upper(left(btrim(coalesce(nullif(first_name, ''), last_name, '')), 1)) AS initial FROM patients WHERE id = ${patientId}::uuid`,
  );
  return result.rows[0]?.initial ?? '';
}
