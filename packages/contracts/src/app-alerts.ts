import { z } from 'zod';
import { ALERT_SOURCES, ALERT_STATUSES, sosRaiseSchema } from './alerts.js';
import { ALERT_TYPES } from './cases.js';
import { pageOf } from './envelope.js';
import { LIMITS } from './limits.js';
import { ALERT_LEVELS } from './thresholds.js';

/**
 * The patient app's alert calls (spec §2 "SOS message choice and recording", "notifications"; §4
 * alerts in the patient app): the SOS with the patient's message choice, the voice recording
 * attached to the SOS case, the high-risk alert waiting for an answer, and the notifications list.
 */

/** The messages a patient may pick before the SOS goes out (spec §2 SOS message choice). */
export const SOS_MESSAGE_CHOICES = ['NEED_HELP', 'FELL', 'CHEST_PAIN', 'BREATHING', 'UNWELL'] as const;
export type SosMessageChoice = (typeof SOS_MESSAGE_CHOICES)[number];

/** `POST /health/alerts/sos` from the app: the SOS, where the phone is, and the message chosen. */
export const appSosRaiseSchema = sosRaiseSchema.extend({
  message: z.enum(SOS_MESSAGE_CHOICES).nullish(),
});
export type AppSosRaise = z.input<typeof appSosRaiseSchema>;
export const sosRaisedSchema = z.object({ sosCaseId: z.uuid() });

/** The SOS button's countdown and the high-risk confirmation default (spec §9). */
export const SOS_COUNTDOWN_SECONDS = LIMITS.sosCountdownSeconds;

/** Voice recordings: up to a minute, a few hundred kilobytes in Opus; the bytes decide the type. */
export const SOS_RECORDING_MAX_SECONDS = 60;
export const SOS_RECORDING_MAX_BYTES = 2 * 1024 * 1024;
export const SOS_RECORDING_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4'] as const;
export type SosRecordingType = (typeof SOS_RECORDING_TYPES)[number];

/**
 * The form fields sent before the file (multipart `POST /health/me/sos/recordings`): the case the
 * recording belongs to, an id the phone draws once per recording (a retried upload stores it
 * once), and its length.
 */
export const sosRecordingFieldsSchema = z.object({
  sosCaseId: z.uuid(),
  uploadId: z.uuid(),
  durationSeconds: z.coerce.number().int().min(0).max(SOS_RECORDING_MAX_SECONDS),
});
export type SosRecordingFields = z.infer<typeof sosRecordingFieldsSchema>;

export const sosRecordingSchema = z.object({
  id: z.uuid(),
  sosCaseId: z.uuid(),
  contentType: z.enum(SOS_RECORDING_TYPES),
  sizeBytes: z.number().int(),
  durationSeconds: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type SosRecording = z.infer<typeof sosRecordingSchema>;

/**
 * `GET /health/me/alerts/waiting`: the high-risk alert that waits for "I am fine" or "call
 * followers" (null: none), and when the server's escalation goes ahead without an answer.
 */
export const waitingAlertSchema = z.object({
  alert: z
    .object({
      id: z.uuid(),
      type: z.enum(ALERT_TYPES),
      createdAt: z.iso.datetime(),
      deadline: z.iso.datetime(),
    })
    .nullable(),
  confirmSeconds: z.number().int(),
  now: z.iso.datetime(),
});
export type WaitingAlert = z.infer<typeof waitingAlertSchema>;

/** One notification of the patient: an alert raised for them (spec §3 Notification: read flag). */
export const appNotificationSchema = z.object({
  id: z.uuid(),
  type: z.enum(ALERT_TYPES),
  level: z.enum(ALERT_LEVELS),
  status: z.enum(ALERT_STATUSES),
  source: z.enum(ALERT_SOURCES),
  sosCaseId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  read: z.boolean(),
});
export type AppNotification = z.infer<typeof appNotificationSchema>;

/** Spec §7 notification/inbox: default page size 15. */
export const NOTIFICATION_PAGE_SIZE = 15;
export const notificationListQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(100).default(NOTIFICATION_PAGE_SIZE),
});
export const notificationPageSchema = pageOf(appNotificationSchema).extend({
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;
export const notificationReadSchema = z.object({ id: z.uuid() });
export const notificationReadAnswerSchema = z.object({ unread: z.number().int() });

/**
 * The patient app's live channel: a browser WebSocket cannot send an Authorization header, so the
 * app offers the subprotocols `[LIVE_BEARER_PROTOCOL, accessToken]` and the server picks this one.
 */
export const LIVE_BEARER_PROTOCOL = 'rpm.bearer';
