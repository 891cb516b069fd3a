import { Readable } from 'node:stream';
import {
  nextReviewState,
  REVIEW_IMAGE_TYPES,
  REVIEW_IMAGE_MAX_BYTES,
  REVIEW_MAX_IMAGES,
  type MyReview,
  type PublicReviewPage,
  type Review,
  type ReviewFields,
  type ReviewImage,
  type ReviewListQuery,
  type ReviewModeration,
  type ReviewState,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import {
  FileRejectedError,
  IMAGE_TYPES,
  type FileRejection,
  type FileStorage,
  type OpenedFile,
} from '../../lib/file-storage.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import * as doctors from '../doctors/store.js';
import { notify } from '../notifications/notify.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import type { ReceivedFile } from '../org/logo.js';
import * as store from './store.js';

/**
 * Ratings and reviews (spec §1, §2, §3 Review, §5 images). A patient session rates, for the profile
 * it acts for (its own record or a sub-user it holds; a followed patient's is read only), a doctor
 * it has a care relationship with or one of its completed appointments. Admins (staff.view to read,
 * staff.update to moderate) report, hide and show reviews again, each with a reason, audited.
 * The doctor's average follows the visible reviews (the database trigger of migration 0050).
 */

export interface ReviewEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
  storage: FileStorage;
  log: { warn(details: object, message: string): void };
}

export type ReviewTarget = { kind: 'DOCTOR'; doctorId: string } | { kind: 'APPOINTMENT'; appointmentId: string };

export interface ReviewSubmission extends ReviewFields {
  images?: ReceivedFile[];
  /** Without new images, the existing ones stay unless this is 'true'. */
  removeImages?: string;
}

const ACCEPTED = IMAGE_TYPES.filter((type) => (REVIEW_IMAGE_TYPES as readonly string[]).includes(type));
const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : isoOf(value));
const stateOf = (row: store.ReviewRow): ReviewState =>
  row.hidden_at !== null ? 'HIDDEN' : row.reported_at !== null ? 'REPORTED' : 'VISIBLE';
const personOf = (id: string | null, name: string | null) => (id === null ? null : { id, fullName: name ?? '' });
const toImage = (row: store.ImageRow): ReviewImage => ({ id: row.id, contentType: row.content_type, size: row.size_bytes });

function toReview(row: store.ReviewRow, images: store.ImageRow[]): Review {
  return {
    id: row.id,
    subject: row.appointment_id === null ? 'DOCTOR' : 'APPOINTMENT',
    doctorId: row.doctor_id,
    appointmentId: row.appointment_id,
    rating: row.rating,
    message: row.message,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    state: stateOf(row),
    patient: { id: row.patient_id, fullName: row.patient_name ?? '' },
    doctor: { id: row.doctor_id, fullName: row.doctor_name ?? '' },
    appointmentStartsAt: isoOrNull(row.appointment_starts_at),
    images: images.filter((image) => image.review_id === row.id).map(toImage),
    reportMessage: row.report_message,
    reportedAt: isoOrNull(row.reported_at),
    reportedBy: personOf(row.reported_by, row.reported_by_name),
    hiddenReason: row.hidden_reason,
    hiddenAt: isoOrNull(row.hidden_at),
    hiddenBy: personOf(row.hidden_by, row.hidden_by_name),
  };
}

function toMyReview(row: store.ReviewRow, images: store.ImageRow[]): MyReview {
  return {
    id: row.id,
    subject: row.appointment_id === null ? 'DOCTOR' : 'APPOINTMENT',
    doctorId: row.doctor_id,
    appointmentId: row.appointment_id,
    rating: row.rating,
    message: row.message,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    doctorName: row.doctor_name ?? '',
    appointmentStartsAt: isoOrNull(row.appointment_starts_at),
    images: images.filter((image) => image.review_id === row.id).map(toImage),
    isHidden: row.hidden_at !== null,
  };
}

/** Patient sessions only: staff have no record to write reviews for (health.noPatientProfile). */
function requirePatientSession(auth: AuthContext): void {
  if (auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
}

/** Stores each image after checking its size and its real type (magic bytes), or refuses them all. */
async function storeImages(environment: ReviewEnvironment, images: ReceivedFile[]) {
  const stored: { key: string; contentType: string; size: number }[] = [];
  try {
    for (const image of images) {
      stored.push(
        await environment.storage.save(Readable.from([image.content]), {
          tenantId: environment.auth.tenantId,
          category: 'reviews',
          maxBytes: REVIEW_IMAGE_MAX_BYTES,
          accept: ACCEPTED,
          isTruncated: () => image.isTruncated,
        }),
      );
    }
    return stored;
  } catch (error) {
    await removeFiles(environment, stored.map((file) => file.key));
    if (error instanceof FileRejectedError) throw new AppError(ERROR_OF_REJECTION[error.reason], { cause: error });
    throw error;
  }
}

async function removeFiles(environment: ReviewEnvironment, keys: string[]): Promise<void> {
  for (const key of keys) {
    await environment.storage.remove(key).catch((error: unknown) => {
      environment.log.warn({ err: error, key }, 'could not remove a review image');
    });
  }
}

/** The doctor the target rates, after checking the profile may rate it. */
async function ratedDoctor(
  tx: TenantTransaction,
  environment: ReviewEnvironment,
  patientId: string,
  target: ReviewTarget,
): Promise<{ doctorId: string; appointmentId: string | null }> {
  if (target.kind === 'APPOINTMENT') {
    const appointment = await store.findAppointment(tx, target.appointmentId);
    // Another patient's appointment is not found (the database hides other patients' anyway).
    if (appointment?.patient_id !== patientId) throw new AppError('appointment.notFound');
    if (appointment.status !== 'COMPLETED') throw new AppError('review.appointmentNotCompleted');
    return { doctorId: appointment.doctor_id, appointmentId: target.appointmentId };
  }
  const doctor = await doctors.findDoctor(tx, target.doctorId, doctors.todayOf(environment.clock.now()));
  if (doctor?.user.status !== 'ACTIVE') throw new AppError('doctor.notFound');
  if (!(await store.hasCareRelation(tx, patientId, target.doctorId))) throw new AppError('review.noRelation');
  return { doctorId: target.doctorId, appointmentId: null };
}

/**
 * PUT /health/me/doctors/:id/review and /health/me/appointments/:id/review: writes the profile's
 * review of the subject, replacing the one it had. The subject is checked before any byte is
 * stored; the images are checked (size while reading, type by content) and stored, then the review,
 * its images and the audit entry are written in one transaction, which also recounts the doctor's
 * rating. New images replace the old; without new images the old stay unless removeImages.
 */
export async function writeReview(
  environment: ReviewEnvironment,
  target: ReviewTarget,
  submission: ReviewSubmission,
): Promise<MyReview> {
  const { auth } = environment;
  requirePatientSession(auth);
  const images = submission.images ?? [];
  const check = async (tx: TenantTransaction) => {
    const profile = await requireProfile(tx, auth);
    assertProfileWritable(profile);
    const subject = await ratedDoctor(tx, environment, profile.patientId, target);
    return { patientId: profile.patientId, ...subject };
  };
  await withCaller(environment.database, auth, check);
  if (images.length > REVIEW_MAX_IMAGES)
    throw new AppError('review.tooManyImages', {
      fieldErrors: [{ field: 'body.images', code: 'tooMany', message: 'review.tooManyImages' }],
    });
  const stored = await storeImages(environment, images);
  let replaced: string[] = [];
  try {
    const review = await withCaller(environment.database, auth, async (tx) => {
      const subject = await check(tx);
      const now = environment.clock.now();
      const written = await store.upsertReview(tx, {
        tenantId: auth.tenantId,
        id: uuidv7(),
        patientId: subject.patientId,
        doctorId: subject.doctorId,
        appointmentId: subject.appointmentId,
        rating: submission.rating as number,
        message: submission.message ?? '',
        authorInitial: await store.authorInitialOf(tx, subject.patientId),
        userId: auth.userId,
        at: now,
      });
      if (stored.length > 0 || submission.removeImages === 'true') {
        replaced = (await store.imagesOf(tx, [written.id])).map((image) => image.storage_key);
        await store.deleteImages(tx, written.id);
        for (const [position, file] of stored.entries()) {
          await store.insertImage(tx, {
            tenantId: auth.tenantId,
            id: uuidv7(),
            reviewId: written.id,
            position,
            key: file.key,
            contentType: file.contentType,
            size: file.size,
            at: now,
          });
        }
      }
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'REVIEW_WRITTEN',
        subjectUserId: subject.doctorId,
        targetType: 'doctor_review',
        targetId: written.id,
        details: {
          patientId: subject.patientId,
          doctorId: subject.doctorId,
          appointmentId: subject.appointmentId,
          rating: submission.rating,
          images: stored.length,
          isNew: written.isNew,
        },
        at: now,
      });
      const row = await store.findReview(tx, written.id);
      if (row === undefined) throw new AppError('review.notFound');
      // The doctor learns of a new review (not of each edit), by the author's initial only.
      if (written.isNew)
        await notify(tx, auth.tenantId, {
          recipients: [subject.doctorId],
          kind: 'review.received',
          params: { rating: row.rating, authorInitial: row.author_initial, subject: row.appointment_id === null ? 'DOCTOR' : 'APPOINTMENT' },
          link: `/doctors/${subject.doctorId}`,
          senderId: null,
          at: now,
        });
      return toMyReview(row, await store.imagesOf(tx, [written.id]));
    });
    await removeFiles(environment, replaced);
    return review;
  } catch (error) {
    await removeFiles(environment, stored.map((file) => file.key));
    throw error;
  }
}

/** GET /health/me/reviews: the profile's own reviews (audited: they say who cares for the patient). */
export async function listMyReviews(environment: ReviewEnvironment, page: { page: number; size: number }) {
  requirePatientSession(environment.auth);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    // A followed patient's reviews are its own business: a follower's list is empty.
    const rows = profile.kind === 'FOLLOWED' ? [] : await store.listOwnReviews(tx, profile.patientId, page);
    const images = await store.imagesOf(
      tx,
      rows.map((row) => row.id),
    );
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      { action: 'REVIEWS_LISTED', patientIds: [profile.patientId], targetId: profile.patientId, details: { count: rows.length } },
      environment.clock.now(),
    );
    return {
      items: rows.map((row) => toMyReview(row, images)),
      page: page.page,
      size: page.size,
      total: rows[0]?.total ?? 0,
    };
  });
}

/**
 * A doctor's visible reviews as other patients see them (the author's initial only, no images),
 * with the doctor's rating: GET /health/me/doctors/:id/reviews and the console's doctor profile.
 */
export async function listDoctorReviews(
  environment: Pick<ReviewEnvironment, 'database' | 'auth' | 'clock'>,
  doctorId: string,
  page: { page: number; size: number },
): Promise<PublicReviewPage> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const doctor = await doctors.findDoctor(tx, doctorId, doctors.todayOf(environment.clock.now()));
    if (doctor === undefined) throw new AppError('doctor.notFound');
    const rows = await store.listDoctorReviews(tx, doctorId, page);
    const rating = await store.doctorRating(tx, doctorId);
    return {
      items: rows.map((row) => ({
        id: row.id,
        rating: row.rating,
        message: row.message,
        authorInitial: row.author_initial,
        subject: row.appointment_id === null ? ('DOCTOR' as const) : ('APPOINTMENT' as const),
        createdAt: isoOf(row.created_at),
      })),
      page: page.page,
      size: page.size,
      total: rows[0]?.total ?? 0,
      ...rating,
    };
  });
}

/** GET /health/me/doctors/:id/reviews: patient sessions only. */
export function listAppDoctorReviews(
  environment: ReviewEnvironment,
  doctorId: string,
  page: { page: number; size: number },
): Promise<PublicReviewPage> {
  requirePatientSession(environment.auth);
  return listDoctorReviews(environment, doctorId, page);
}

/** GET /account/reviews: the management list, audited as a read of the authors shown. */
export async function listReviews(environment: ReviewEnvironment, query: ReviewListQuery) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const rows = await store.listReviews(tx, query);
    const images = await store.imagesOf(
      tx,
      rows.map((row) => row.id),
    );
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      { action: 'REVIEWS_LISTED', patientIds: rows.map((row) => row.patient_id), targetType: 'doctor_review', details: { count: rows.length } },
      environment.clock.now(),
    );
    return {
      items: rows.map((row) => toReview(row, images)),
      page: query.page,
      size: query.size,
      total: rows[0]?.total ?? 0,
    };
  });
}

async function existingReview(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}) {
  const row = await store.findReview(tx, id, options);
  if (row === undefined) throw new AppError('review.notFound');
  return row;
}

/** GET /account/reviews/:id: one review with its images' ids (audited). */
export function readReview(environment: ReviewEnvironment, id: string): Promise<Review> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await existingReview(tx, id);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      { action: 'REVIEW_VIEWED', patientIds: [row.patient_id], targetType: 'doctor_review', targetId: id },
      environment.clock.now(),
    );
    return toReview(row, await store.imagesOf(tx, [id]));
  });
}

/** GET /account/reviews/:id/images/:imageId: an image's bytes (audited as a view of the review). */
export async function openReviewImage(environment: ReviewEnvironment, id: string, imageId: string): Promise<OpenedFile> {
  const key = await withCaller(environment.database, environment.auth, async (tx) => {
    const row = await existingReview(tx, id);
    const image = (await store.imagesOf(tx, [id])).find((candidate) => candidate.id === imageId);
    if (image === undefined) throw new AppError('review.notFound');
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      { action: 'REVIEW_VIEWED', patientIds: [row.patient_id], targetType: 'doctor_review', targetId: id, details: { imageId } },
      environment.clock.now(),
    );
    return image.storage_key;
  });
  const opened = await environment.storage.open(key);
  if (opened === undefined) throw new AppError('review.notFound');
  return opened;
}

const AUDIT_OF_ACTION = { report: 'REVIEW_REPORTED', hide: 'REVIEW_HIDDEN', unhide: 'REVIEW_UNHIDDEN' } as const;

/**
 * POST /account/reviews/:id/moderation: report (the report message), hide or show again, each with
 * its reason, by REVIEW_TRANSITIONS (review.wrongState otherwise). Hiding and showing recount the
 * doctor's rating in the same transaction. Audited with the reason.
 */
export function moderateReview(environment: ReviewEnvironment, id: string, input: ReviewModeration): Promise<Review> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const row = await existingReview(tx, id, { lock: true });
    const from = stateOf(row);
    const to = nextReviewState(from, input.action);
    if (to === undefined) throw new AppError('review.wrongState');
    const now = environment.clock.now();
    if (input.action === 'report') await store.setReport(tx, id, { message: input.reason, by: auth.userId, at: now });
    if (input.action === 'hide') await store.setHidden(tx, id, { reason: input.reason, by: auth.userId, at: now });
    if (input.action === 'unhide') await store.setHidden(tx, id, null);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: AUDIT_OF_ACTION[input.action],
      subjectUserId: row.doctor_id,
      targetType: 'doctor_review',
      targetId: id,
      details: { from, to, reason: input.reason, doctorId: row.doctor_id, patientId: row.patient_id },
      at: now,
    });
    return toReview(await existingReview(tx, id), await store.imagesOf(tx, [id]));
  });
}
