import { z } from 'zod';
import { GENDERS, pastDateSchema, personNameSchema } from './account.js';
import { otpCodeSchema } from './auth.js';
import {
  CONTACT_TYPES,
  contactInputSchema,
  FOLLOWER_DATA_KINDS,
  INVITATION_STATUSES,
  RELATIONSHIPS,
  type FollowerDataKind,
  type InvitationStatus,
} from './alerts.js';
import { VITAL_STATUSES } from './health.js';
import { LIMITS } from './limits.js';
import { SOS_CASE_STATUSES } from './cases.js';
import type { Measure } from './vitals.js';

/**
 * The people around a patient (spec §1, §3 Follower or relative and Sub-user, §4 relative
 * invitation, §5 contacts, §6, §9): followers invited by phone, who confirm in the app and then
 * follow the patient ("My Patients"), and sub-user profiles held by an account.
 *
 * Who sees what is the patient access rule (patient-access.ts, migration 0037): a follower sees
 * the patient's health data and alerts minus the kinds hidden from it; a holder sees its
 * sub-users' records as its own.
 */

// Data kinds -------------------------------------------------------------------------------------

/** The data kind of every measure (the database's measure_data_kind() is tested against it). */
export const MEASURE_DATA_KIND: Record<Measure, FollowerDataKind> = {
  HEART_RATE: 'HEART_RATE',
  HRV: 'HEART_RATE',
  SPO2: 'SPO2',
  SYSTOLIC: 'BLOOD_PRESSURE',
  DIASTOLIC: 'BLOOD_PRESSURE',
  TEMPERATURE: 'TEMPERATURE',
  GLUCOSE: 'BLOOD_TESTS',
  CHOLESTEROL: 'BLOOD_TESTS',
  URIC_ACID: 'BLOOD_TESTS',
  RESPIRATION: 'RESPIRATION',
  WEIGHT: 'BODY',
  HEIGHT: 'BODY',
  BMI: 'BODY',
  BODY_FAT_RATE: 'BODY',
  BODY_WATER_RATE: 'BODY',
  BODY_MUSCLE_RATE: 'BODY',
  BODY_MUSCLE_MASS: 'BODY',
  BONE_MASS: 'BODY',
  BONE_RATE: 'BODY',
  STEPS: 'ACTIVITY',
  CALORIES: 'ACTIVITY',
};

export const hiddenKindsSchema = z
  .array(z.enum(FOLLOWER_DATA_KINDS))
  .max(FOLLOWER_DATA_KINDS.length)
  .refine((kinds) => new Set(kinds).size === kinds.length, { error: 'must not repeat a kind' });

// Invitation lifecycle (spec §4: sent, resent, confirmed, deleted) ---------------------------------

export const INVITATION_ACTIONS = ['resend', 'confirm', 'delete'] as const;
export type InvitationAction = (typeof INVITATION_ACTIONS)[number];

/** The moves of an invitation, as data. DELETED is final (a new invitation is a new row). */
export const INVITATION_TRANSITIONS: Record<InvitationStatus, Partial<Record<InvitationAction, InvitationStatus>>> = {
  SENT: { resend: 'RESENT', confirm: 'CONFIRMED', delete: 'DELETED' },
  RESENT: { resend: 'RESENT', confirm: 'CONFIRMED', delete: 'DELETED' },
  CONFIRMED: { delete: 'DELETED' },
  DELETED: {},
};

export function nextInvitationStatus(status: InvitationStatus, action: InvitationAction): InvitationStatus | undefined {
  return INVITATION_TRANSITIONS[status][action];
}

/** Spec §4, §9: a resend is blocked within 5 minutes of the last send. */
export function resendAvailableAt(lastSentAt: Date): Date {
  return new Date(lastSentAt.getTime() + LIMITS.followerInviteResendMinutes * 60_000);
}

export function canResendAt(status: InvitationStatus, lastSentAt: Date, now: Date): boolean {
  return nextInvitationStatus(status, 'resend') !== undefined && now.getTime() >= resendAvailableAt(lastSentAt).getTime();
}

// The patient app: my followers ---------------------------------------------------------------------

/**
 * `POST /health/me/followers`: invite a person by phone (spec §2 contacts, §5: not oneself, not an
 * existing follower; §9 limits per contact type). The answer is the contact (contactSchema).
 */
export const followerInviteSchema = contactInputSchema;
export type FollowerInvite = z.infer<typeof followerInviteSchema>;

/** `PUT /health/me/followers/:id`: alias, relationship, contact type, favourite (not the phone). */
export const followerUpdateSchema = contactInputSchema.omit({ phone: true });
export type FollowerUpdate = z.infer<typeof followerUpdateSchema>;

/** `PUT /health/me/followers/:id/hidden`: the data kinds hidden from this follower (spec §6). */
export const followerHiddenSchema = z.object({ hiddenKinds: hiddenKindsSchema });
export type FollowerHidden = z.infer<typeof followerHiddenSchema>;

// The patient app: invitations received and patients followed ("My Patients") --------------------

/** An invitation waiting for the signed-in account (sent to its phone). */
export const receivedInvitationSchema = z.object({
  id: z.uuid(),
  /** The inviting patient's name as the invitee should recognise it. */
  patientName: z.string(),
  relationship: z.enum(RELATIONSHIPS),
  contactType: z.enum(CONTACT_TYPES),
  status: z.enum(INVITATION_STATUSES),
  sentAt: z.iso.datetime(),
});
export type ReceivedInvitation = z.infer<typeof receivedInvitationSchema>;

/**
 * `POST /health/me/invitations/:id/confirm`: the one-time code the invitation SMS carried
 * (OTP_RULES.digits digits), so that only the holder of the invited phone can confirm. Every send
 * replaces the code; it holds for INVITATION_CODE_DAYS at most; OTP_RULES.maxAttempts wrong codes
 * refuse it until a resend.
 */
export const invitationConfirmSchema = z.object({ code: otpCodeSchema });
export type InvitationConfirm = z.infer<typeof invitationConfirmSchema>;
/** An invitation's code is valid until the next send, and at most this many days after its own. */
export const INVITATION_CODE_DAYS = 7;

export const followedSosSchema = z.object({
  caseId: z.uuid(),
  status: z.enum(SOS_CASE_STATUSES),
  openedAt: z.iso.datetime(),
});

/** A patient the signed-in account follows. */
export const followedPatientSchema = z.object({
  contactId: z.uuid(),
  patientId: z.uuid(),
  name: z.string(),
  contactType: z.enum(CONTACT_TYPES),
  relationship: z.enum(RELATIONSHIPS),
  favourite: z.boolean(),
  /** What the patient hides from this follower. */
  hiddenKinds: z.array(z.enum(FOLLOWER_DATA_KINDS)),
  status: z.enum(VITAL_STATUSES),
  lastReadingAt: z.iso.datetime().nullable(),
  /** The patient's open SOS case, if any (spec §6: followers receive alerts). */
  openSos: followedSosSchema.nullable(),
  confirmedAt: z.iso.datetime(),
});
export type FollowedPatient = z.infer<typeof followedPatientSchema>;

// Sub-users (spec §3 Sub-user) --------------------------------------------------------------------

export const TREATED_CONDITIONS = ['HEART_DISEASE', 'HIGH_CHOLESTEROL', 'DIABETES', 'HIGH_BLOOD_PRESSURE'] as const;
export type TreatedCondition = (typeof TREATED_CONDITIONS)[number];

/**
 * Sub-users one account may hold. The spec names a maximum without its value; 5 is used
 * (docs/decisions.md). Packages may lower it later.
 */
export const SUB_USER_LIMIT = 5;

/** `POST /health/me/sub-users`, `PUT /health/me/sub-users/:id`. A sub-user may be a child: no age minimum. */
export const subUserInputSchema = z.object({
  firstName: personNameSchema,
  lastName: personNameSchema,
  gender: z.enum(GENDERS).nullable().default(null),
  birthday: pastDateSchema,
  relation: z.enum(RELATIONSHIPS),
  smoking: z.boolean(),
  treatedConditions: z
    .array(z.enum(TREATED_CONDITIONS))
    .refine((conditions) => new Set(conditions).size === conditions.length, { error: 'must not repeat a condition' })
    .default([]),
});
export type SubUserInput = z.infer<typeof subUserInputSchema>;

export const subUserSchema = z.object({
  id: z.uuid(),
  patientCode: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  gender: z.enum(GENDERS).nullable(),
  birthday: z.string(),
  relation: z.enum(RELATIONSHIPS),
  smoking: z.boolean(),
  treatedConditions: z.array(z.enum(TREATED_CONDITIONS)),
  status: z.enum(VITAL_STATUSES),
  lastReadingAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type SubUser = z.infer<typeof subUserSchema>;

// Profiles: whose data the app shows ------------------------------------------------------------

/**
 * The patient app works on one profile at a time: the account's own record, one of its sub-users
 * (read and write, never SOS), or a patient it follows (read only, minus hidden kinds). Every
 * self call (`/health/me/...`, `/collector/me/...`, `/health/alerts/...`) acts on the own record
 * unless this header names another profile the session may use (else 404 `profile.notFound`).
 */
export const PROFILE_HEADER = 'x-patient-profile';
export const PROFILE_KINDS = ['OWN', 'SUB_USER', 'FOLLOWED'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/** `GET /health/me/profiles`: the profiles the session can switch to, own first. */
export const appProfileSchema = z.object({
  patientId: z.uuid(),
  kind: z.enum(PROFILE_KINDS),
  name: z.string(),
  status: z.enum(VITAL_STATUSES),
  /** FOLLOWED: read only. */
  readOnly: z.boolean(),
  /** SUB_USER and FOLLOWED profiles never raise SOS from this session. */
  canRaiseSos: z.boolean(),
  hiddenKinds: z.array(z.enum(FOLLOWER_DATA_KINDS)),
});
export type AppProfile = z.infer<typeof appProfileSchema>;
