import { z } from 'zod';
import { pageOf } from './envelope.js';
import { safeName, safeNote } from './text.js';

/**
 * The notification centre (spec §3 Notification, §4 read / unread, §7 notification calls): every
 * event a person must know about becomes one row per recipient, written in the same transaction
 * as the event. Staff read theirs in the console's bell, patients in the app's inbox.
 *
 * Types are the spec's four (contact, prescription, reminder, request) and the ones the product
 * adds for what it has since grown: appointments, doctor schedules, alerts, announcements and
 * messages sent by staff.
 */
export const NOTIFICATION_TYPES = [
  'CONTACT',
  'PRESCRIPTION',
  'REMINDER',
  'REQUEST',
  'APPOINTMENT',
  'SCHEDULE',
  'ALERT',
  'ANNOUNCEMENT',
  'MESSAGE',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * What happened, one code per kind of event. The text is the reader's: clients render
 * `notifications:kinds.<kind>.title|body` in the reader's language with `params`, so a notice
 * written in English reads in Vietnamese to a Vietnamese reader. `message` is free text written
 * by a person (title and body are stored as written).
 */
export const NOTIFICATION_KINDS = {
  'prescription.created': 'PRESCRIPTION',
  'prescription.replaced': 'PRESCRIPTION',
  'prescription.deactivated': 'PRESCRIPTION',
  'reminder.created': 'REMINDER',
  'appointment.booked': 'APPOINTMENT',
  'appointment.updated': 'APPOINTMENT',
  'appointment.canceled': 'APPOINTMENT',
  'appointment.completed': 'APPOINTMENT',
  'schedule.approved': 'SCHEDULE',
  'schedule.rejected': 'SCHEDULE',
  'schedule.deletionApproved': 'SCHEDULE',
  'schedule.deletionRejected': 'SCHEDULE',
  'request.received': 'REQUEST',
  'follow.accepted': 'CONTACT',
  'sos.opened': 'ALERT',
  'feedback.replied': 'MESSAGE',
  /** To the doctor rated: params rating, authorInitial, subject (DOCTOR|APPOINTMENT). */
  'review.received': 'MESSAGE',
  /** To the patient: params packageName, endsAt. */
  'subscription.expiring': 'MESSAGE',
  'subscription.expired': 'MESSAGE',
  /** To the patient: params packageName, code (the order's). */
  'order.paid': 'MESSAGE',
  'order.refunded': 'MESSAGE',
  /** params: announcementId, title (as its author wrote it). */
  'announcement.published': 'ANNOUNCEMENT',
  message: 'MESSAGE',
} as const satisfies Record<string, NotificationType>;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NOTIFICATION_KIND_CODES = Object.keys(NOTIFICATION_KINDS) as [NotificationKind, ...NotificationKind[]];

/**
 * Delivery channels a person may choose per type. In-app is the inbox itself; e-mail, SMS and
 * push are sent through the outbox. ALERT cannot be turned off on any channel (an SOS must reach
 * a human); a FORCE notification is always written to the inbox.
 */
export const NOTIFICATION_CHANNELS = ['IN_APP', 'EMAIL', 'PUSH', 'SMS'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const ALWAYS_ON_NOTIFICATION_TYPES: readonly NotificationType[] = ['ALERT'];

/** A notification's parameters: names, dates and ids its text is filled with. */
const paramValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);

export const inboxNotificationSchema = z.object({
  id: z.uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  kind: z.enum(NOTIFICATION_KIND_CODES),
  params: z.record(z.string(), paramValue),
  /** Free text of a `message` (as its sender wrote it); null for every other kind. */
  title: z.string().nullable(),
  body: z.string().nullable(),
  /** Where the notification leads, a path of the reader's client (console or app); null: nowhere. */
  link: z.string().nullable(),
  /** A mandatory notice: stays on screen until the reader acknowledges it (opens it). */
  force: z.boolean(),
  read: z.boolean(),
  readAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type InboxNotification = z.infer<typeof inboxNotificationSchema>;

/** Spec §7 notification/inbox: page (from 0) and size, default 15; `unread` only narrows. */
export const inboxQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(15),
  unread: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  type: z.enum(NOTIFICATION_TYPES).optional(),
});
export type InboxQuery = z.input<typeof inboxQuerySchema>;
export const inboxPageSchema = pageOf(inboxNotificationSchema).extend({ unread: z.number().int().nonnegative() });
export type InboxPage = z.infer<typeof inboxPageSchema>;

export const unreadCountSchema = z.object({ unread: z.number().int().nonnegative(), forcePending: z.number().int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** POST /collector/notification/read: one of the caller's notifications (another's: notification.notFound). */
export const notificationReadBodySchema = z.object({ id: z.uuid() });

/**
 * "Force" notifications (spec §7 log/force and status/force): mandatory notices a person must
 * acknowledge before going on — the client shows the oldest unacknowledged one over every screen
 * until its reader opens it. Reading it acknowledges it; "read all" leaves force ones unread.
 * status/force: how many wait and the oldest; log/force: the reader's force notices, newest first.
 */
export const forceStatusSchema = z.object({
  pending: z.number().int().nonnegative(),
  oldest: inboxNotificationSchema.nullable(),
});
export type ForceStatus = z.infer<typeof forceStatusSchema>;

/**
 * POST /collector/notification/send: a message from staff (notification.send) to people of the
 * tenant: staff accounts by id, or patients (their account, or the holder of a sub-user) by patient
 * id, each of whom the sender must be able to see (else notification.recipientNotFound); at least
 * one (notification.noRecipients), at most 500 a call.
 */
export const NOTIFICATION_SEND_MAX_RECIPIENTS = 500;
export const notificationSendSchema = z.object({
    userIds: z.array(z.uuid()).max(NOTIFICATION_SEND_MAX_RECIPIENTS).default([]),
    patientIds: z.array(z.uuid()).max(NOTIFICATION_SEND_MAX_RECIPIENTS).default([]),
    title: safeName(120),
    body: safeNote(2000).pipe(z.string().min(1)),
    force: z.boolean().default(false),
    link: z
      .string()
      .max(300)
      .regex(/^\/[A-Za-z0-9/_\-?=&.%]*$/)
      .nullable()
      .default(null),
});
export type NotificationSend = z.input<typeof notificationSendSchema>;
export const notificationSendAnswerSchema = z.object({ sent: z.number().int().nonnegative() });

/** Per-person preferences: for each type, the channels turned on (missing: the default, on). */
export const notificationPreferenceSchema = z.object({
  type: z.enum(NOTIFICATION_TYPES),
  channel: z.enum(NOTIFICATION_CHANNELS),
  enabled: z.boolean(),
  /** False for ALERT: it cannot be turned off. */
  changeable: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;
export const notificationPreferencesSchema = z.object({ items: z.array(notificationPreferenceSchema) });
export const notificationPreferencesUpdateSchema = z.object({
  items: z
    .array(z.object({ type: z.enum(NOTIFICATION_TYPES), channel: z.enum(NOTIFICATION_CHANNELS), enabled: z.boolean() }))
    .min(1)
    .max(NOTIFICATION_TYPES.length * NOTIFICATION_CHANNELS.length),
});
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;

/** The live event a recipient's sockets get when a notification is written: refetch the count. */
export const NOTIFICATION_LIVE_EVENT = 'notification.created';

/** GET /notification/push/key: the server's VAPID public key (the applicationServerKey to subscribe with). */
export const pushKeySchema = z.object({ publicKey: z.string() });
/** A browser's PushSubscription as `toJSON()` gives it (endpoint and the RFC 8291 keys). */
export const pushSubscribeSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(1000),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{87}$/),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  }),
});
export type PushSubscribe = z.infer<typeof pushSubscribeSchema>;
export const pushUnsubscribeSchema = z.object({ endpoint: z.url({ protocol: /^https?$/ }).max(1000) });
export const pushAnswerSchema = z.object({ subscribed: z.boolean() });

/**
 * What a push carries to the service worker: no names or clinical details (a lock screen shows
 * it), only the kind's title and a line asking to open the app, where the notice is read.
 */
export const pushPayloadSchema = z.object({
  notificationId: z.uuid(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
