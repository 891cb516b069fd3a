import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  feedbackListQuerySchema,
  feedbackReplyInputSchema,
  feedbackSchema,
  feedbackStatusChangeSchema,
  myFeedbackQuerySchema,
  pageOf,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { sendImage } from '../../http/send-image.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { FEEDBACK_FORM_LIMITS, receiveFeedbackForm } from './receive-form.js';
import {
  changeFeedbackStatus,
  listFeedback,
  listMyFeedback,
  openFeedbackImage,
  openMyFeedbackImage,
  readFeedback,
  replyToFeedback,
  sendFeedback,
  type FeedbackEnvironment,
} from './service.js';

const tags = ['feedback'];
const FORM =
  'multipart/form-data: fields `type` (ERROR|IMPROVE), `category` (SOFTWARE|HARDWARE|SERVICE), `description` (1 to 2000 characters), optional `suggestion`, and 0 to 5 file parts `images`: PNG, JPEG, GIF or WebP recognised by content, 1 byte to 5 MB (file.empty, file.tooLarge 413, file.unsupportedType 415, feedback.tooManyImages). Audited (FEEDBACK_SENT)';
const feedbackResponse = { 200: successEnvelope(feedbackSchema) };
const idParams = z.object({ id: z.uuid() });
const imageParams = z.object({ id: z.uuid(), imageId: z.uuid() });

async function feedbackPlugin(app: FastifyInstance) {
  // Registered per plugin, so only the feedback routes accept this form.
  await app.register(fastifyMultipart, { limits: FEEDBACK_FORM_LIMITS, throwFileSizeLimit: false });
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  return (request: FastifyRequest): FeedbackEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });
}

/** The patient app's feedback (spec §2 question and feedback) under /health/me: patient sessions only. */
export const feedbackMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = await feedbackPlugin(app);
  const patientOnly = (request: FastifyRequest) => {
    const environment = environmentOf(request);
    if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
    return environment;
  };
  const SELF = 'The patient account’s own (a staff session: health.noPatientProfile).';

  app.post(
    '/me/feedback',
    {
      config: { access: 'health.view' },
      schema: { tags, summary: `Send feedback from the app. ${SELF} ${FORM}`, consumes: ['multipart/form-data'], response: feedbackResponse },
    },
    async (request) => ok(await sendFeedback(patientOnly(request), receiveFeedbackForm(request))),
  );

  app.get(
    '/me/feedback',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The feedback the account sent, newest first, with customer care’s replies. ${SELF}`,
        querystring: myFeedbackQuerySchema,
        response: { 200: successEnvelope(pageOf(feedbackSchema)) },
      },
    },
    async (request) => ok(await listMyFeedback(patientOnly(request), request.query)),
  );

  app.get(
    '/me/feedback/:id/images/:imageId',
    {
      config: { access: 'health.view' },
      schema: { tags, summary: `An image of the account’s own feedback (its bytes). ${SELF} feedback.notFound otherwise`, params: imageParams },
    },
    async (request, reply) => sendImage(reply, await openMyFeedbackImage(patientOnly(request), request.params.id, request.params.imageId)),
  );
};

/**
 * The console's feedback under /account: every staff account sends its own and reads it back
 * (account.view); customer care and admins (user.feedback) work through the list of the centers
 * they see, change the status and reply.
 */
export const feedbackAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = await feedbackPlugin(app);

  app.post(
    '/feedback',
    {
      config: { access: 'account.view' },
      schema: { tags, summary: `Send feedback from the console. ${FORM}`, consumes: ['multipart/form-data'], response: feedbackResponse },
    },
    async (request) => ok(await sendFeedback(environmentOf(request), receiveFeedbackForm(request))),
  );

  app.get(
    '/feedback/mine',
    {
      config: { access: 'account.view' },
      schema: {
        tags,
        summary: 'The feedback the caller sent, newest first, with the replies',
        querystring: myFeedbackQuerySchema,
        response: { 200: successEnvelope(pageOf(feedbackSchema)) },
      },
    },
    async (request) => ok(await listMyFeedback(environmentOf(request), request.query)),
  );

  app.get(
    '/feedback/mine/:id/images/:imageId',
    {
      config: { access: 'account.view' },
      schema: { tags, summary: 'An image of the caller’s own feedback (its bytes); feedback.notFound otherwise', params: imageParams },
    },
    async (request, reply) => sendImage(reply, await openMyFeedbackImage(environmentOf(request), request.params.id, request.params.imageId)),
  );

  app.get(
    '/feedback',
    {
      config: { access: 'user.feedback' },
      schema: {
        tags,
        summary:
          'Feedback of the centers the caller sees (center-less senders: whole-tenant callers): paged, search (description, suggestion, sender), status, type, category, senderKind, sortField created|updated|status',
        querystring: feedbackListQuerySchema,
        response: { 200: successEnvelope(pageOf(feedbackSchema)) },
      },
    },
    async (request) => ok(await listFeedback(environmentOf(request), request.query)),
  );

  app.get(
    '/feedback/:id',
    {
      config: { access: 'user.feedback' },
      schema: { tags, summary: 'One feedback with its images and replies', params: idParams, response: feedbackResponse },
    },
    async (request) => ok(await readFeedback(environmentOf(request), request.params.id)),
  );

  app.get(
    '/feedback/:id/images/:imageId',
    {
      config: { access: 'user.feedback' },
      schema: { tags, summary: 'An image of a feedback (its bytes, with the type found when it was stored)', params: imageParams },
    },
    async (request, reply) => sendImage(reply, await openFeedbackImage(environmentOf(request), request.params.id, request.params.imageId)),
  );

  app.put(
    '/feedback/:id/status',
    {
      config: { access: 'user.feedback' },
      schema: {
        tags,
        summary:
          'Move a feedback along its workflow: NEW → IN_PROGRESS|RESOLVED|CLOSED, IN_PROGRESS → RESOLVED|CLOSED, RESOLVED → IN_PROGRESS|CLOSED; CLOSED is final (feedback.invalidTransition 409). Audited',
        params: idParams,
        body: feedbackStatusChangeSchema,
        response: feedbackResponse,
      },
    },
    async (request) => ok(await changeFeedbackStatus(environmentOf(request), request.params.id, request.body.status)),
  );

  app.post(
    '/feedback/:id/replies',
    {
      config: { access: 'user.feedback' },
      schema: {
        tags,
        summary:
          'Reply to a feedback (1 to 2000 characters): stored, audited, and sent to the sender’s notification centre (feedback.replied). A NEW feedback moves to IN_PROGRESS; a CLOSED one answers feedback.closed (409)',
        params: idParams,
        body: feedbackReplyInputSchema,
        response: feedbackResponse,
      },
    },
    async (request) => ok(await replyToFeedback(environmentOf(request), request.params.id, request.body.body)),
  );
};
