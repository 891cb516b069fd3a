import type { ContactType } from '@rpm/contracts';
import { and, count, eq, inArray, max, ne, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { patientContacts, type PatientContactRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { fieldError } from '../alerts/environment.js';
import { phoneForms } from './invitation-rules.js';

/** SQL of a patient's followers (patient_contacts): what the contact actions read and write. */

export type ContactPatch = Partial<
  Pick<
    PatientContactRow,
    | 'contactType'
    | 'name'
    | 'phone'
    | 'relationship'
    | 'favourite'
    | 'invitationStatus'
    | 'followerUserId'
    | 'lastSentAt'
    | 'confirmedAt'
    | 'deletedAt'
    | 'hiddenKinds'
    | 'invitationCodeHash'
    | 'invitationCodeAttempts'
  >
>;

/** A contact of the patient (any state), locked until the end of the transaction. */
export async function findContactForUpdate(
  tx: TenantTransaction,
  patientId: string,
  id: string,
): Promise<PatientContactRow | undefined> {
  const [row] = await tx
    .select()
    .from(patientContacts)
    .where(and(eq(patientContacts.patientId, patientId), eq(patientContacts.id, id)))
    .for('update');
  return row;
}

/** Non-deleted contacts of one type (spec §9 limits count these; deleted rows are history). */
export async function countActiveContacts(
  tx: TenantTransaction,
  patientId: string,
  contactType: ContactType,
  exceptId?: string,
): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(patientContacts)
    .where(
      and(
        eq(patientContacts.patientId, patientId),
        eq(patientContacts.contactType, contactType),
        ne(patientContacts.invitationStatus, 'DELETED'),
        exceptId === undefined ? undefined : ne(patientContacts.id, exceptId),
      ),
    );
  return row?.total ?? 0;
}

/** Is there a non-deleted contact of the patient with this phone (compared by digits)? */
export async function hasActiveContactWithPhone(
  tx: TenantTransaction,
  patientId: string,
  phone: string,
  exceptId?: string,
): Promise<boolean> {
  const rows = await tx
    .select({ id: patientContacts.id })
    .from(patientContacts)
    .where(
      and(
        eq(patientContacts.patientId, patientId),
        ne(patientContacts.invitationStatus, 'DELETED'),
        inArray(patientContacts.phone, phoneForms(phone)),
        exceptId === undefined ? undefined : ne(patientContacts.id, exceptId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** When the patient last sent an invitation to this phone, deleted contacts included (undefined: never). */
export async function lastInvitationSentTo(tx: TenantTransaction, patientId: string, phone: string): Promise<Date | undefined> {
  const [row] = await tx
    .select({ at: max(patientContacts.lastSentAt) })
    .from(patientContacts)
    .where(and(eq(patientContacts.patientId, patientId), inArray(patientContacts.phone, phoneForms(phone))));
  return row?.at ?? undefined;
}

export async function insertContact(
  tx: TenantTransaction,
  values: typeof patientContacts.$inferInsert,
): Promise<PatientContactRow> {
  const [row] = await tx.insert(patientContacts).values(values).returning();
  if (row === undefined) throw new Error('contact not stored');
  return row;
}

export async function updateContactRow(
  tx: TenantTransaction,
  id: string,
  patch: ContactPatch & { updatedAt: Date },
): Promise<PatientContactRow> {
  const [row] = await tx.update(patientContacts).set(patch).where(eq(patientContacts.id, id)).returning();
  if (row === undefined) throw new AppError('contact.notFound');
  return row;
}

/**
 * The phones the patient itself answers on: its record's, its account's and its holder's (a
 * sub-user's), as far as the transaction sees them. Inviting one of them is a request to oneself.
 */
export async function ownPhonesOf(tx: TenantTransaction, patientId: string): Promise<string[]> {
  const result = await tx.execute<{ phone: string | null; account_phone: string | null; holder_phone: string | null }>(sql`
    SELECT p.phone, account.phone AS account_phone, holder.phone AS holder_phone
      FROM patients p
      LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
      LEFT JOIN users holder ON holder.tenant_id = p.tenant_id AND holder.id = p.holder_user_id
     WHERE p.id = ${patientId}::uuid`);
  const row = result.rows[0];
  if (row === undefined) return [];
  return [row.phone, row.account_phone, row.holder_phone].filter((phone): phone is string => phone !== null && phone !== '');
}

/** A sub-user's holder's language, as far as the transaction sees the holder (a sub-user has no account of its own). */
export async function holderLanguageOf(tx: TenantTransaction, patientId: string): Promise<'en' | 'vi' | undefined> {
  const result = await tx.execute<{ language: string | null }>(sql`
    SELECT holder.language FROM patients p
      JOIN users holder ON holder.tenant_id = p.tenant_id AND holder.id = p.holder_user_id
     WHERE p.id = ${patientId}::uuid`);
  const language = result.rows[0]?.language;
  return language === 'vi' || language === 'en' ? language : undefined;
}

/**
 * The unique indexes of migration 0037 as the API's errors: a second non-deleted contact with a
 * phone, or a second follow of the patient by one account, is contact.exists (409).
 */
export function contactConflictOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    if ('code' in current && current.code === '23505' && 'constraint' in current) {
      if (current.constraint === 'patient_contacts_phone_key') return fieldError('contact.exists', 'body.phone', 'duplicate');
      if (current.constraint === 'patient_contacts_follower_key') return new AppError('contact.exists', { cause: error });
    }
    current = current.cause;
  }
  return undefined;
}
