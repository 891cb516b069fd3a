import {
  checkPassword,
  isCommonPassword,
  parsePasswordRule,
  type PasswordProblem,
  type PasswordRule,
} from '@rpm/contracts';
import type { z } from 'zod';
import { useOptionalSession } from '../shell/session-context';

/**
 * The tenant's password rule when signed in (startup step 3 loaded PASSWORD_RULE); on public
 * pages (registration, reset) the tenant's settings are not readable yet, so the spec §5
 * defaults apply and the server still checks the tenant's own rule.
 */
export function usePasswordRule(): PasswordRule {
  const session = useOptionalSession();
  return parsePasswordRule(session?.settings.PASSWORD_RULE);
}

/** One line of the live checklist. */
export type ChecklistItem = 'length' | 'lower' | 'upper' | 'digit' | 'special' | 'allowedOnly' | 'notCommon';

/** The checklist lines that apply to a rule, each with whether the password meets it. */
export function passwordChecklist(
  password: string,
  rule: PasswordRule,
): { item: ChecklistItem; isMet: boolean }[] {
  const problems = new Set<PasswordProblem>(checkPassword(password, rule));
  const isEmpty = password === '';
  const lines: { item: ChecklistItem; isMet: boolean; applies: boolean }[] = [
    { item: 'length', isMet: !problems.has('tooShort') && !problems.has('tooLong'), applies: true },
    { item: 'lower', isMet: !problems.has('needsLower'), applies: rule.lower },
    { item: 'upper', isMet: !problems.has('needsUpper'), applies: rule.upper },
    { item: 'digit', isMet: !problems.has('needsDigit'), applies: rule.digit },
    { item: 'special', isMet: !problems.has('needsSpecial'), applies: rule.special !== '' },
    { item: 'allowedOnly', isMet: !problems.has('invalidCharacters'), applies: true },
    // checkPassword looks for common passwords only once the rest passes; the list shows it always.
    { item: 'notCommon', isMet: !isCommonPassword(password), applies: true },
  ];
  return lines.filter((line) => line.applies).map(({ item, isMet }) => ({ item, isMet: !isEmpty && isMet }));
}

/**
 * Zod skips an object's refinements while any field is invalid; the password checks should show
 * together with the other fields' messages, not only once everything else is fixed.
 */
export const ALWAYS_REFINE = { when: () => true };

/**
 * Adds the issues of a new password and its confirmation to a form schema's refinement: the
 * tenant's rule (details are in the checklist beside the field) and the confirmation matching.
 */
export function addNewPasswordIssues(
  context: z.RefinementCtx,
  rule: PasswordRule,
  fields: { password: unknown; confirmation: unknown; passwordPath: string; confirmationPath: string },
): void {
  // With ALWAYS_REFINE the values may be unparsed input: anything but text counts as empty.
  const password = typeof fields.password === 'string' ? fields.password : '';
  const confirmation = typeof fields.confirmation === 'string' ? fields.confirmation : '';
  if (password !== '' && checkPassword(password, rule).length > 0) {
    context.addIssue({ code: 'custom', path: [fields.passwordPath], message: 'form.passwordRule' });
  }
  if (confirmation === '') {
    context.addIssue({
      code: 'custom',
      path: [fields.confirmationPath],
      message: 'form.confirmationRequired',
    });
  } else if (confirmation !== password) {
    context.addIssue({ code: 'custom', path: [fields.confirmationPath], message: 'form.passwordMismatch' });
  }
}
