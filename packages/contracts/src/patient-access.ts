import { ROLE_PLACEMENT } from './staff.js';
import type { RoleCode } from './roles.js';

/**
 * The one access rule for a patient's data: who may read it and who may change it. It is written
 * here once and applied three times, always with the same outcome:
 *
 * - by the database (migration 0017, `app_patient_visible`): every patient-scoped table is read
 *   through the patients row, which a transaction sees only when this rule lets its caller;
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
 */

/** Who is asking, as far as patient data is concerned. */
export type PatientAccessSubject =
  /** A patient account: its own records only (later: patients who granted it access as follower). */
  | { kind: 'patient'; userId: string }
  /** Staff and platform staff: patients of the health centers their level sees. */
  | { kind: 'staff'; centers: 'all' | readonly string[] };

/** What the rule needs to know about a patient. */
export interface PatientFacts {
  tenantId: string;
  /** The patient's own account, if it has one. */
  userId: string | null;
  healthCenterId: string | null;
}

/**
 * How a patient relates to a caller: the cases the generated access test walks through. `own`
 * applies to patient accounts (for staff it is simply a patient of their center).
 */
export const PATIENT_RELATIONS = ['own', 'sameCenter', 'otherCenter', 'centerless', 'otherTenant'] as const;
export type PatientRelation = (typeof PATIENT_RELATIONS)[number];

/** Patient accounts (and custom roles built on the patient role) are patient subjects. */
export function isPatientRole(role: RoleCode): boolean {
  return ROLE_PLACEMENT[role] === 'none';
}

/** May this caller, acting in `tenantId`, read the patient's data? */
export function canReadPatient(subject: PatientAccessSubject, tenantId: string, patient: PatientFacts): boolean {
  if (patient.tenantId !== tenantId) return false;
  if (subject.kind === 'patient') return patient.userId !== null && patient.userId === subject.userId;
  if (subject.centers === 'all') return true;
  return patient.healthCenterId !== null && subject.centers.includes(patient.healthCenterId);
}

/**
 * May this caller change the patient's data? Exactly when it may read it: which changes it may
 * make is decided by the permission of each call (a patient account's permissions reach only what
 * a patient may change of its own record).
 */
export function canChangePatient(subject: PatientAccessSubject, tenantId: string, patient: PatientFacts): boolean {
  return canReadPatient(subject, tenantId, patient);
}

/**
 * May this caller receive a live event? An event about a patient: when it may read the patient
 * (as the patient is now: `patient` null means the patient no longer exists, and nobody gets it).
 * An event about no patient: by its health center, where null means whole-tenant callers only.
 */
export function canSeePatientEvent(
  subject: PatientAccessSubject,
  tenantId: string,
  event: { tenantId: string; patientId: string | null; healthCenterId: string | null; patient: PatientFacts | null },
): boolean {
  if (event.tenantId !== tenantId) return false;
  if (event.patientId !== null) return event.patient !== null && canReadPatient(subject, tenantId, event.patient);
  if (subject.kind === 'patient') return false;
  if (subject.centers === 'all') return true;
  return event.healthCenterId !== null && subject.centers.includes(event.healthCenterId);
}
