import { EMAIL_TEMPLATE_PLACEHOLDERS, VITALS_STORAGE } from '@rpm/contracts';
import type { z } from 'zod';
import { messageForIssue, type FieldMessage, type FieldMessages } from '../../lib/form-errors';

const PLACEHOLDER_LIST = EMAIL_TEMPLATE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(' ');

/**
 * The tenant contracts' own refinement messages (English, for the OpenAPI text) and the console
 * message that explains each in the user's language. The generic mapping would only say "invalid
 * format"; these say what is expected. The unit test runs every contract rule through this table,
 * so a reworded contract message is caught there rather than silently falling back.
 */
export const TENANT_CONTRACT_MESSAGES: Record<string, string> = {
  'must be 2 to 40 lower-case letters, digits or hyphens, starting with a letter or digit':
    'tenants:form.code',
  'must be empty or an http(s) URL': 'tenants:form.url',
  'must be a hex color like #0B7285': 'tenants:form.color',
  'must be a font family name': 'tenants:form.font',
  'must be a country name': 'tenants:form.country',
  'must be an ISO 3166 two-letter code like VN or CA': 'tenants:form.countryCode',
  'must be a dial code like +84 or +1': 'tenants:form.dialCode',
  'must be a number with at most two decimals': 'tenants:form.taxRate',
  'must be between 0 and 100': 'tenants:form.taxRate',
  'must be printable characters without spaces': 'tenants:form.secret',
  'must be a host name or an IP address': 'tenants:form.host',
  'must be letters, digits, _ $ . or -': 'tenants:form.identifier',
  'must be one non-empty line': 'tenants:form.subject',
  'must not be empty': 'form.required',
  'must be AC followed by 32 hexadecimal digits': 'tenants:form.accountSid',
  'must be a phone number in international form, like +84901234567': 'tenants:form.e164',
  'must be the registered brand name: at most 11 letters, digits, spaces, dots or dashes': 'tenants:form.brandName',
  [`only these placeholders: ${PLACEHOLDER_LIST}`]: 'tenants:form.placeholders',
  'must be a whole number of days': 'tenants:form.compactAfterDays',
  [`must be between ${VITALS_STORAGE.minCompactAfterDays} and ${VITALS_STORAGE.maxCompactAfterDays}`]: 'tenants:form.compactAfterDays',
  [`must be 0 (keep for ever) or between ${VITALS_STORAGE.minRetentionDays} and ${VITALS_STORAGE.maxRetentionDays}`]: 'tenants:form.retentionDays',
};

/** Console refinements of these screens pass their own key (tenants:…) as the issue message. */
const TENANTS_KEY = /^tenants:[A-Za-z.]+$/;

/** The message for one zod issue of a tenant form. */
export function tenantMessageForIssue(issue: z.core.$ZodIssue): FieldMessage {
  if (TENANTS_KEY.test(issue.message)) return { key: issue.message };
  const key = TENANT_CONTRACT_MESSAGES[issue.message];
  if (key) return { key, values: { list: PLACEHOLDER_LIST } };
  return messageForIssue(issue);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const part of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

/**
 * One message per field path, the first problem found. With the input, a field left empty says
 * "required" rather than the format it should have (an empty login code or email is simply missing).
 */
export function tenantMessagesForIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): FieldMessages {
  const messages: FieldMessages = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    const value = input === undefined ? undefined : valueAt(input, issue.path);
    messages[path] ??=
      typeof value === 'string' && value.trim() === ''
        ? { key: 'form.required' }
        : tenantMessageForIssue(issue);
  }
  return messages;
}

/** The part of useFormState that validation needs. */
interface MessageSink {
  clearMessages: () => void;
  setMessage: (path: string, message: FieldMessage) => void;
}

/**
 * Parses `input` with a contract schema and shows the tenant-specific messages (useFormState's own
 * validate knows only the shared ones); focus then moves to the first invalid field.
 */
export function validateTenantForm<S extends z.ZodType>(
  form: MessageSink,
  schema: S,
  input: unknown,
): z.output<S> | null {
  const result = schema.safeParse(input);
  form.clearMessages();
  if (result.success) return result.data;
  for (const [path, message] of Object.entries(tenantMessagesForIssues(result.error.issues, input)))
    form.setMessage(path, message);
  return null;
}
