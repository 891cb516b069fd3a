import {
  careReminderInputSchema,
  prescriptionInputSchema,
  prescriptionProblems,
  repeatIssues,
  scheduleProblems,
  type CareReminderInput,
  type CarePlanProblem,
  type PrescriptionInput,
} from '@rpm/contracts';
import { errorMessageFor } from '../../api/error-reaction';
import { messagesForIssues, serverFieldMessages, type FieldMessages } from '../../lib/form-errors';
import { messageText } from '../../lib/notify';
import type { z } from 'zod';
import {
  scheduleInput,
  toPrescriptionInput,
  type PrescriptionValues,
  type ScheduleValues,
} from './form-values';

/**
 * Where the prescription form's messages come from: the contract's schema (a required field, a
 * date that is not one, a text too long), the §5 rules (prescriptionProblems: dose steps, reminder
 * times, repeats, dates, duplicates; each message `carePlan:problems.<code>`), and the server's field
 * errors (`body.<path>`), all keyed by the same dotted path the fields are named by
 * ("medicines.0.schedule.times.1.label").
 */

/** The message key of a §5 problem. */
export const problemKey = (problem: Pick<CarePlanProblem, 'code'>) => `carePlan:problems.${problem.code}`;

/** One message per field, the first problem found for it. */
export function problemMessages(problems: readonly CarePlanProblem[]): FieldMessages {
  const messages: FieldMessages = {};
  for (const problem of problems) messages[problem.path] ??= { key: problemKey(problem) };
  return messages;
}

/** A reminder time's field path ("medicines.0.schedule.times.1.time"). */
const REMINDER_TIME = /^medicines\.\d+\.schedule\.times\.\d+\.time$/;

/** "medicines.0.schedule.endDate" → "medicines.0.schedule." (the object holding a start and end date). */
const holderOf = (path: string) => path.slice(0, path.lastIndexOf('.') + 1);

/** The value at a path of an object ("medicines", 0, "schedule", "repeat"). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const part of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

/** A repeat refused as a whole (the contract's union) as the issues of its own fields. */
function preciseIssues(issues: readonly z.core.$ZodIssue[], candidate: unknown): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.path.at(-1) !== 'repeat') return [issue];
    const own = repeatIssues(valueAt(candidate, issue.path));
    if (own === null || own.length === 0) return [issue];
    return own.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
  });
}

/**
 * The form's messages for `values`, and the input to send when there are none. The schema speaks
 * first for a field (a missing label before a duplicate one, an unreal date before its order),
 * except where it only saw a missing number the rule names better ("Enter a dose").
 */
export function checkPrescription(values: PrescriptionValues): {
  input: PrescriptionInput | null;
  messages: FieldMessages;
} {
  const candidate = toPrescriptionInput(values);
  const parsed = prescriptionInputSchema.safeParse(candidate);
  if (parsed.success) {
    const messages = problemMessages(prescriptionProblems(parsed.data));
    return { input: Object.keys(messages).length === 0 ? parsed.data : null, messages };
  }
  const issues = preciseIssues(parsed.error.issues, candidate);
  const schemaMessages = messagesForIssues(issues);
  // A reminder time not written HH:mm: say how to write it rather than "invalid format".
  for (const path of Object.keys(schemaMessages)) {
    if (REMINDER_TIME.test(path)) schemaMessages[path] = { key: 'carePlan:schedule.timeFormat' };
  }
  const missing = new Set(
    issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path.join('.')),
  );
  // The rules read the unchecked input: an order of dates is only worth saying for two real dates.
  const problems = prescriptionProblems(candidate).filter(
    (problem) =>
      problem.code !== 'dates.startAfterEnd' ||
      !(`${holderOf(problem.path)}startDate` in schemaMessages || problem.path in schemaMessages),
  );
  const messages: FieldMessages = { ...problemMessages(problems) };
  for (const [path, message] of Object.entries(schemaMessages)) {
    if (!(path in messages) || !missing.has(path)) messages[path] = message;
  }
  return { input: null, messages };
}

/** Refusals of a save that belong under one field rather than above the form. */
export const FIELD_OF_CODE: Partial<Record<string, string>> = {
  'doctor.notFound': 'doctorInChargeId',
  'doctor.licenseExpired': 'doctorInChargeId',
};

/**
 * The server's answer to a failed save as field messages: its field errors (already in the user's
 * language) under their fields, and a refusal about the doctor under the doctor field.
 */
export function serverMessages(error: unknown): FieldMessages {
  const messages = serverFieldMessages(error);
  const code = (error as { code?: unknown } | null)?.code;
  const field = typeof code === 'string' ? FIELD_OF_CODE[code] : undefined;
  if (field !== undefined) messages[field] ??= { text: messageText(errorMessageFor(error)) };
  return messages;
}

/** Whether any message is for a field under `prefix` ("medicines.1."), to point at the right card. */
export function hasMessagesUnder(messages: FieldMessages, prefix: string): boolean {
  return Object.keys(messages).some((path) => path === prefix.replace(/\.$/, '') || path.startsWith(prefix));
}

/** A care reminder as typed: a title, a note and its schedule. */
export interface ReminderValues {
  title: string;
  note: string;
  schedule: ScheduleValues;
}

/** The care-reminder form's messages (schema first, then the §5 schedule rules), and the input when there are none. */
export function checkReminder(values: ReminderValues): {
  input: CareReminderInput | null;
  messages: FieldMessages;
} {
  const candidate = {
    title: values.title,
    ...(values.note.trim() === '' ? {} : { note: values.note.trim() }),
    schedule: scheduleInput(values.schedule),
  };
  const parsed = careReminderInputSchema.safeParse(candidate);
  const schemaMessages = parsed.success
    ? {}
    : messagesForIssues(preciseIssues(parsed.error.issues, candidate));
  const messages: FieldMessages = {
    ...problemMessages(scheduleProblems(candidate.schedule)),
    ...schemaMessages,
  };
  return { input: parsed.success && Object.keys(messages).length === 0 ? parsed.data : null, messages };
}
