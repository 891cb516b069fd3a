import type { Contact, ContactInput } from '@rpm/contracts';
import type { TenantTransaction } from '../../db/database.js';
import type { PatientContactRow } from '../../db/schema.js';
import { recordPatientReads } from '../audit/reads.js';
import {
  deleteContact,
  editContact,
  inviteContact,
  resendContact,
  type ContactActionContext,
} from '../followers/contact-actions.js';
import { contactConflictOf } from '../followers/contact-store.js';
import { listFollowers } from './delivery.js';
import { asCaller, requirePatient, type AlertEnvironment } from './environment.js';
import type { AlertPatient } from './patient-context.js';
import { actorNames, toContact } from './views.js';

/**
 * A patient's followers from the console (spec §3 Follower or relative: emergency, caring and
 * coach contacts). A contact staff add is an invitation like one the patient sends from the app
 * (followers/contact-actions.ts holds the rules both use); the hidden data kinds are the
 * patient's choice, read only here.
 */

function contextOf(environment: AlertEnvironment): ContactActionContext {
  return { tenantId: environment.auth.tenantId, clock: environment.clock, audit: environment.audit, secretsKey: environment.secretsKey };
}

/** A change to a patient's contacts, the patient row locked; unique-index conflicts answer contact.exists. */
async function changeContacts<T>(
  environment: AlertEnvironment,
  patientId: string,
  work: (tx: TenantTransaction, patient: AlertPatient) => Promise<T>,
): Promise<T> {
  try {
    return await asCaller(environment, async (tx) => work(tx, await requirePatient(tx, patientId, { lock: true })));
  } catch (error) {
    throw contactConflictOf(error) ?? error;
  }
}

/** Contacts with the names of their follower accounts the caller's center rule lets it see. */
async function contactsOf(tx: TenantTransaction, rows: PatientContactRow[]): Promise<Contact[]> {
  const names = await actorNames(
    tx,
    rows.map((row) => row.followerUserId),
  );
  return rows.map((row) => toContact(row, row.followerUserId === null ? undefined : names.get(row.followerUserId)));
}

export async function listContacts(environment: AlertEnvironment, patientId: string): Promise<Contact[]> {
  return asCaller(environment, async (tx) => {
    await requirePatient(tx, patientId);
    const contacts = await contactsOf(tx, await listFollowers(tx, patientId));
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'PATIENT_CONTACTS_VIEWED',
      patientIds: [patientId],
      targetId: patientId,
      details: { shown: contacts.length },
    });
    return contacts;
  });
}

/**
 * Spec §9 limits (careTeam.limitReached), §5 "an existing follower cannot be added again"
 * (contact.exists), not the patient's own phone (request.toSelf). The invitation SMS goes out.
 */
export async function addContact(environment: AlertEnvironment, patientId: string, input: ContactInput): Promise<Contact> {
  const row = await changeContacts(environment, patientId, (tx, patient) =>
    inviteContact(tx, contextOf(environment), patient, input, environment.auth.userId),
  );
  return toContact(row);
}

export async function updateContact(
  environment: AlertEnvironment,
  patientId: string,
  id: string,
  input: ContactInput,
): Promise<Contact> {
  return changeContacts(environment, patientId, async (tx, patient) => {
    const row = await editContact(tx, contextOf(environment), patient, id, input);
    const [contact] = await contactsOf(tx, [row]);
    return contact ?? toContact(row);
  });
}

/** Sends the invitation again: not within 5 minutes of the last send (contact.resendTooSoon). */
export async function resendContactInvitation(environment: AlertEnvironment, patientId: string, id: string): Promise<Contact> {
  const row = await changeContacts(environment, patientId, (tx, patient) => resendContact(tx, contextOf(environment), patient, id));
  return toContact(row);
}

/** Marks the contact DELETED (the row stays as history); a confirmed follower loses access at once. */
export async function removeContact(environment: AlertEnvironment, patientId: string, id: string): Promise<void> {
  await changeContacts(environment, patientId, (tx, patient) => deleteContact(tx, contextOf(environment), patient, id));
}
