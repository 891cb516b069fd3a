import fastifyMultipart from '@fastify/multipart';
import {
  myReviewSchema,
  pageOf,
  pageQuerySchema,
  publicReviewPageSchema,
  reviewFieldsSchema,
  reviewListQuerySchema,
  reviewModerationSchema,
  reviewSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import path from 'node:path';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { sendImage } from '../../http/send-image.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { ReceivedFile } from '../org/logo.js';
import { readReviewForm, REVIEW_FORM_LIMITS } from './form.js';
import {
  listAppDoctorReviews,
  listDoctorReviews,
  listMyReviews,
  listReviews,
  moderateReview,
  openReviewImage,
  readReview,
  writeReview,
  type ReviewEnvironment,
} from './service.js';

const idParams = z.object({ id: z.uuid() });
const imageParams = z.object({ id: z.uuid(), imageId: z.uuid() });
/** The image parts; only the multipart reader creates ReceivedFiles. */
const imagesField = z
  .array(z.instanceof(ReceivedFile))
  .meta({ description: 'Up to 3 images: PNG, JPEG, GIF or WEBP (recognised by content), at most 5 MB each' })
  .optional();
const reviewBody = reviewFieldsSchema.safeExtend({
  images: imagesField,
  removeImages: z.enum(['true', 'false']).optional(),
});
const FORM_NOTE =
  'multipart/form-data: `rating` (1 to 5), `message` (at most 1000 characters), file parts `images` (at most 3: review.tooManyImages; PNG, JPEG, GIF or WEBP recognised by content, at most 5 MB: file.tooLarge 413, file.unsupportedType 415). New images replace the old ones; without images the old stay unless `removeImages=true`. Patient sessions only (health.noPatientProfile), for the session’s profile (own or a sub-user; a followed patient’s is read only: profile.readOnly). One review per subject: a new one replaces it. Audited (REVIEW_WRITTEN).';

function environmentFactory(app: Parameters<FastifyPluginAsyncZod>[0]) {
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  return (request: FastifyRequest): ReviewEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });
}

/** The patient app's ratings and reviews under /health/me. */
export const reviewMeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: REVIEW_FORM_LIMITS });
  app.addHook('preValidation', readReviewForm);
  const environmentOf = environmentFactory(app);
  const tags = ['patient app'];

  app.put(
    '/me/doctors/:id/review',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Rate a doctor on the profile’s care team, or one it saw at a completed appointment (review.noRelation otherwise)',
        description: FORM_NOTE,
        consumes: ['multipart/form-data'],
        params: idParams,
        body: reviewBody,
        response: { 200: successEnvelope(myReviewSchema) },
      },
    },
    async (request) => {
      const { images, removeImages, ...fields } = request.body;
      return ok(
        await writeReview(environmentOf(request), { kind: 'DOCTOR', doctorId: request.params.id }, { ...fields, images, removeImages }),
      );
    },
  );

  app.put(
    '/me/appointments/:id/review',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Rate one of the profile’s completed appointments (appointment.notFound, review.appointmentNotCompleted)',
        description: FORM_NOTE,
        consumes: ['multipart/form-data'],
        params: idParams,
        body: reviewBody,
        response: { 200: successEnvelope(myReviewSchema) },
      },
    },
    async (request) => {
      const { images, removeImages, ...fields } = request.body;
      return ok(
        await writeReview(
          environmentOf(request),
          { kind: 'APPOINTMENT', appointmentId: request.params.id },
          { ...fields, images, removeImages },
        ),
      );
    },
  );

  app.get(
    '/me/reviews',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'The profile’s own reviews, newest first, paged (page from 0, size). Patient sessions only. Audited (REVIEWS_LISTED)',
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(pageOf(myReviewSchema)) },
      },
    },
    async (request) => ok(await listMyReviews(environmentOf(request), request.query)),
  );

  app.get(
    '/me/doctors/:id/reviews',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary:
          'A doctor’s visible reviews with its rating, newest first, paged: rating, message, date and the author’s initial only (no other patient identity, no images). Patient sessions only',
        params: idParams,
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(publicReviewPageSchema) },
      },
    },
    async (request) => ok(await listAppDoctorReviews(environmentOf(request), request.params.id, request.query)),
  );
};

/** Rating and review management (spec §2) and a doctor's reviews on its profile, under /account. */
export const reviewAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFactory(app);
  const tags = ['reviews'];

  app.get(
    '/reviews',
    {
      config: { access: 'staff.view' },
      schema: {
        tags,
        summary:
          'Reviews the caller sees (its doctor and its author both visible to the caller’s level): paged, searchable (message, patient, doctor), filterable by rating, state (VISIBLE|REPORTED|HIDDEN) and doctorId, sortable (sortField created|rating|doctor). Audited (REVIEWS_LISTED)',
        querystring: reviewListQuerySchema,
        response: { 200: successEnvelope(pageOf(reviewSchema)) },
      },
    },
    async (request) => ok(await listReviews(environmentOf(request), request.query)),
  );

  app.get(
    '/reviews/:id',
    {
      config: { access: 'staff.view' },
      schema: {
        tags,
        summary: 'A review with its author, images and moderation trail (review.notFound). Audited (REVIEW_VIEWED)',
        params: idParams,
        response: { 200: successEnvelope(reviewSchema) },
      },
    },
    async (request) => ok(await readReview(environmentOf(request), request.params.id)),
  );

  app.get(
    '/reviews/:id/images/:imageId',
    {
      config: { access: 'staff.view' },
      schema: { tags, summary: 'A review image’s bytes. Audited (REVIEW_VIEWED)', params: imageParams },
    },
    async (request, reply) =>
      sendImage(reply, await openReviewImage(environmentOf(request), request.params.id, request.params.imageId), 'private, no-store'),
  );

  app.post(
    '/reviews/:id/moderation',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Report (the report message), hide or show again a review, each with a reason: VISIBLE → report → REPORTED, VISIBLE|REPORTED → hide → HIDDEN, HIDDEN → unhide → VISIBLE (review.wrongState otherwise). A hidden review counts in no average. Audited',
        params: idParams,
        body: reviewModerationSchema,
        response: { 200: successEnvelope(reviewSchema) },
      },
    },
    async (request) => ok(await moderateReview(environmentOf(request), request.params.id, request.body)),
  );

  app.get(
    '/doctors/:id/reviews',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary:
          'A doctor’s visible reviews with its rating, newest first, paged, as patients see them (the author’s initial only); reviews by patients outside the caller’s view are left out of the page, not of the average. doctor.notFound',
        params: idParams,
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(publicReviewPageSchema) },
      },
    },
    async (request) => ok(await listDoctorReviews(environmentOf(request), request.params.id, request.query)),
  );
};
