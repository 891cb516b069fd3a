import { FOLLOWER_DATA_KINDS, type FollowerDataKind } from './alerts.js';
import { ROLE_PLACEMENT } from './staff.js';
import type { RoleCode } from './roles.js';

/**
 * The one access rule for a patient's data: who may read it and who may change it. It is written
 * here once and applied three times, always with the same outcome:
 *
 * - by the database (migrations 0017 and 0037, the patients policy): every patient-scoped table is
 *   read through the patients row, which a transaction sees only when this rule lets its caller;
 *   the follower limits below are policies of their own (migration 0037);
 * - by the services, which look patients up in that transaction (an invisible patient is 404);
 * - by the live-event hub, which calls `canSeePatientEvent` before it hands an event to a socket.
 *
 * A generated test (apps/server/src/http/patient-access.int.test.ts) calls every patient-scoped
 * route and `/ws` for every role and every relation below and compares the answer with this rule.
 *
 * What a caller may *do* to data it may read is the permission catalogue's business
 * (permissions.ts): reading decides whether the patient exists for the caller at all; the
 * permission decides which reads and changes are offered. A patient account holds only the
 * permissions of its own record (spec §6: it cannot update its medical profile).
 *
 * A patient account reaches three kinds of records: its own, those of the sub-users it holds (as
 * its own: it reads and changes them), and those of the patients it follows (spec §6: it reads
 * their record, health data and alerts, minus the data kinds the patient hides from it; never
 * their files, care team, requests, tickets, messages, devices, thresholds or other followers;
 * and it changes nothing of them).
 */

/** Who is asking, as far as patient data is concerned. */
export type PatientAccessSubject =
  /** A patient account: its own records, its sub-users', and the patients it follows. */
  | { kind: 'patient'; userId: string }
  /** Staff and platform staff: patients of the health centers their level sees. */
  | { kind: 'staff'; centers: 'all' | readonly string[] };

/** An account following a patient (a CONFIRMED contact), with the data kinds hidden from it. */
export interface FollowerGrant {
  userId: string;
  hiddenKinds: readonly string[];
}

/** What the rule needs to know about a patient. */
export interface PatientFacts {
  tenantId: string;
  /** The patient's own account, if it has one (a sub-user has none). */
  userId: string | null;
  healthCenterId: string | null;
  /** A sub-user's holder: the account that manages it. Absent or null: a main user. */
  holderUserId?: string | null;
  /** The accounts following the patient. Absent: none (an unknown follower is refused, never let in). */
  followers?: readonly FollowerGrant[];
}

/** How a caller reaches a patient it may read. */
export type PatientAccess = 'own' | 'holder' | 'follower' | 'staff';

/**
 * How a patient relates to a caller: the cases the generated access test walks through. `own`,
 * `heldSubUser` (a sub-user the patient account holds), `followed` (it follows the patient),
 * `followedHidden` (it follows the patient, who hides every data kind from it) and `unfollowed`
 * (its contact was deleted) apply to patient accounts; for staff they are simply patients of their
 * center.
 */
export const PATIENT_RELATIONS = [
  'own',
  'sameCenter',
  'otherCenter',
  'centerless',
  'otherTenant',
  'heldSubUser',
  'followed',
  'followedHidden',
  'unfollowed',
] as const;
export type PatientRelation = (typeof PATIENT_RELATIONS)[number];

/** Patient accounts (and custom roles built on the patient role) are patient subjects. */
export function isPatientRole(role: RoleCode): boolean {
  return ROLE_PLACEMENT[role] === 'none';
}

/** How this caller, acting in `tenantId`, reaches the patient; null: it may not read it at all. */
export function patientAccessOf(subject: PatientAccessSubject, tenantId: string, patient: PatientFacts): PatientAccess | null {
  if (patient.tenantId !== tenantId) return null;
  if (subject.kind === 'patient') {
    if (patient.userId !== null && patient.userId === subject.userId) return 'own';
    if (patient.holderUserId != null && patient.holderUserId === subject.userId) return 'holder';
    return followerGrantOf(subject, patient) === undefined ? null : 'follower';
  }
  if (subject.centers === 'all') return 'staff';
  return patient.healthCenterId !== null && subject.centers.includes(patient.healthCenterId) ? 'staff' : null;
}

function followerGrantOf(subject: PatientAccessSubject, patient: PatientFacts): FollowerGrant | undefined {
  if (subject.kind !== 'patient') return undefined;
  return patient.followers?.find((grant) => grant.userId === subject.userId);
}

/** May this caller, acting in `tenantId`, read the patient's data? */
export function canReadPatient(subject: PatientAccessSubject, tenantId: string, patient: PatientFacts): boolean {
  return patientAccessOf(subject, tenantId, patient) !== null;
}

/**
 * May this caller change the patient's data? When it reads it as owner, holder or staff: a
 * follower reads only. Which changes it may make is decided by the permission of each call (a
 * patient account's permissions reach only what a patient may change of its own record).
 */
export function canChangePatient(subject: PatientAccessSubject, tenantId: string, patient: PatientFacts): boolean {
  const access = patientAccessOf(subject, tenantId, patient);
  return access !== null && access !== 'follower';
}

/**
 * What of a patient a read concerns, as far as followers go: `record` (the patient's row, its
 * status, its own contact row), a health data kind (FOLLOWER_DATA_KINDS: readings of that kind,
 * ECG, sleep, sport, weight), `alerts`, `sos` (SOS cases), or `private` (files, care team,
 * requests, tickets, messages, calls, recordings, devices, thresholds, health events, status
 * history, other followers): what no follower sees.
 */
export type PatientData = 'record' | FollowerDataKind | 'alerts' | 'sos' | 'private';

const isFollowerDataKind = (data: PatientData): data is FollowerDataKind => (FOLLOWER_DATA_KINDS as readonly string[]).includes(data);

/**
 * May this caller read this part of the patient's data? Owner, holder and staff: whenever they
 * may read the patient. A follower: the record, alerts and SOS cases, and health data of the
 * kinds the patient does not hide from it; nothing private.
 */
export function canReadPatientData(subject: PatientAccessSubject, tenantId: string, patient: PatientFacts, data: PatientData): boolean {
  const access = patientAccessOf(subject, tenantId, patient);
  if (access === null) return false;
  if (access !== 'follower') return true;
  if (data === 'private') return false;
  if (isFollowerDataKind(data)) return !(followerGrantOf(subject, patient)?.hiddenKinds.includes(data) ?? true);
  return true;
}

/**
 * The live events about a followed patient its followers receive: its status, alerts and SOS
 * state, and changes of its followers (the same list as the events policy of migration 0037).
 * Hidden data kinds do not hold them back: an alert reaches every follower.
 */
export const FOLLOWER_EVENT_TYPES = ['patient.statusChanged', 'alert.raised', 'alert.updated', 'sos.opened', 'sos.updated', 'follower.changed'] as const;

/**
 * May this caller receive a live event? An event about a patient: when it may read the patient
 * (as the patient is now: `patient` null means the patient no longer exists, and nobody gets it),
 * and for a follower only the FOLLOWER_EVENT_TYPES. An event about no patient: by its health
 * center, where null means whole-tenant callers only.
 */
export function canSeePatientEvent(
  subject: PatientAccessSubject,
  tenantId: string,
  event: { tenantId: string; type: string; patientId: string | null; healthCenterId: string | null; patient: PatientFacts | null },
): boolean {
  if (event.tenantId !== tenantId) return false;
  if (event.patientId !== null) {
    if (event.patient === null) return false;
    const access = patientAccessOf(subject, tenantId, event.patient);
    if (access === 'follower') return (FOLLOWER_EVENT_TYPES as readonly string[]).includes(event.type);
    return access !== null;
  }
  if (subject.kind === 'patient') return false;
  if (subject.centers === 'all') return true;
  return event.healthCenterId !== null && subject.centers.includes(event.healthCenterId);
}
