import { ageInYears, IDENTIFIER_REQUIRED_MESSAGE, LIMITS, type FieldError } from '@rpm/contracts';
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

function fieldErrorsOf(issues: ValidationIssue[], request: FastifyRequest): FieldError[] {
  return issues.map((issue) => {
    // Same wording as the global handler: zod reports a missing field as a type mismatch.
    const code =
      issue.keyword === 'invalid_type' && issue.message.endsWith('received undefined')
        ? 'required'
        : issue.keyword;
    const field = ['body', ...issue.instancePath.split('/').filter(Boolean)].join('.');
    const key =
      issue.message === IDENTIFIER_REQUIRED_MESSAGE
        ? 'patient.identifierRequired'
        : (VALIDATION_KEYS[code] ?? 'validation.invalidValue');
    return { field, code, message: translateError(key, request.language) };
  });
}

/** A well-formed, past birthday of someone younger than 18. */
export function isUnderageBirthday(value: unknown, today = new Date()): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
    return false;
  const age = ageInYears(value, today);
  return age >= 0 && age < LIMITS.minimumAgeYears;
}

/**
 * Patient create and edit answer two schema failures with their own codes instead of the generic
 * invalid-parameter one (spec §5): under 18 (patient.underage) and no identifier at all
 * (patient.identifierRequired). The routes validate with attachValidation so this runs first;
 * every field error is kept either way.
 */
export function assertPatientInput(request: FastifyRequest): void {
  const error = request.validationError;
  if (error === undefined) return;
  const issues = (Array.isArray(error.validation) ? error.validation : []) as ValidationIssue[];
  const body: unknown = request.body;
  const birthday =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).birthday : undefined;
  if (issues.some((issue) => issue.instancePath === '/birthday') && isUnderageBirthday(birthday)) {
    throw new AppError('patient.underage', { fieldErrors: fieldErrorsOf(issues, request) });
  }
  if (issues.some((issue) => issue.message === IDENTIFIER_REQUIRED_MESSAGE)) {
    throw new AppError('patient.identifierRequired', { fieldErrors: fieldErrorsOf(issues, request) });
  }
  throw error;
}
