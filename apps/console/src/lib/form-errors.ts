import { TEXT_PROBLEM_MESSAGES } from '@rpm/contracts';
import type { z } from 'zod';
import { isApiError } from '../api/api-error';
import { translateKey } from '../i18n';

/**
 * A field's message: an i18n key (with values) for what the console checked itself, or the text
 * the server already rendered in the user's language. Kept as data, not text, so switching the
 * language re-renders client messages in the new one.
 */
export type FieldMessage = { key: string; values?: Record<string, string | number> } | { text: string };

/** Messages by dotted field path ("firstName", "address.line"). */
export type FieldMessages = Record<string, FieldMessage>;

/**
 * The contracts' own refinement messages (English, for the API's OpenAPI text) and the console
 * message that explains each. Matching the text is safe because both sides live in this repo and
 * the unit test runs every contract rule through this table.
 */
const CONTRACT_MESSAGES: Record<string, string> = {
  'must not contain digits': 'form.nameDigits',
  'must not be in the future': 'form.dateFuture',
  'must be at least 18 years ago': 'form.underage',
  'must be 3 to 16 digits': 'form.phoneInvalid',
  'must be 6 digits': 'form.otpIncomplete',
  'the terms must be accepted': 'form.termsRequired',
  'the privacy policy must be accepted': 'form.privacyRequired',
  [TEXT_PROBLEM_MESSAGES.invisibleCharacters]: 'form.invisibleCharacters',
  [TEXT_PROBLEM_MESSAGES.blank]: 'form.blank',
};

/** Console refinements pass their i18n key as the issue message (e.g. "form.passwordMismatch"). */
const CONSOLE_KEY = /^form\.[A-Za-z]+$/;

function limitOf(value: number | bigint): number {
  return Number(value);
}

/** The message for one zod issue, by the issue's kind, never by zod's English text. */
export function messageForIssue(issue: z.core.$ZodIssue): FieldMessage {
  const contractKey = CONTRACT_MESSAGES[issue.message];
  if (contractKey) return { key: contractKey };
  if (CONSOLE_KEY.test(issue.message)) return { key: issue.message };
  switch (issue.code) {
    case 'invalid_type':
      // Forms start fields as undefined or null (an unchosen select): that is "required".
      return { key: 'form.required' };
    case 'too_small': {
      const minimum = limitOf(issue.minimum);
      if (issue.origin === 'string')
        return minimum <= 1 ? { key: 'form.required' } : { key: 'form.tooShort', values: { minimum } };
      if (issue.origin === 'array') return { key: 'form.chooseAtLeast', values: { count: minimum } };
      return { key: issue.inclusive ? 'form.atLeast' : 'form.above', values: { minimum } };
    }
    case 'too_big': {
      const maximum = limitOf(issue.maximum);
      if (issue.origin === 'string') return { key: 'form.tooLong', values: { maximum } };
      if (issue.origin === 'array') return { key: 'form.chooseAtMost', values: { count: maximum } };
      return { key: issue.inclusive ? 'form.atMost' : 'form.below', values: { maximum } };
    }
    case 'invalid_format':
      if (issue.format === 'email') return { key: 'form.emailInvalid' };
      if (issue.format === 'date') return { key: 'form.dateInvalid' };
      return { key: 'form.invalidFormat' };
    case 'invalid_value':
    case 'invalid_union':
      return { key: 'form.chooseOne' };
    default:
      return { key: 'form.invalid' };
  }
}

/** One message per field: the first problem found is the one to fix first. */
export function messagesForIssues(issues: readonly z.core.$ZodIssue[]): FieldMessages {
  const messages: FieldMessages = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    messages[path] ??= messageForIssue(issue);
  }
  return messages;
}

/**
 * The server's field errors, keyed by form field: "body.address.line" becomes "address.line";
 * `rename` maps a server field to the form's name for it (e.g. username -> email).
 */
export function serverFieldMessages(error: unknown, rename: Record<string, string> = {}): FieldMessages {
  const messages: FieldMessages = {};
  if (!isApiError(error)) return messages;
  for (const fieldError of error.fieldErrors) {
    const path = fieldError.field.replace(/^(body|query|params)\./, '');
    const field = rename[path] ?? path;
    messages[field] ??= { text: fieldError.message };
  }
  return messages;
}

export function fieldMessageText(message: FieldMessage | undefined): string | undefined {
  if (!message) return undefined;
  return 'text' in message ? message.text : translateKey(message.key, message.values);
}

/** Which form field a catalogue error code belongs to (each form maps its own), if any. */
export function fieldOfError<F extends string>(error: unknown, fieldOfCode: Readonly<Partial<Record<string, F>>>): F | undefined {
  return isApiError(error) && error.code ? fieldOfCode[error.code] : undefined;
}

/**
 * Whether a failed save belongs above the form as one alert: its message is not for one field,
 * neither by its code nor through field errors from the server.
 */
export function isFormLevelError(error: unknown, fieldOfCode: Readonly<Partial<Record<string, string>>>): boolean {
  if (error === null || error === undefined) return false;
  if (fieldOfError(error, fieldOfCode) !== undefined) return false;
  return !(isApiError(error) && error.fieldErrors.length > 0);
}
