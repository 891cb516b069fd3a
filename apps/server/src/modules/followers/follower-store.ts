import type { FollowedPatient, InvitationStatus, ReceivedInvitation } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { phoneForms } from './invitation-rules.js';

/**
 * SQL of the follower's side: invitations waiting for an account's phone, and the patients an
 * account follows. The invitation reads run in a tenant transaction without the caller's patient
 * view (the invitee cannot see the inviting patient yet), so each query names the caller's phone
 * or user id itself.
 */

const PENDING = sql`('SENT', 'RESENT')`;
const OPEN_SOS = sql`('NEW', 'IN_PROCESS')`;

const toIso = (value: Date | string): string => new Date(value).toISOString();

/** The account's phone (null when it signed up with an email only). */
export async function accountPhoneOf(tx: TenantTransaction, userId: string): Promise<string | null> {
  const result = await tx.execute<{ phone: string | null }>(sql`SELECT phone FROM users WHERE id = ${userId}::uuid`);
  const phone = result.rows[0]?.phone ?? null;
  return phone === '' ? null : phone;
}

interface InvitationRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  first_name: string;
  last_name: string;
  relationship: string;
  contact_type: string;
  invitation_status: string;
  last_sent_at: Date | string;
}

/** Pending invitations sent to this phone by active patients, newest first: the patient's name only. */
export async function listInvitationsToPhone(
  tx: TenantTransaction,
  phone: string,
): Promise<(ReceivedInvitation & { patientId: string })[]> {
  const result = await tx.execute<InvitationRow>(sql`
    SELECT c.id, c.patient_id, p.first_name, p.last_name, c.relationship, c.contact_type, c.invitation_status, c.last_sent_at
      FROM patient_contacts c
      JOIN patients p ON p.tenant_id = c.tenant_id AND p.id = c.patient_id
     WHERE c.invitation_status IN ${PENDING} AND c.phone = ANY(${sql.param(phoneForms(phone))}::text[]) AND p.account_state = 'ACTIVE'
     ORDER BY c.last_sent_at DESC, c.id`);
  return result.rows.map((row) => ({
    id: row.id,
    patientId: row.patient_id,
    patientName: `${row.first_name} ${row.last_name}`.trim(),
    relationship: row.relationship as ReceivedInvitation['relationship'],
    contactType: row.contact_type as ReceivedInvitation['contactType'],
    status: row.invitation_status as ReceivedInvitation['status'],
    sentAt: toIso(row.last_sent_at),
  }));
}

export interface PendingInvitation {
  id: string;
  patientId: string;
  status: 'SENT' | 'RESENT';
  lastSentAt: Date;
  /** The hash of the last SMS's one-time code (null: none to confirm with) and the wrong tries against it. */
  codeHash: Buffer | null;
  codeAttempts: number;
  patientUserId: string | null;
  holderUserId: string | null;
  healthCenterId: string | null;
}

/** A pending invitation to this phone from an active patient, locked; undefined otherwise. */
export async function lockInvitationToPhone(
  tx: TenantTransaction,
  id: string,
  phone: string,
): Promise<PendingInvitation | undefined> {
  const result = await tx.execute<{
    id: string;
    patient_id: string;
    invitation_status: 'SENT' | 'RESENT';
    last_sent_at: Date | string;
    invitation_code_hash: Buffer | null;
    invitation_code_attempts: number;
    user_id: string | null;
    holder_user_id: string | null;
    health_center_id: string | null;
  }>(sql`
    SELECT c.id, c.patient_id, c.invitation_status, c.last_sent_at, c.invitation_code_hash, c.invitation_code_attempts,
           p.user_id, p.holder_user_id, p.health_center_id
      FROM patient_contacts c
      JOIN patients p ON p.tenant_id = c.tenant_id AND p.id = c.patient_id
     WHERE c.id = ${id}::uuid AND c.invitation_status IN ${PENDING} AND c.phone = ANY(${sql.param(phoneForms(phone))}::text[])
       AND p.account_state = 'ACTIVE'
       FOR UPDATE OF c`);
  const row = result.rows[0];
  if (row === undefined) return undefined;
  return {
    id: row.id,
    patientId: row.patient_id,
    status: row.invitation_status,
    lastSentAt: new Date(row.last_sent_at),
    codeHash: row.invitation_code_hash,
    codeAttempts: row.invitation_code_attempts,
    patientUserId: row.user_id,
    holderUserId: row.holder_user_id,
    healthCenterId: row.health_center_id,
  };
}

/** Counts a wrong code against a locked pending invitation; the wrong tries so far. */
export async function countWrongInvitationCode(tx: TenantTransaction, id: string): Promise<number> {
  const result = await tx.execute<{ attempts: number }>(sql`
    UPDATE patient_contacts SET invitation_code_attempts = invitation_code_attempts + 1
     WHERE id = ${id}::uuid RETURNING invitation_code_attempts AS attempts`);
  return result.rows[0]?.attempts ?? 0;
}

/** Moves a locked pending invitation: CONFIRMED by this account, or DELETED (declined); its code goes. */
export async function answerInvitationRow(
  tx: TenantTransaction,
  id: string,
  next: InvitationStatus,
  followerUserId: string,
  now: Date,
): Promise<void> {
  await tx.execute(
    next === 'CONFIRMED'
      ? sql`UPDATE patient_contacts SET invitation_status = 'CONFIRMED', follower_user_id = ${followerUserId}::uuid,
                   confirmed_at = ${now}, invitation_code_hash = NULL, updated_at = ${now} WHERE id = ${id}::uuid`
      : sql`UPDATE patient_contacts SET invitation_status = ${next}, deleted_at = ${next === 'DELETED' ? now : null},
                   invitation_code_hash = NULL, updated_at = ${now} WHERE id = ${id}::uuid`,
  );
}

/** Ends the caller's follow of a patient (CONFIRMED → DELETED); the patient it was about, or undefined. */
export async function stopFollowingRow(
  tx: TenantTransaction,
  contactId: string,
  followerUserId: string,
  now: Date,
): Promise<{ patientId: string; healthCenterId: string | null } | undefined> {
  const result = await tx.execute<{ patient_id: string; health_center_id: string | null }>(sql`
    UPDATE patient_contacts c SET invitation_status = 'DELETED', deleted_at = ${now}, updated_at = ${now}
      FROM patients p
     WHERE c.id = ${contactId}::uuid AND c.follower_user_id = ${followerUserId}::uuid AND c.invitation_status = 'CONFIRMED'
       AND p.tenant_id = c.tenant_id AND p.id = c.patient_id
    RETURNING c.patient_id, p.health_center_id`);
  const row = result.rows[0];
  return row === undefined ? undefined : { patientId: row.patient_id, healthCenterId: row.health_center_id };
}

interface FollowedRow extends Record<string, unknown> {
  contact_id: string;
  patient_id: string;
  first_name: string;
  last_name: string;
  contact_type: string;
  relationship: string;
  favourite: boolean;
  hidden_kinds: string[];
  status: string;
  last_reading_at: Date | string | null;
  confirmed_at: Date | string;
  sos_id: string | null;
  sos_status: string | null;
  sos_opened_at: Date | string | null;
}

/**
 * The patients the caller follows ("My Patients"), in the caller's own view (withCaller): the
 * database's access rule shows a followed patient's row and its SOS cases through the grant.
 * Favourites first, then by name.
 */
export async function listFollowedPatients(
  tx: TenantTransaction,
  followerUserId: string,
  contactId?: string,
): Promise<FollowedPatient[]> {
  const result = await tx.execute<FollowedRow>(sql`
    SELECT c.id AS contact_id, c.patient_id, p.first_name, p.last_name, c.contact_type, c.relationship, c.favourite,
           c.hidden_kinds, p.status, p.last_reading_at, c.confirmed_at,
           sos.id AS sos_id, sos.status AS sos_status, sos.opened_at AS sos_opened_at
      FROM patient_contacts c
      JOIN patients p ON p.tenant_id = c.tenant_id AND p.id = c.patient_id
      LEFT JOIN LATERAL (
        SELECT s.id, s.status, s.opened_at FROM sos_cases s
         WHERE s.tenant_id = c.tenant_id AND s.patient_id = c.patient_id AND s.status IN ${OPEN_SOS}
         ORDER BY s.opened_at DESC LIMIT 1) sos ON true
     WHERE c.follower_user_id = ${followerUserId}::uuid AND c.invitation_status = 'CONFIRMED' AND p.account_state = 'ACTIVE'
       ${contactId === undefined ? sql`` : sql`AND c.id = ${contactId}::uuid`}
     ORDER BY c.favourite DESC, p.first_name, p.last_name, c.id`);
  return result.rows.map((row) => ({
    contactId: row.contact_id,
    patientId: row.patient_id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    contactType: row.contact_type as FollowedPatient['contactType'],
    relationship: row.relationship as FollowedPatient['relationship'],
    favourite: row.favourite,
    hiddenKinds: row.hidden_kinds as FollowedPatient['hiddenKinds'],
    status: row.status as FollowedPatient['status'],
    lastReadingAt: row.last_reading_at === null ? null : toIso(row.last_reading_at),
    openSos:
      row.sos_id === null || row.sos_status === null || row.sos_opened_at === null
        ? null
        : {
            caseId: row.sos_id,
            status: row.sos_status as NonNullable<FollowedPatient['openSos']>['status'],
            openedAt: toIso(row.sos_opened_at),
          },
    confirmedAt: toIso(row.confirmed_at),
  }));
}

/**
 * Names of follower accounts. Read without the caller's patient view (a patient subject sees no
 * other patient's account): callers pass only the follower ids of contacts they were shown.
 */
export async function followerNamesOf(tx: TenantTransaction, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const result = await tx.execute<{ id: string; name: string }>(
    sql`SELECT id, trim(first_name || ' ' || last_name) AS name FROM users WHERE id = ANY(${sql.param(userIds)}::uuid[])`,
  );
  return new Map(result.rows.map((row) => [row.id, row.name]));
}
