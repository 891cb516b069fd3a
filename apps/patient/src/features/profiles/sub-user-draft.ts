import { subUserInputSchema, type SubUser, type SubUserInput, type TreatedCondition } from '@rpm/contracts';

/** The sub-user form as typed, and its check by the contract's schema before anything is sent. */
export interface Draft {
  firstName: string;
  lastName: string;
  gender: string;
  birthday: string;
  relation: string;
  smoking: boolean;
  treatedConditions: TreatedCondition[];
}

export type Field = 'firstName' | 'lastName' | 'birthday' | 'relation';

export const emptyDraft: Draft = { firstName: '', lastName: '', gender: '', birthday: '', relation: '', smoking: false, treatedConditions: [] };

export const draftOf = (subUser: SubUser): Draft => ({
  firstName: subUser.firstName,
  lastName: subUser.lastName,
  gender: subUser.gender ?? '',
  birthday: subUser.birthday,
  relation: subUser.relation,
  smoking: subUser.smoking,
  treatedConditions: subUser.treatedConditions,
});

/** Today as the contract's birthday check reads it (pastDateSchema: the UTC day). */
export const today = () => new Date().toISOString().slice(0, 10);

/** The contract's check of a draft: the input to send, or the message key of each refused field. */
export function checkDraft(draft: Draft): { input: SubUserInput } | { problems: Partial<Record<Field, string>> } {
  const parsed = subUserInputSchema.safeParse({
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
    gender: draft.gender === '' ? null : draft.gender,
    birthday: draft.birthday,
    relation: draft.relation === '' ? undefined : draft.relation,
    smoking: draft.smoking,
    treatedConditions: draft.treatedConditions,
  });
  if (parsed.success) return { input: parsed.data };
  const problems: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'firstName' || field === 'lastName')
      problems[field] = draft[field].trim() === '' ? 'form.required' : 'form.nameInvalid';
    else if (field === 'birthday')
      problems.birthday = draft.birthday === '' ? 'form.required' : /^\d{4}-\d{2}-\d{2}$/.test(draft.birthday) && draft.birthday > today() ? 'form.birthdayFuture' : 'form.birthdayInvalid';
    else if (field === 'relation') problems.relation = 'form.required';
  }
  return { problems };
}
