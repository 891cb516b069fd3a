import { CONTACT_LIMITS, type Contact, type ContactInput } from '@rpm/contracts';
import { and, count, eq, ne } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { patientContacts } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { listFollowers } from './delivery.js';
import { asCaller, fieldError, requirePatient, type AlertEnvironment } from './environment.js';
import { toContact } from './views.js';

/** Followers of a patient (spec §3 Follower or relative): emergency and caring contacts. */

function duplicateOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    if (
      'code' in current &&
      current.code === '23505' &&
      'constraint' in current &&
      current.constraint === 'patient_contacts_phone_key'
    ) {
      return fieldError('contact.exists', 'body.phone', 'duplicate');
    }
    current = current.cause;
  }
  return undefined;
}

export async function listContacts(environment: AlertEnvironment, patientId: string): Promise<Contact[]> {
  return asCaller(environment, async (tx) => {
    await requirePatient(tx, patientId);
    const contacts = (await listFollowers(tx, patientId)).map(toContact);
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
 * Checks spec §9's limits (5 emergency, 5 caring: careTeam.limitReached) and §5's "an existing
 * follower cannot be added again" (contact.exists). The patient row is locked, so two concurrent
 * adds cannot both pass the count.
 */
async function checkLimit(
  tx: Parameters<Parameters<typeof asCaller>[1]>[0],
  patientId: string,
  input: ContactInput,
  exceptId?: string,
) {
  const conditions = [
    eq(patientContacts.patientId, patientId),
    eq(patientContacts.contactType, input.contactType),
  ];
  if (exceptId !== undefined) conditions.push(ne(patientContacts.id, exceptId));
  const [row] = await tx
    .select({ total: count() })
    .from(patientContacts)
    .where(and(...conditions));
  if ((row?.total ?? 0) >= CONTACT_LIMITS[input.contactType])
    throw fieldError('careTeam.limitReached', 'body.contactType');
}

export async function addContact(
  environment: AlertEnvironment,
  patientId: string,
  input: ContactInput,
): Promise<Contact> {
  try {
    return await asCaller(environment, async (tx) => {
      const patient = await requirePatient(tx, patientId, { lock: true });
      if (patient.phone !== null && patient.phone === input.phone) throw new AppError('request.toSelf');
      await checkLimit(tx, patientId, input);
      const now = environment.clock.now();
      const [row] = await tx
        .insert(patientContacts)
        .values({
          tenantId: environment.auth.tenantId,
          id: uuidv7(),
          patientId,
          ...input,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (row === undefined) throw new Error('contact not stored');
      await recordAudit(tx, environment.auth.tenantId, environment.audit, {
        action: 'PATIENT_CONTACT_ADDED',
        targetType: 'patient',
        targetId: patientId,
        details: { contactId: row.id, contactType: input.contactType },
      });
      return toContact(row);
    });
  } catch (error) {
    throw duplicateOf(error) ?? error;
  }
}

export async function updateContact(
  environment: AlertEnvironment,
  patientId: string,
  id: string,
  input: ContactInput,
): Promise<Contact> {
  try {
    return await asCaller(environment, async (tx) => {
      const patient = await requirePatient(tx, patientId, { lock: true });
      if (patient.phone !== null && patient.phone === input.phone) throw new AppError('request.toSelf');
      await checkLimit(tx, patientId, input, id);
      const [row] = await tx
        .update(patientContacts)
        .set({ ...input, updatedAt: environment.clock.now() })
        .where(and(eq(patientContacts.id, id), eq(patientContacts.patientId, patientId)))
        .returning();
      if (row === undefined) throw new AppError('contact.notFound');
      await recordAudit(tx, environment.auth.tenantId, environment.audit, {
        action: 'PATIENT_CONTACT_UPDATED',
        targetType: 'patient',
        targetId: patientId,
        details: { contactId: id },
      });
      return toContact(row);
    });
  } catch (error) {
    throw duplicateOf(error) ?? error;
  }
}

export async function removeContact(
  environment: AlertEnvironment,
  patientId: string,
  id: string,
): Promise<void> {
  await asCaller(environment, async (tx) => {
    await requirePatient(tx, patientId, { lock: true });
    const removed = await tx
      .delete(patientContacts)
      .where(and(eq(patientContacts.id, id), eq(patientContacts.patientId, patientId)))
      .returning({ id: patientContacts.id });
    if (removed.length === 0) throw new AppError('contact.notFound');
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'PATIENT_CONTACT_REMOVED',
      targetType: 'patient',
      targetId: patientId,
      details: { contactId: id },
    });
  });
}
