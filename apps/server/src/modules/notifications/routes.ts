import {
  forceStatusSchema,
  inboxPageSchema,
  inboxQuerySchema,
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
  notificationReadBodySchema,
  notificationSendAnswerSchema,
  notificationSendSchema,
  pushAnswerSchema,
  pushKeySchema,
  pushSubscribeSchema,
  pushUnsubscribeSchema,
  successEnvelope,
  unreadCountSchema,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import {
  markRead,
  readForceLog,
  readForceStatus,
  readInbox,
  readPreferences,
  readUnreadCount,
  sendMessage,
  subscribePush,
  unsubscribePush,
  updatePreferences,
  type NotificationEnvironment,
} from './service.js';

const tags = ['notifications'];
const OWN = 'The caller’s own notifications (staff in the console, a patient account in the app; a sub-user’s notices go to its holder).';

function environmentOf(app: Parameters<FastifyPluginAsyncZod>[0], request: FastifyRequest): NotificationEnvironment {
  return { database: app.database, clock: app.clock, auth: requireAuth(request), audit: auditContextOf(request) };
}

/** The notification centre's reads and preferences under /notification (spec §7). */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/notification/inbox',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: `${OWN} Newest first; page from 0, size 15 by default (spec §7); unread=true|false and type narrow it; with the unread count`,
        querystring: inboxQuerySchema,
        response: { 200: successEnvelope(inboxPageSchema) },
      },
    },
    async (request) => ok(await readInbox(environmentOf(app, request), request.query)),
  );

  app.get(
    '/getUnreadCount',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: `${OWN} How many are unread, and of them how many are mandatory notices still to acknowledge`,
        response: { 200: successEnvelope(unreadCountSchema) },
      },
    },
    async (request) => ok(await readUnreadCount(environmentOf(app, request))),
  );

  app.get(
    '/status/force',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary:
          'Mandatory ("force") notices: how many wait for the caller to acknowledge them, and the oldest, which the client shows over every screen until it is read',
        response: { 200: successEnvelope(forceStatusSchema) },
      },
    },
    async (request) => ok(await readForceStatus(environmentOf(app, request))),
  );

  app.get(
    '/log/force',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'The caller’s mandatory notices, newest first, acknowledged (read) or not; page from 0, size 15 by default',
        querystring: inboxQuerySchema.pick({ page: true, size: true }),
        response: { 200: successEnvelope(inboxPageSchema) },
      },
    },
    async (request) => ok(await readForceLog(environmentOf(app, request), request.query)),
  );

  app.get(
    '/preferences',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'The caller’s channels per notification type (on unless turned off; ALERT cannot be turned off)',
        response: { 200: successEnvelope(notificationPreferencesSchema) },
      },
    },
    async (request) => ok(await readPreferences(environmentOf(app, request))),
  );

  app.put(
    '/preferences',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'Turn channels on or off per type (ALERT stays on); answers every preference. Audited (NOTIFICATION_PREFERENCES_UPDATED)',
        body: notificationPreferencesUpdateSchema,
        response: { 200: successEnvelope(notificationPreferencesSchema) },
      },
    },
    async (request) => ok(await updatePreferences(environmentOf(app, request), request.body)),
  );
};

/** Web Push under /notification (spec §7 push/key, push/subscribe, push/unsubscribe). */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/push/key',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'The server’s VAPID public key (RFC 8292), the applicationServerKey a browser subscribes with',
        response: { 200: successEnvelope(pushKeySchema) },
      },
    },
    () => ok({ publicKey: app.config.webPush.publicKey }),
  );

  app.post(
    '/push/subscribe',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary:
          'Keep this browser’s push subscription (PushSubscription.toJSON(): endpoint and keys) for the caller: its notices are pushed to it, encrypted per RFC 8291, unless the caller turned push off for their type. The same endpoint again moves it to the caller',
        body: pushSubscribeSchema,
        response: { 200: successEnvelope(pushAnswerSchema) },
      },
    },
    async (request) => ok(await subscribePush(environmentOf(app, request), request.body, request.headers['user-agent'] ?? null)),
  );

  app.post(
    '/push/unsubscribe',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'Forget the caller’s subscription with this endpoint (none: nothing changes)',
        body: pushUnsubscribeSchema,
        response: { 200: successEnvelope(pushAnswerSchema) },
      },
    },
    async (request) => ok(await unsubscribePush(environmentOf(app, request), request.body.endpoint)),
  );
};

/** The notification centre's writes under /collector (spec §7: read, readAll, send). */
export const notificationCollectorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/notification/read',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'Mark one of the caller’s notifications read (a mandatory notice: acknowledged); notification.notFound for anyone else’s. Answers the counts',
        body: notificationReadBodySchema,
        response: { 200: successEnvelope(unreadCountSchema) },
      },
    },
    async (request) => ok(await markRead(environmentOf(app, request), request.body.id)),
  );

  app.post(
    '/notification/readAll',
    {
      config: { access: 'notification.view' },
      schema: {
        tags,
        summary: 'Mark every unread notification of the caller read, except mandatory notices (acknowledged one by one). Answers the counts',
        response: { 200: successEnvelope(unreadCountSchema) },
      },
    },
    async (request) => ok(await markRead(environmentOf(app, request), null)),
  );

  app.post(
    '/notification/send',
    {
      config: { access: 'notification.send' },
      schema: {
        tags,
        summary:
          'A message from staff to staff accounts (userIds) and patients (patientIds: the record’s account, or a sub-user’s holder) the sender sees; force makes it a mandatory notice. notification.noRecipients, notification.recipientNotFound (unknown, deleted, another center’s, or a patient account named as staff). Audited (NOTIFICATION_SENT)',
        body: notificationSendSchema,
        response: { 200: successEnvelope(notificationSendAnswerSchema) },
      },
    },
    async (request) => ok(await sendMessage(environmentOf(app, request), request.body)),
  );
};

