import {
  CONTACT_LIMITS,
  type AuditAction,
  type ContactInput,
  type ContactType,
  type FollowerDataKind,
  type FollowerUpdate,
  type InvitationAction,
  type InvitationStatus,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import type { PatientContactRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { sendPatientMessage } from '../alerts/delivery.js';
import { fieldError } from '../alerts/environment.js';
import type { AlertPatient } from '../alerts/patient-context.js';
import { packageLimit } from '../packages/subscriptions.js';
import { publishEvent } from '../realtime/publish.js';
import {
  countActiveContacts,
  findContactForUpdate,
  hasActiveContactWithPhone,
  holderLanguageOf,
  insertContact,
  lastInvitationSentTo,
  ownPhonesOf,
  updateContactRow,
  type ContactPatch,
} from './contact-store.js';
import { decideInvitationMove, phoneDigits, type InvitationDecision } from './invitation-rules.js';
import { issueInvitationCode } from './invitation-code.js';
import { INVITATION_PURPOSE, renderInvitationText } from './invitation-texts.js';

/**
 * The changes to a patient's followers (spec §3 Follower or relative, §4 relative invitation,
 * §5 contacts, §9 limits), shared by the console (staff, /account/patients/:id/contacts) and the
 * patient app (/health/me/followers). Each runs in the caller's transaction with the patient row
 * already locked (loadAlertPatient with lock), so two concurrent adds cannot both pass a limit.
 */

export interface ContactActionContext {
  tenantId: string;
  clock: Clock;
  audit: AuditContext;
  /** Keys the hash of each invitation's one-time code. */
  secretsKey: Buffer;
}

/** Live event telling the patient's and the follower's apps to refetch (contracts realtime.ts). */
export const FOLLOWER_CHANGED = 'follower.changed';

async function audited(
  tx: TenantTransaction,
  context: ContactActionContext,
  action: AuditAction,
  patientId: string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(tx, context.tenantId, context.audit, { action, targetType: 'patient', targetId: patientId, details });
}

export async function publishFollowerChanged(
  tx: TenantTransaction,
  tenantId: string,
  patient: { id: string; healthCenterId: string | null },
  contactId: string,
): Promise<void> {
  await publishEvent(tx, tenantId, {
    type: FOLLOWER_CHANGED,
    patientId: patient.id,
    healthCenterId: patient.healthCenterId,
    payload: { contactId },
  });
}

/**
 * The product's limit of each type (5), lowered by the patient's package for caring followers and
 * coaches (package.upgradeRequired past the package's). Emergency contacts are never limited by a
 * package: an SOS must reach someone (docs/decisions.md).
 */
async function checkLimit(tx: TenantTransaction, patientId: string, contactType: ContactType, exceptId?: string) {
  const productLimit = CONTACT_LIMITS[contactType];
  const limit = contactType === 'EMERGENCY' ? productLimit : await packageLimit(tx, patientId, 'followerLimit', productLimit);
  if ((await countActiveContacts(tx, patientId, contactType, exceptId)) >= limit)
    throw fieldError(limit < productLimit ? 'package.upgradeRequired' : 'careTeam.limitReached', 'body.contactType');
}

async function checkPhone(tx: TenantTransaction, patientId: string, phone: string, exceptId?: string) {
  const digits = phoneDigits(phone);
  if ((await ownPhonesOf(tx, patientId)).some((own) => phoneDigits(own) === digits))
    throw fieldError('request.toSelf', 'body.phone');
  if (await hasActiveContactWithPhone(tx, patientId, phone, exceptId)) throw fieldError('contact.exists', 'body.phone', 'duplicate');
}

/** Queues the invitation SMS with its code (the caller stored the code's hash on the contact in the same transaction). */
async function sendInvitation(
  tx: TenantTransaction,
  context: ContactActionContext,
  patient: AlertPatient,
  contact: PatientContactRow,
  code: string,
) {
  // A sub-user has no account: its invitations speak its holder's language.
  const language = (patient.isSubUser ? await holderLanguageOf(tx, patient.id) : undefined) ?? patient.language;
  await sendPatientMessage(tx, context.clock, context.tenantId, {
    patient,
    contact,
    channel: 'SMS',
    recipient: contact.phone,
    toName: contact.name,
    body: renderInvitationText(language, {
      patientName: patient.fullName,
      contactType: contact.contactType as ContactType,
      code,
    }),
    purpose: INVITATION_PURPOSE,
  });
}

/** A contact of the patient for a move of the invitation machine, or the typed refusal. */
async function contactFor(
  tx: TenantTransaction,
  patientId: string,
  id: string,
  action: InvitationAction,
  now: Date,
): Promise<{ row: PatientContactRow; next: InvitationStatus }> {
  const row = await findContactForUpdate(tx, patientId, id);
  if (row === undefined) throw new AppError('contact.notFound');
  const decision = decideInvitationMove(
    { status: row.invitationStatus as InvitationStatus, lastSentAt: row.lastSentAt },
    action,
    now,
  );
  return { row, next: refuseUnless(decision) };
}

/** The next status of an allowed move; a refused one as its typed error (with Retry-After for a resend too soon). */
function refuseUnless(decision: InvitationDecision): InvitationStatus {
  if (decision.kind === 'MOVE') return decision.next;
  const headers = decision.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(decision.retryAfterSeconds) };
  throw new AppError(decision.code, headers === undefined ? {} : { headers });
}

/**
 * Invites a person by phone: a SENT contact and its SMS through the outbox. Not the patient's own
 * phone (request.toSelf), not a phone already among its non-deleted contacts (contact.exists),
 * within the limit of the type (careTeam.limitReached).
 */
export async function inviteContact(
  tx: TenantTransaction,
  context: ContactActionContext,
  patient: AlertPatient,
  input: ContactInput,
  invitedBy: string,
): Promise<PatientContactRow> {
  await checkPhone(tx, patient.id, input.phone);
  await checkLimit(tx, patient.id, input.contactType);
  const now = context.clock.now();
  // Deleting and inviting again is a resend: the same 5-minute wait, so a phone is not flooded.
  const lastSentAt = await lastInvitationSentTo(tx, patient.id, input.phone);
  if (lastSentAt !== undefined) refuseUnless(decideInvitationMove({ status: 'SENT', lastSentAt }, 'resend', now));
  const id = uuidv7();
  const issued = issueInvitationCode(context.secretsKey, id);
  const row = await insertContact(tx, {
    tenantId: context.tenantId,
    id,
    patientId: patient.id,
    ...input,
    invitationStatus: 'SENT',
    invitedBy,
    lastSentAt: now,
    invitationCodeHash: issued.hash,
    invitationCodeAttempts: 0,
    createdAt: now,
    updatedAt: now,
  });
  await sendInvitation(tx, context, patient, row, issued.code);
  await audited(tx, context, 'PATIENT_CONTACT_ADDED', patient.id, { contactId: row.id, contactType: input.contactType });
  return row;
}

/**
 * Edits a contact that is not deleted: alias, relationship, type (within the new type's limit),
 * favourite and, from the console, the phone of an invitation not yet confirmed (the confirmed
 * follower is an account: its phone is no longer the contact's identity).
 */
export async function editContact(
  tx: TenantTransaction,
  context: ContactActionContext,
  patient: AlertPatient,
  id: string,
  input: FollowerUpdate & { phone?: string },
): Promise<PatientContactRow> {
  const row = await findContactForUpdate(tx, patient.id, id);
  if (row === undefined) throw new AppError('contact.notFound');
  if (row.invitationStatus === 'DELETED') throw new AppError('contact.invalidTransition');
  const patch: ContactPatch = {
    contactType: input.contactType,
    name: input.name,
    relationship: input.relationship,
    favourite: input.favourite,
  };
  if (input.contactType !== row.contactType) await checkLimit(tx, patient.id, input.contactType, id);
  if (input.phone !== undefined && phoneDigits(input.phone) !== phoneDigits(row.phone)) {
    if (row.invitationStatus === 'CONFIRMED') throw new AppError('contact.invalidTransition');
    await checkPhone(tx, patient.id, input.phone, id);
    patch.phone = input.phone;
    // The code went to the old phone: the new one gets its own with the next resend.
    patch.invitationCodeHash = null;
  }
  const updated = await updateContactRow(tx, id, { ...patch, updatedAt: context.clock.now() });
  await audited(tx, context, 'PATIENT_CONTACT_UPDATED', patient.id, { contactId: id });
  return updated;
}

/**
 * Sends the invitation again (SENT or RESENT → RESENT), not within 5 minutes of the last send,
 * with a new code: the earlier one no longer confirms, and the wrong tries start again.
 */
export async function resendContact(
  tx: TenantTransaction,
  context: ContactActionContext,
  patient: AlertPatient,
  id: string,
): Promise<PatientContactRow> {
  const now = context.clock.now();
  const { next } = await contactFor(tx, patient.id, id, 'resend', now);
  const issued = issueInvitationCode(context.secretsKey, id);
  const updated = await updateContactRow(tx, id, {
    invitationStatus: next,
    lastSentAt: now,
    invitationCodeHash: issued.hash,
    invitationCodeAttempts: 0,
    updatedAt: now,
  });
  await sendInvitation(tx, context, patient, updated, issued.code);
  await audited(tx, context, 'PATIENT_CONTACT_INVITATION_RESENT', patient.id, { contactId: id });
  return updated;
}

/**
 * Deletes a contact (→ DELETED; the row stays as history). A confirmed follower loses its access
 * in the same transaction (the grant goes with the trigger of migration 0037).
 */
export async function deleteContact(
  tx: TenantTransaction,
  context: ContactActionContext,
  patient: AlertPatient,
  id: string,
): Promise<void> {
  const now = context.clock.now();
  const { row, next } = await contactFor(tx, patient.id, id, 'delete', now);
  await updateContactRow(tx, id, { invitationStatus: next, deletedAt: now, invitationCodeHash: null, updatedAt: now });
  if (row.followerUserId !== null) await publishFollowerChanged(tx, context.tenantId, patient, id);
  await audited(tx, context, 'PATIENT_CONTACT_REMOVED', patient.id, { contactId: id, from: row.invitationStatus });
}

/** Spec §6: the data kinds the patient hides from this follower (the database enforces them). */
export async function changeHiddenKinds(
  tx: TenantTransaction,
  context: ContactActionContext,
  patient: AlertPatient,
  id: string,
  hiddenKinds: FollowerDataKind[],
): Promise<PatientContactRow> {
  const row = await findContactForUpdate(tx, patient.id, id);
  if (row === undefined) throw new AppError('contact.notFound');
  if (row.invitationStatus === 'DELETED') throw new AppError('contact.invalidTransition');
  const updated = await updateContactRow(tx, id, { hiddenKinds, updatedAt: context.clock.now() });
  await publishFollowerChanged(tx, context.tenantId, patient, id);
  await audited(tx, context, 'PATIENT_CONTACT_HIDDEN_KINDS_UPDATED', patient.id, { contactId: id, hiddenKinds });
  return updated;
}
