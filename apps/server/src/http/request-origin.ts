import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './app-error.js';
import { REFRESH_COOKIE, SESSION_COOKIE } from './access.js';

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `scheme://host[:port]` of a URL, lower-cased and without a default port; undefined when it is not http(s). */
function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.origin;
}

/**
 * The origin this request was addressed to: its scheme (X-Forwarded-Proto only from a trusted
 * proxy, TRUST_PROXY) and its Host header. Undefined when the Host header is not a host.
 */
export function ownOrigin(request: FastifyRequest): string | undefined {
  const host = request.host;
  if (host === '' || /[\s/?#@\\]/.test(host)) return undefined;
  return originOf(`${request.protocol}://${host}`);
}

/** Plain HTTP to this machine (`npm start` opened at http://localhost:8080): the one place a cookie cannot be Secure. */
export function isLocalPlainHttp(request: FastifyRequest): boolean {
  if (request.protocol !== 'http') return false;
  const origin = ownOrigin(request);
  return origin !== undefined && LOCAL_HOSTNAMES.has(new URL(origin).hostname);
}

/**
 * Whether session cookies set in answer to this request are Secure (and HSTS is sent):
 * COOKIE_SECURE=true or false decides; unset, always except over plain HTTP to localhost.
 */
export function isSecureDeployment(config: Config, request: FastifyRequest): boolean {
  if (config.cookieSecure !== 'auto') return config.cookieSecure;
  return !isLocalPlainHttp(request);
}

/** The origin the browser says the request comes from: Origin, or the Referer's origin when Origin is absent. */
function callerOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return originOf(origin);
  const referer = request.headers.referer;
  return typeof referer === 'string' && referer !== '' ? originOf(referer) : undefined;
}

/** The caller is authenticated by the console's cookie (ambient authority), not by a bearer token. */
function isCookieAuthenticated(request: FastifyRequest): boolean {
  if (request.headers.authorization?.startsWith('Bearer ') === true) return false;
  return request.cookies[SESSION_COOKIE] !== undefined || request.cookies[REFRESH_COOKIE] !== undefined;
}

function isWebSocketUpgrade(request: FastifyRequest): boolean {
  return request.method === 'GET' && request.headers.upgrade?.toLowerCase() === 'websocket';
}

/**
 * Cross-site request forgery and cross-site WebSocket hijacking: a state-changing request or a
 * `/ws` upgrade that relies on the session cookie must come from a page of this server's own
 * origin (or one listed in ALLOWED_ORIGINS); otherwise 403 `auth.originRejected`, before the
 * session is even looked up. Browsers always send Origin on these requests; the Referer is the
 * fallback for clients that omit it. Bearer-token callers (apps, simulator) carry no ambient
 * authority and are not checked. Must be installed after @fastify/cookie (it reads request.cookies).
 */
export function installOriginCheck(app: FastifyInstance): void {
  const allowed = new Set(app.config.allowedOrigins);
  const check = async (request: FastifyRequest) => {
    if (!isCookieAuthenticated(request)) return;
    const origin = callerOrigin(request);
    if (origin !== undefined && (origin === ownOrigin(request) || allowed.has(origin))) return;
    request.log.warn(
      { origin: origin ?? null },
      'cookie-authenticated request from a foreign origin refused',
    );
    throw new AppError('auth.originRejected');
  };
  app.addHook('onRequest', async (request) => {
    if (STATE_CHANGING_METHODS.has(request.method)) await check(request);
  });
  // Upgrades after every onRequest hook: @fastify/websocket's marks the request so that a refused
  // upgrade's socket is closed; still before the route's own session check.
  app.addHook('preValidation', async (request) => {
    if (isWebSocketUpgrade(request)) await check(request);
  });
}
