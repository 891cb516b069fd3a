import {
  CODE_PACKAGE_MAX_CODES,
  codePackageInputSchema,
  type CodePackageInput,
  type PackageKind,
} from '@rpm/contracts';
import type { z } from 'zod';
import { parseDisplayDate } from '../../lib/format';
import { messageForIssue, type FieldMessage, type FieldMessages } from '../../lib/form-errors';

/** The code package form as typed: dates as dd/MM/yyyy, the count as text, nothing chosen yet. */
export interface CodePackageFormValues {
  name: string;
  type: PackageKind | null;
  prefix: string;
  totalCodes: string;
  availableFrom: string;
  expiresOn: string;
  purpose: string;
  benefit: string;
  packageId: string | null;
  recipientOrganization: string;
}

export type CodePackageField = keyof CodePackageFormValues;

export function emptyCodePackageValues(): CodePackageFormValues {
  return {
    name: '',
    type: null,
    prefix: '',
    totalCodes: '',
    availableFrom: '',
    expiresOn: '',
    purpose: '',
    benefit: '',
    packageId: null,
    recipientOrganization: '',
  };
}

/** A series prefix as it is stored: capitals, no spaces ("hp 1" is typed, "HP1" kept). */
export const typedPrefix = (text: string) => text.replace(/\s/g, '').toUpperCase();

const PROBLEM = 'packages:codes.form.problems';
const required = (field: CodePackageField): FieldMessage => ({ key: `${PROBLEM}.required.${field}` });

/** The count typed: whole digits only, else NaN (so "1.5", "-3" and "" are all refused). */
function countOf(text: string): number {
  const trimmed = text.trim();
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** A typed date for the schema: the ISO day when it is a real dd/MM/yyyy date, else refused by it. */
function dayOf(text: string): string {
  return parseDisplayDate(text) ?? (text.trim() === '' ? '' : 'not a date');
}

/** The message for a contract rule broken by the form's values, in the console's words. */
function messageFor(issue: z.core.$ZodIssue, values: CodePackageFormValues): FieldMessage {
  const field = String(issue.path[0] ?? '') as CodePackageField;
  const typed = values[field];
  // Every field is required (spec §5): an empty one says which.
  if (typed === null || (typeof typed === 'string' && typed.trim() === '')) return required(field);
  if (field === 'prefix') return { key: `${PROBLEM}.prefix` };
  if (field === 'totalCodes') return { key: `${PROBLEM}.totalCodes`, values: { maximum: CODE_PACKAGE_MAX_CODES } };
  if (field === 'availableFrom' || field === 'expiresOn') return { key: `${PROBLEM}.date` };
  return messageForIssue(issue);
}

/**
 * The payload for the API, checked with its own schema: every field required, the prefix in
 * capitals, the count a whole number, the dates typed as dd/MM/yyyy sent as ISO days, the end after
 * the start. Either the input or the messages by form field.
 */
export function codePackageInputOf(
  values: CodePackageFormValues,
): { input: CodePackageInput; messages?: never } | { input?: never; messages: FieldMessages } {
  const availableFrom = dayOf(values.availableFrom);
  const expiresOn = dayOf(values.expiresOn);
  const parsed = codePackageInputSchema.safeParse({
    name: values.name,
    type: values.type ?? undefined,
    prefix: typedPrefix(values.prefix),
    totalCodes: countOf(values.totalCodes),
    availableFrom,
    expiresOn,
    purpose: values.purpose,
    benefit: values.benefit,
    packageId: values.packageId ?? undefined,
    recipientOrganization: values.recipientOrganization,
  });
  const messages: FieldMessages = {};
  // The schema's date order is checked only once every field is valid: say it at once here.
  const from = parseDisplayDate(values.availableFrom);
  const to = parseDisplayDate(values.expiresOn);
  if (from !== null && to !== null && to <= from) messages.expiresOn = { key: `${PROBLEM}.dateOrder` };
  if (parsed.success && Object.keys(messages).length === 0) return { input: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    messages[field] ??= issue.code === 'custom' && field === 'expiresOn' ? { key: `${PROBLEM}.dateOrder` } : messageFor(issue, values);
  }
  return { messages };
}

