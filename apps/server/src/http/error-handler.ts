import { textProblemOfMessage, type FieldError } from '@rpm/contracts';
import { findErrorMessage, translateError, type SupportedLanguage } from '@rpm/i18n';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';
import { sendError } from './envelope.js';

const VALIDATION_KEYS: Record<string, string> = {
  too_small: 'validation.tooSmall',
  too_big: 'validation.tooBig',
  invalid_format: 'validation.invalidFormat',
  invalid_value: 'validation.invalidValue',
  invalid_type: 'validation.invalidType',
  unrecognized_keys: 'validation.unknownField',
};

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
}

function toFieldErrors(issues: ValidationIssue[], context: string | undefined, language: SupportedLanguage): FieldError[] {
  return issues.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    // A name refused for invisible or text-direction characters says so, with its own code.
    const textProblem = issue.keyword === 'custom' ? textProblemOfMessage(issue.message) : undefined;
    if (textProblem !== undefined) {
      return { field: [context, path].filter(Boolean).join('.'), code: textProblem, message: translateError(`validation.${textProblem}`, language) };
    }
    // Zod reports a missing field as a type mismatch against undefined.
    const code = issue.keyword === 'invalid_type' && issue.message.endsWith('received undefined') ? 'required' : issue.keyword;
    const key = code === 'required' ? 'validation.required' : (VALIDATION_KEYS[code] ?? 'validation.invalidValue');
    return { field: [context, path].filter(Boolean).join('.'), code, message: translateError(key, language) };
  });
}

/**
 * One place turns every failure into the envelope: catalogue errors keep their code, schema
 * failures become 400 with field errors, framework errors map to their code, anything else is
 * logged and answered with the default message (no internals leak to the caller).
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // Field messages given as catalogue keys are rendered in the caller's language.
      const fieldErrors = error.fieldErrors?.map((fieldError) => ({
        ...fieldError,
        message: findErrorMessage(fieldError.message, request.language) ?? fieldError.message,
      }));
      if (error.headers !== undefined) reply.headers(error.headers);
      return sendError(request, reply, error.code, fieldErrors);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fieldErrors = toFieldErrors(error.validation as ValidationIssue[], error.validationContext, request.language);
      return sendError(request, reply, 'common.invalidParameter', fieldErrors);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return sendError(request, reply, 'common.default');
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(request, reply, 'common.payloadTooLarge');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(request, reply, 'common.unsupportedMediaType');
      default:
        break;
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, empty bodies and the like.
      request.log.info({ err: error }, 'bad request');
      return sendError(request, reply, error.statusCode === 429 ? 'common.tooManyRequests' : 'common.invalidParameter');
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, 'common.default');
  });
}
