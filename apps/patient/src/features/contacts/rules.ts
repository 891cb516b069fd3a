import {
  followerInviteSchema,
  followerUpdateSchema,
  type ContactType,
  type ErrorCode,
  type FollowerInvite,
  type Relationship,
} from '@rpm/contracts';

/** The invite form's fields, as typed (the contact type and relationship come from lists). */
export type InviteField = 'phone' | 'name' | 'relationship' | 'contactType';
/** The form as typed: a list not chosen yet is ''. */
export type InviteForm = Omit<FollowerInvite, 'favourite' | 'relationship' | 'contactType'> & {
  relationship: Relationship | '';
  contactType: ContactType | '';
  favourite: boolean;
};
export type FieldProblems = Partial<Record<InviteField, string>>;

/**
 * The form checked with the contract's own schema (the server's): the first problem of each field,
 * as a message key of the appContacts namespace, or the values to send. `withPhone` false checks
 * an edit (the phone is not changed there).
 */
export function checkForm(form: InviteForm, withPhone = true): { problems: FieldProblems; valid?: FollowerInvite } {
  const parsed = withPhone ? followerInviteSchema.safeParse(form) : followerUpdateSchema.safeParse(form);
  if (parsed.success) return { problems: {}, valid: { phone: form.phone, ...parsed.data } };
  const problems: FieldProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as InviteField;
    if (problems[field] !== undefined) continue;
    if (field === 'phone') problems.phone = 'form.problems.phone';
    else if (field === 'name') problems.name = form.name.trim() === '' ? 'form.problems.nameMissing' : 'form.problems.name';
    else problems[field] = 'form.problems.choose';
  }
  return { problems };
}

/** The server's refusals that belong to one field of the invite form, with the spec §8 wording. */
const FIELD_OF_ERROR: Partial<Record<ErrorCode, { field: InviteField; key: string }>> = {
  'contact.exists': { field: 'phone', key: 'form.problems.exists' },
  'request.toSelf': { field: 'phone', key: 'form.problems.toSelf' },
  'careTeam.limitReached': { field: 'contactType', key: 'form.problems.limit' },
};

export function fieldOfError(code: ErrorCode | undefined): { field: InviteField; key: string } | undefined {
  return code === undefined ? undefined : FIELD_OF_ERROR[code];
}

/** Time left as m:ss (never below 0:00), for the resend countdown. */
export function countdownText(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  return `${String(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}
