import { z } from 'zod';
import type { ClientApp } from './auth.js';

/** A tenant's PASSWORD_RULE setting (JSON). Defaults are spec §5 for the console. */
export const passwordRuleSchema = z.object({
  minLength: z.number().int().min(4).max(128).default(8),
  maxLength: z.number().int().min(8).max(128).default(32),
  lower: z.boolean().default(true),
  upper: z.boolean().default(true),
  digit: z.boolean().default(true),
  /** The special characters that count, and the only non-alphanumeric ones allowed. */
  special: z.string().default(',!@#$%^&*'),
});
export type PasswordRule = z.infer<typeof passwordRuleSchema>;
export const DEFAULT_PASSWORD_RULE: PasswordRule = passwordRuleSchema.parse({});

/**
 * The patient app's password rule (spec §5): at least 8 characters, a lower-case letter, a
 * capital, a digit and one of the app's special characters - _ , . ! @ # * % (the only others
 * allowed). The app checks it before sending and the server holds what the app sends to it.
 */
export const PATIENT_APP_PASSWORD_RULE: PasswordRule = {
  minLength: 8,
  maxLength: 128,
  lower: true,
  upper: true,
  digit: true,
  special: '-_,.!@#*%',
};

/** The rule a password set from `app` is held to: the patient app's own, else the tenant's. */
export function passwordRuleForApp(app: ClientApp | undefined, tenantRule: PasswordRule): PasswordRule {
  return app === 'patient' ? PATIENT_APP_PASSWORD_RULE : tenantRule;
}

export function parsePasswordRule(json: string | undefined): PasswordRule {
  if (!json) return DEFAULT_PASSWORD_RULE;
  try {
    return passwordRuleSchema.parse(JSON.parse(json));
  } catch {
    return DEFAULT_PASSWORD_RULE;
  }
}

/**
 * The most common passwords that still satisfy composition rules. Compared case-insensitively
 * with the special characters and digits at the end stripped, so "Password1!" and "PASSWORD12@"
 * are both refused.
 */
const COMMON_PASSWORD_STEMS = [
  'password', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pass', 'admin', 'administrator', 'welcome', 'qwerty',
  'qwertyuiop', 'abc', 'abcd', 'letmein', 'iloveyou', 'monkey', 'dragon', 'master', 'sunshine', 'princess',
  'football', 'baseball', 'superman', 'batman', 'trustno', 'hello', 'changeme', 'default', 'secret',
  'login', 'user', 'test', 'guest', 'root', 'toor', 'matkhau', 'vietnam', 'saigon', 'hanoi', 'doctor',
  'hospital', 'health', 'summer', 'winter', 'spring', 'autumn', 'january', 'december', 'company',
  'asdfgh', 'zxcvbn', 'azerty', 'abcdef', 'aa', 'aaa', 'demo', 'demo@',
];
const COMMON_PASSWORD_SET = new Set(COMMON_PASSWORD_STEMS);

export function isCommonPassword(password: string): boolean {
  const stem = password.toLowerCase().replace(/[\d,!@#$%^&*._\-?]+$/g, '');
  return stem.length === 0 || COMMON_PASSWORD_SET.has(stem) || /^(.)\1+$/.test(stem);
}

export type PasswordProblem =
  | 'tooShort'
  | 'tooLong'
  | 'needsLower'
  | 'needsUpper'
  | 'needsDigit'
  | 'needsSpecial'
  | 'invalidCharacters'
  | 'common';

/** Every way a password breaks the rule (empty when it is acceptable). Shared by server and console. */
export function checkPassword(password: string, rule: PasswordRule = DEFAULT_PASSWORD_RULE): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (password.length < rule.minLength) problems.push('tooShort');
  if (password.length > rule.maxLength) problems.push('tooLong');
  if (rule.lower && !/[a-z]/.test(password)) problems.push('needsLower');
  if (rule.upper && !/[A-Z]/.test(password)) problems.push('needsUpper');
  if (rule.digit && !/\d/.test(password)) problems.push('needsDigit');
  const specials = Array.from(rule.special);
  if (specials.length > 0 && !Array.from(password).some((character) => specials.includes(character))) problems.push('needsSpecial');
  if (Array.from(password).some((character) => !/[A-Za-z0-9]/.test(character) && !specials.includes(character))) {
    problems.push('invalidCharacters');
  }
  if (problems.length === 0 && isCommonPassword(password)) problems.push('common');
  return problems;
}
