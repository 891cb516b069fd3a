import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../modules/audit/store.js';

/** The audit "who and from where" of a request (actor is null before login). */
export function auditContextOf(request: FastifyRequest): AuditContext {
  const userAgent = request.headers['user-agent'];
  return {
    actorUserId: request.auth?.userId ?? null,
    actorTenantId: request.auth?.accountTenantId ?? null,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
    requestId: request.id,
  };
}
