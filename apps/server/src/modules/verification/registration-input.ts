import { ageInYears, LIMITS, type FieldError } from '@rpm/contracts';
import { translateError } from '@rpm/i18n';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
}

const VALIDATION_KEYS: Record<string, string> = {
  required: 'validation.required',
  too_small: 'validation.tooSmall',
  too_big: 'validation.tooBig',
  invalid_format: 'validation.invalidFormat',
  invalid_type: 'validation.invalidType',
  unrecognized_keys: 'validation.unknownField',
};

/** Fields whose failure means "accept the purpose of use, the terms and the privacy policy". */
const CONSENT_PATHS = ['/acceptTerms', '/acceptPrivacy', '/purpose'];

function fieldErrorsOf(issues: ValidationIssue[], request: FastifyRequest): FieldError[] {
  return issues.map((issue) => {
    // Same wording as the global handler: zod reports a missing field as a type mismatch.
    const code = issue.keyword === 'invalid_type' && issue.message.endsWith('received undefined') ? 'required' : issue.keyword;
    const field = ['body', ...issue.instancePath.split('/').filter(Boolean)].join('.');
    return { field, code, message: translateError(VALIDATION_KEYS[code] ?? 'validation.invalidValue', request.language) };
  });
}

/** A well-formed, past birthday of someone younger than 18: the one failure that has its own code. */
function isUnderageBirthday(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return false;
  const age = ageInYears(value);
  return age >= 0 && age < LIMITS.minimumAgeYears;
}

/**
 * Registration answers two schema failures with the spec's own messages instead of the generic
 * invalid-parameter one: under 18 (account.underage) and consent missing (account.termsRequired).
 * The route validates with attachValidation so this runs first; every other failure goes on to
 * the global handler unchanged. All field errors are kept either way.
 */
export function assertRegistrationInput(request: FastifyRequest): void {
  const error = request.validationError;
  if (error === undefined) return;
  const issues = (Array.isArray(error.validation) ? error.validation : []) as ValidationIssue[];
  const paths = new Set(issues.map((issue) => issue.instancePath));
  const body: unknown = request.body;
  const birthday = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).birthday : undefined;
  if (paths.has('/birthday') && isUnderageBirthday(birthday)) {
    throw new AppError('account.underage', { fieldErrors: fieldErrorsOf(issues, request) });
  }
  if (CONSENT_PATHS.some((path) => paths.has(path))) {
    throw new AppError('account.termsRequired', { fieldErrors: fieldErrorsOf(issues, request) });
  }
  throw error;
}
