import { notifyPatient } from '../notifications/notify.js';
import {
  isPatientRole,
  type Contact,
  type ErrorCode,
  type FollowedPatient,
  type FollowerDataKind,
  type FollowerInvite,
  type FollowerUpdate,
  type ReceivedInvitation,
} from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import type { PatientContactRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { listFollowers } from '../alerts/delivery.js';
import { fieldError, type AlertEnvironment } from '../alerts/environment.js';
import { withOwnPatient } from '../alerts/own-patient.js';
import type { AlertPatient } from '../alerts/patient-context.js';
import { toContact } from '../alerts/views.js';
import {
  changeHiddenKinds,
  deleteContact,
  editContact,
  inviteContact,
  publishFollowerChanged,
  resendContact,
  type ContactActionContext,
} from './contact-actions.js';
import { contactConflictOf } from './contact-store.js';
import {
  accountPhoneOf,
  answerInvitationRow,
  countWrongInvitationCode,
  followerNamesOf,
  listFollowedPatients,
  listInvitationsToPhone,
  lockInvitationToPhone,
  stopFollowingRow,
} from './follower-store.js';
import { checkInvitationCode, wrongCodeError } from './invitation-code.js';
import { decideInvitationMove } from './invitation-rules.js';

/**
 * The patient app's followers (spec §2 contacts: Followers, Following, My Patients; §4 relative
 * invitation). The followers calls work on the session's profile record (the own record, or a
 * sub-user it holds; a followed profile is read only: profile.readOnly); the invitation and
 * following calls are the account's own, whatever profile is chosen. Staff sessions have no
 * patient record: health.noPatientProfile.
 */

function contextOf(environment: AlertEnvironment): ContactActionContext {
  return { tenantId: environment.auth.tenantId, clock: environment.clock, audit: environment.audit, secretsKey: environment.secretsKey };
}

function assertPatientSession(environment: AlertEnvironment): void {
  if (!isPatientRole(environment.auth.role)) throw new AppError('health.noPatientProfile');
}

/** A change to the profile's followers: the patient row locked, messages kicked after commit, conflicts as contact.exists. */
async function changeFollowers<T>(
  environment: AlertEnvironment,
  work: (tx: TenantTransaction, patient: AlertPatient) => Promise<T>,
): Promise<T> {
  assertPatientSession(environment);
  try {
    const result = await withOwnPatient(environment, { lock: true, write: true }, work);
    environment.kick();
    return result;
  } catch (error) {
    throw contactConflictOf(error) ?? error;
  }
}

/** Contacts with their follower accounts' names (read past the patient's view: only these ids). */
async function withFollowerNames(environment: AlertEnvironment, rows: PatientContactRow[]): Promise<Contact[]> {
  const ids = [...new Set(rows.map((row) => row.followerUserId).filter((id): id is string => id !== null))];
  const names =
    ids.length === 0
      ? new Map<string, string>()
      : await environment.database.withTenant(environment.auth.tenantId, (tx) => followerNamesOf(tx, ids));
  return rows.map((row) => toContact(row, row.followerUserId === null ? undefined : names.get(row.followerUserId)));
}

/** GET /health/me/followers: the profile's contacts that are not deleted, favourite first. */
export async function listMyFollowers(environment: AlertEnvironment): Promise<Contact[]> {
  assertPatientSession(environment);
  const rows = await withOwnPatient(environment, { write: false }, async (tx, patient) => {
    const followers = await listFollowers(tx, patient.id);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'PATIENT_CONTACTS_VIEWED',
      patientIds: [patient.id],
      targetId: patient.id,
      details: { shown: followers.length },
    });
    return followers;
  });
  return withFollowerNames(environment, rows);
}

export async function inviteFollower(environment: AlertEnvironment, input: FollowerInvite): Promise<Contact> {
  const row = await changeFollowers(environment, (tx, patient) =>
    inviteContact(tx, contextOf(environment), patient, input, environment.auth.userId),
  );
  return toContact(row);
}

export async function updateFollower(environment: AlertEnvironment, id: string, input: FollowerUpdate): Promise<Contact> {
  const row = await changeFollowers(environment, (tx, patient) => editContact(tx, contextOf(environment), patient, id, input));
  return (await withFollowerNames(environment, [row]))[0] ?? toContact(row);
}

export async function hideFromFollower(
  environment: AlertEnvironment,
  id: string,
  hiddenKinds: FollowerDataKind[],
): Promise<Contact> {
  const row = await changeFollowers(environment, (tx, patient) =>
    changeHiddenKinds(tx, contextOf(environment), patient, id, hiddenKinds),
  );
  return (await withFollowerNames(environment, [row]))[0] ?? toContact(row);
}

export async function resendFollowerInvitation(environment: AlertEnvironment, id: string): Promise<Contact> {
  const row = await changeFollowers(environment, (tx, patient) => resendContact(tx, contextOf(environment), patient, id));
  return toContact(row);
}

export async function removeFollower(environment: AlertEnvironment, id: string): Promise<void> {
  await changeFollowers(environment, (tx, patient) => deleteContact(tx, contextOf(environment), patient, id));
}

// The invitee's side ----------------------------------------------------------------------------------

/**
 * Runs `work` in the caller's tenant WITHOUT the caller's patient view: an invitee cannot see the
 * inviting patient before confirming. Every query made in it names the caller's phone or user id.
 */
async function asInvitee<T>(
  environment: AlertEnvironment,
  work: (tx: TenantTransaction, phone: string | null) => Promise<T>,
): Promise<T> {
  assertPatientSession(environment);
  return environment.database.withTenant(environment.auth.tenantId, async (tx) =>
    work(tx, await accountPhoneOf(tx, environment.auth.userId)),
  );
}

/** GET /health/me/invitations: pending invitations sent to the account's phone (patient names only). */
export async function listReceivedInvitations(environment: AlertEnvironment): Promise<ReceivedInvitation[]> {
  return asInvitee(environment, async (tx, phone) => {
    if (phone === null) return [];
    const invitations = await listInvitationsToPhone(tx, phone);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'FOLLOWER_INVITATIONS_VIEWED',
      patientIds: invitations.map((invitation) => invitation.patientId),
      details: { shown: invitations.length },
    });
    return invitations.map(({ patientId: _patientId, ...invitation }) => invitation);
  });
}

/**
 * Confirms or declines an invitation to the account's phone. Confirming one's own (the patient's
 * account or its sub-user's holder) is request.toSelf; confirming needs the code of the
 * invitation's last SMS (invitation-code.ts: invitation.wrongCode, tooManyAttempts, codeExpired);
 * following the patient already is contact.exists (the unique index).
 */
async function answerInvitation(
  environment: AlertEnvironment,
  id: string,
  answer: { action: 'confirm'; code: string } | { action: 'delete' },
): Promise<string> {
  const { action } = answer;
  try {
    const outcome = await asInvitee(environment, async (tx, phone): Promise<{ patientId: string } | { refusal: ErrorCode }> => {
      const invitation = phone === null ? undefined : await lockInvitationToPhone(tx, id, phone);
      if (invitation === undefined) throw new AppError('invitation.notFound');
      const caller = environment.auth.userId;
      const now = environment.clock.now();
      if (action === 'confirm' && (invitation.patientUserId === caller || invitation.holderUserId === caller))
        throw new AppError('request.toSelf');
      const decision = decideInvitationMove({ status: invitation.status, lastSentAt: invitation.lastSentAt }, action, now);
      if (decision.kind === 'REFUSED') throw new AppError(decision.code);
      if (answer.action === 'confirm') {
        const stored = { contactId: id, hash: invitation.codeHash, attempts: invitation.codeAttempts, lastSentAt: invitation.lastSentAt };
        const check = checkInvitationCode(environment.secretsKey, stored, answer.code, now);
        // A wrong code is counted in this transaction, which commits: the refusal is thrown after it.
        if (check.kind === 'WRONG') return { refusal: wrongCodeError(await countWrongInvitationCode(tx, id)) };
        if (check.kind === 'REFUSED') return { refusal: check.code };
      }
      await answerInvitationRow(tx, id, decision.next, caller, now);
      await publishFollowerChanged(tx, environment.auth.tenantId, { id: invitation.patientId, healthCenterId: invitation.healthCenterId }, id);
      await recordAudit(tx, environment.auth.tenantId, environment.audit, {
        action: action === 'confirm' ? 'FOLLOWER_INVITATION_CONFIRMED' : 'FOLLOWER_INVITATION_DECLINED',
        targetType: 'patient',
        targetId: invitation.patientId,
        details: { contactId: id },
      });
      if (action === 'confirm')
        await notifyPatient(tx, environment.auth.tenantId, invitation.patientId, {
          kind: 'follow.accepted',
          params: { name: environment.auth.fullName },
          link: '/contacts',
          senderId: caller,
          at: now,
        });
      return { patientId: invitation.patientId };
    });
    // Said under the code field in the app.
    if ('refusal' in outcome) throw fieldError(outcome.refusal, 'body.code');
    return outcome.patientId;
  } catch (error) {
    throw contactConflictOf(error) ?? error;
  }
}

/** POST /health/me/invitations/:id/confirm: the account follows the patient from now on. */
export async function confirmInvitation(environment: AlertEnvironment, id: string, code: string): Promise<FollowedPatient> {
  await answerInvitation(environment, id, { action: 'confirm', code });
  const [followed] = await readFollowing(environment, id);
  if (followed === undefined) throw new AppError('invitation.notFound');
  return followed;
}

/** POST /health/me/invitations/:id/decline: the invitation is deleted. */
export async function declineInvitation(environment: AlertEnvironment, id: string): Promise<void> {
  await answerInvitation(environment, id, { action: 'delete' });
}

// Following ("My Patients") ------------------------------------------------------------------------

async function readFollowing(environment: AlertEnvironment, contactId?: string): Promise<FollowedPatient[]> {
  assertPatientSession(environment);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const followed = await listFollowedPatients(tx, environment.auth.userId, contactId);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'FOLLOWED_PATIENTS_VIEWED',
      patientIds: followed.map((patient) => patient.patientId),
      details: { shown: followed.length },
    });
    return followed;
  });
}

/** GET /health/me/following: the patients the account follows, with status, last reading and open SOS. */
export function listFollowing(environment: AlertEnvironment): Promise<FollowedPatient[]> {
  return readFollowing(environment);
}

/** DELETE /health/me/following/:contactId: the account stops following (→ DELETED; access ends at once). */
export async function stopFollowing(environment: AlertEnvironment, contactId: string): Promise<void> {
  await asInvitee(environment, async (tx) => {
    const stopped = await stopFollowingRow(tx, contactId, environment.auth.userId, environment.clock.now());
    if (stopped === undefined) throw new AppError('contact.notFound');
    await publishFollowerChanged(tx, environment.auth.tenantId, { id: stopped.patientId, healthCenterId: stopped.healthCenterId }, contactId);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'FOLLOWING_STOPPED',
      targetType: 'patient',
      targetId: stopped.patientId,
      details: { contactId },
    });
  });
}
