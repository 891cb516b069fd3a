import { checkPassword, PATIENT_APP_PASSWORD_RULE, tenantCodeSchema, type PasswordProblem, type PasswordRule } from '@rpm/contracts';

/**
 * The app's password rule (spec §5): at least 8 characters, a lower-case letter, a capital, a
 * digit and one of the app's special characters - _ , . ! @ # * % (the only others allowed). The
 * server holds passwords the app sends to the same rule.
 */
export const APP_PASSWORD_RULE: PasswordRule = PATIENT_APP_PASSWORD_RULE;

/** Every way a password breaks the app's rule (empty when it is acceptable). */
export function appPasswordProblems(password: string): PasswordProblem[] {
  return checkPassword(password, APP_PASSWORD_RULE);
}

/** The tenant code as sent, or undefined when none was entered (a tenant code must be entered, spec §5). */
export function normaliseTenantCode(input: string): string | undefined {
  const parsed = tenantCodeSchema.safeParse(input);
  return parsed.success ? parsed.data : undefined;
}

/** Whether a birthday (YYYY-MM-DD) makes the person 18 or older on `today`. */
export function isAdult(birthday: string, today: Date = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const eighteenth = new Date(Date.UTC(year + 18, month - 1, day));
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return eighteenth.getTime() <= now;
}

/** A six-digit one-time code. */
export function isOtpCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}
