import {
  announcementDetailSchema,
  announcementIdParamsSchema,
  announcementListQuerySchema,
  announcementPageSchema,
  announcementViewSchema,
  announcementWriteSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import {
  cancelAnnouncement,
  createAnnouncement,
  readAnnouncementAsRecipient,
  readAnnouncementDetail,
  readAnnouncements,
  updateAnnouncement,
  type AnnouncementEnvironment,
} from './service.js';

const tags = ['announcements'];
const LEVEL =
  'Within the caller’s level: the whole tenant needs a caller who sees all of it (super admins act in the tenant they switched to); a scope admin addresses their scope or one below it, a center admin their center (auth.permissionDenied above it, center.notFound or scope.notFound for one out of reach).';

function environmentOf(app: Parameters<FastifyPluginAsyncZod>[0], request: FastifyRequest): AnnouncementEnvironment {
  return { database: app.database, clock: app.clock, auth: requireAuth(request), audit: auditContextOf(request) };
}

/** Composing and listing announcements (spec §2 "announcements (compose, list)"), under /manage. */
export const announcementManageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/announcements',
    {
      config: { access: 'notification.announce' },
      schema: {
        tags,
        summary: `Announcements the caller manages, with recipients and read counts; page, search (title), status, sortField, sortType. ${LEVEL}`,
        querystring: announcementListQuerySchema,
        response: { 200: successEnvelope(announcementPageSchema) },
      },
    },
    async (request) => ok(await readAnnouncements(environmentOf(app, request), request.query)),
  );
  app.post(
    '/announcements',
    {
      config: { access: 'notification.announce' },
      schema: {
        tags,
        summary: `Compose: save a draft, schedule (publishAt in the future, else common.invalidParameter on body.publishAt) or publish now. The body is sanitized (common.invalidParameter on body.body when no text is left). ${LEVEL} Audited (ANNOUNCEMENT_CREATED, ANNOUNCEMENT_PUBLISHED)`,
        body: announcementWriteSchema,
        response: { 200: successEnvelope(announcementDetailSchema) },
      },
    },
    async (request) => ok(await createAnnouncement(environmentOf(app, request), request.body)),
  );
  app.get(
    '/announcements/:id',
    {
      config: { access: 'notification.announce' },
      schema: {
        tags,
        summary: `One announcement with its body and counts. ${LEVEL}`,
        params: announcementIdParamsSchema,
        response: { 200: successEnvelope(announcementDetailSchema) },
      },
    },
    async (request) => ok(await readAnnouncementDetail(environmentOf(app, request), request.params.id)),
  );
  app.put(
    '/announcements/:id',
    {
      config: { access: 'notification.announce' },
      schema: {
        tags,
        summary: `Rewrite a draft or scheduled announcement (announcement.notEditable once published or canceled) and save, schedule or publish it. ${LEVEL} Audited (ANNOUNCEMENT_UPDATED)`,
        params: announcementIdParamsSchema,
        body: announcementWriteSchema,
        response: { 200: successEnvelope(announcementDetailSchema) },
      },
    },
    async (request) => ok(await updateAnnouncement(environmentOf(app, request), request.params.id, request.body)),
  );
  app.post(
    '/announcements/:id/cancel',
    {
      config: { access: 'notification.announce' },
      schema: {
        tags,
        summary: `Cancel a draft or scheduled announcement (its publishing job is removed); announcement.notEditable once published. ${LEVEL} Audited (ANNOUNCEMENT_CANCELED)`,
        params: announcementIdParamsSchema,
        response: { 200: successEnvelope(announcementDetailSchema) },
      },
    },
    async (request) => ok(await cancelAnnouncement(environmentOf(app, request), request.params.id)),
  );
};

/** Reading a received announcement (console and app), under /notification. */
export const announcementReadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/announcements/:id',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary:
          'A published announcement the caller received (its notice is marked read); announcement.notFound for anyone else. The body is sanitized HTML',
        params: announcementIdParamsSchema,
        response: { 200: successEnvelope(announcementViewSchema) },
      },
    },
    async (request) => ok(await readAnnouncementAsRecipient(environmentOf(app, request), request.params.id)),
  );
};
