import { RESULT_CODE, statusOfError, type ErrorCode, type ErrorEnvelope, type FieldError, type SuccessEnvelope } from '@rpm/contracts';
import { translateError, type SupportedLanguage } from '@rpm/i18n';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function ok<T>(data: T): SuccessEnvelope<T> {
  return { resultCode: RESULT_CODE.success, data };
}

export function errorEnvelope(
  request: FastifyRequest,
  code: ErrorCode,
  fieldErrors?: FieldError[],
): ErrorEnvelope {
  return {
    resultCode: RESULT_CODE.failure,
    code,
    message: translateError(code, request.language),
    ...(fieldErrors && fieldErrors.length > 0 ? { fieldErrors } : {}),
    requestId: request.id,
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, fieldErrors?: FieldError[]) {
  return reply.code(statusOfError(code)).send(errorEnvelope(request, code, fieldErrors));
}

declare module 'fastify' {
  interface FastifyRequest {
    language: SupportedLanguage;
  }
}
