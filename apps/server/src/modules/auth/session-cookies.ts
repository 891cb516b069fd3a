import type { TokenResponse } from '@rpm/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { REFRESH_COOKIE, SESSION_COOKIE } from '../../http/access.js';
import { isSecureDeployment } from '../../http/request-origin.js';
import type { IssuedSession } from './sessions.js';
import { toCheckTokenResponse } from './sessions.js';

/**
 * Hands a new session to the client. The console gets two httpOnly, SameSite=Strict cookies (the
 * refresh cookie is sent to /auth only) and never sees a token; apps get the tokens in the body.
 * Cookies persist across browser restarts only with "remember me". They are Secure except over
 * plain HTTP to localhost (or as COOKIE_SECURE says).
 */
export function deliverSession(app: FastifyInstance, reply: FastifyReply, issued: IssuedSession): TokenResponse {
  const body = { ...toCheckTokenResponse(issued.auth), accessExpiresAt: issued.auth.accessExpiresAt.toISOString() };
  if (issued.session.app !== 'console') {
    return { ...body, accessToken: issued.accessToken, refreshToken: issued.refreshToken };
  }
  const maxAge = issued.session.rememberMe
    ? Math.max(1, Math.floor((issued.auth.sessionExpiresAt.getTime() - Date.now()) / 1000))
    : undefined;
  const common = { httpOnly: true, sameSite: 'strict' as const, secure: isSecureDeployment(app.config, reply.request), ...(maxAge === undefined ? {} : { maxAge }) };
  reply.setCookie(SESSION_COOKIE, issued.accessToken, { ...common, path: '/' });
  reply.setCookie(REFRESH_COOKIE, issued.refreshToken, { ...common, path: '/auth' });
  return body;
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
}
