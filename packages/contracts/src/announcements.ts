import { z } from 'zod';
import { pageOf, pageQuerySchema } from './envelope.js';
import { safeName } from './text.js';

/**
 * Announcements (spec §1, §2 "announcements (compose, list)", §6 "super admins manage
 * announcements"): an admin writes a title and a rich-text body for an audience of the tenant and
 * publishes it now or at a time. Publishing writes one `announcement.published` notice per
 * recipient; the notice leads to the announcement (`/announcements/<id>` in the console and the
 * app), which only its recipients (and those who manage it) may read.
 *
 * States: DRAFT → SCHEDULED → PUBLISHED, DRAFT → PUBLISHED, DRAFT | SCHEDULED → CANCELED. A
 * published or canceled announcement is never edited again.
 */
export const ANNOUNCEMENT_STATUSES = ['DRAFT', 'SCHEDULED', 'PUBLISHED', 'CANCELED'] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];

/** Which states may still be edited or canceled (server and console read the same table). */
export const ANNOUNCEMENT_EDITABLE: readonly AnnouncementStatus[] = ['DRAFT', 'SCHEDULED'];

/**
 * Staff roles an announcement may be addressed to (tenant staff; admins and platform staff
 * compose them, patients are chosen with `patients`).
 */
export const ANNOUNCEMENT_STAFF_ROLES = [
  'ADMIN',
  'MAIN_ADMIN',
  'SUPPORT_ADMIN',
  'SCOPE_ADMIN',
  'MHSC_ADMIN',
  'OPERATOR',
  'CSKH',
  'DOCTOR',
  'DOCTOR_ASSISTANT',
  'COACH',
] as const;
export type AnnouncementStaffRole = (typeof ANNOUNCEMENT_STAFF_ROLES)[number];

export const ANNOUNCEMENT_TITLE_MAX = 120;
/** The body as HTML, before and after sanitizing. */
export const ANNOUNCEMENT_BODY_MAX = 20_000;
/** Recipients notified per step of the publishing job. */
export const ANNOUNCEMENT_BATCH_SIZE = 500;

/**
 * Who receives it: a place (nothing: the whole tenant; a scope with the scopes and centers below
 * it; or one health center) combined with who there — staff of the chosen roles and/or the
 * patients (each patient's account, or a sub-user's holder). At least one role or patients.
 */
export const announcementAudienceSchema = z
  .object({
    scopeId: z.uuid().nullable().default(null),
    centerId: z.uuid().nullable().default(null),
    staffRoles: z.array(z.enum(ANNOUNCEMENT_STAFF_ROLES)).max(ANNOUNCEMENT_STAFF_ROLES.length).default([]),
    patients: z.boolean().default(false),
  })
  .refine((audience) => audience.scopeId === null || audience.centerId === null, {
    path: ['centerId'],
    message: 'Choose a scope or a health center, not both',
  })
  .refine((audience) => audience.patients || audience.staffRoles.length > 0, {
    path: ['staffRoles'],
    message: 'Choose at least one role or the patients',
  });
export type AnnouncementAudience = z.infer<typeof announcementAudienceSchema>;

/** In-app is always on; push goes through the notification centre's Web Push; e-mail is optional. */
export const announcementChannelsSchema = z.object({
  push: z.boolean().default(true),
  email: z.boolean().default(false),
});

/** save: keep as a draft; publish: now; schedule: at `publishAt` (in the future). */
export const ANNOUNCEMENT_ACTIONS = ['save', 'publish', 'schedule'] as const;

export const announcementWriteSchema = z
  .object({
    title: safeName(ANNOUNCEMENT_TITLE_MAX),
    body: z.string().min(1).max(ANNOUNCEMENT_BODY_MAX).describe('HTML; sanitized by the server (basic formatting, lists, links)'),
    audience: announcementAudienceSchema,
    channels: announcementChannelsSchema.default({ push: true, email: false }),
    action: z.enum(ANNOUNCEMENT_ACTIONS),
    publishAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .refine((input) => input.action !== 'schedule' || input.publishAt !== null, {
    path: ['publishAt'],
    message: 'Choose when to publish it',
  });
export type AnnouncementWrite = z.input<typeof announcementWriteSchema>;

export const ANNOUNCEMENT_SORT_FIELDS = ['created', 'title', 'publishAt', 'status'] as const;
export const announcementListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(80).optional().describe('Part of the title'),
  status: z.enum(ANNOUNCEMENT_STATUSES).optional(),
  sortField: z.enum(ANNOUNCEMENT_SORT_FIELDS).default('created'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type AnnouncementListQuery = z.input<typeof announcementListQuerySchema>;

const placeRefSchema = z.object({ id: z.uuid(), name: z.string() }).nullable();

export const announcementSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  status: z.enum(ANNOUNCEMENT_STATUSES),
  audience: z.object({
    scope: placeRefSchema,
    center: placeRefSchema,
    staffRoles: z.array(z.enum(ANNOUNCEMENT_STAFF_ROLES)),
    patients: z.boolean(),
  }),
  channels: z.object({ push: z.boolean(), email: z.boolean() }),
  publishAt: z.iso.datetime().nullable(),
  publishedAt: z.iso.datetime().nullable(),
  canceledAt: z.iso.datetime().nullable(),
  authorName: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Notices written so far, and how many of them their recipients have read. */
  recipients: z.number().int().nonnegative(),
  read: z.number().int().nonnegative(),
});
export type AnnouncementSummary = z.infer<typeof announcementSummarySchema>;
export const announcementDetailSchema = announcementSummarySchema.extend({ bodyHtml: z.string() });
export type AnnouncementDetail = z.infer<typeof announcementDetailSchema>;
export const announcementPageSchema = pageOf(announcementSummarySchema);
export type AnnouncementPage = z.infer<typeof announcementPageSchema>;

/** What a recipient reads (GET /notification/announcements/:id). */
export const announcementViewSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  bodyHtml: z.string(),
  authorName: z.string(),
  publishedAt: z.iso.datetime(),
});
export type AnnouncementView = z.infer<typeof announcementViewSchema>;

export const announcementIdParamsSchema = z.object({ id: z.uuid() });
