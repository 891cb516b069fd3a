import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import { isApiPath } from './access.js';
import { isSecureDeployment } from './request-origin.js';

/**
 * Written by the console build into index.html (`html.cspNonce` in apps/console/vite.config.ts);
 * replaced by a fresh nonce in every copy of index.html the server sends.
 */
export const CSP_NONCE_PLACEHOLDER = '__RPM_CSP_NONCE__';

/**
 * Camera and microphone stay allowed for this origin only: the video calls of online appointments
 * run in the console and the patient app on this origin, and the browser still asks the user. Every other powerful feature is off.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=(self)',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=(self)',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');
/**
 * The patient app (/app/) sends its SOS with the phone's location (spec §4), so it may ask for
 * geolocation on this origin (the browser still asks the patient); everything else as above.
 */
const PATIENT_APP_PERMISSIONS_POLICY = PERMISSIONS_POLICY.replace('geolocation=()', 'geolocation=(self)');
const isPatientAppPath = (pathname: string) => pathname === '/app' || pathname.startsWith('/app/');

const COMMON_DIRECTIVES = [
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** Same-host WebSocket sources: CSP 'self' does not cover ws:/wss: in every browser. */
function webSocketSources(request: FastifyRequest): string[] {
  const host = request.host;
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
    ? [`ws://${host}`, `wss://${host}`]
    : [];
}

/**
 * The console's policy (and every API answer's): scripts only from this origin, never inline and
 * never eval; styles only from this origin or in <style> elements carrying the page's nonce
 * (Mantine writes its theme variables into such elements). No 'unsafe-inline' at all: inline
 * style attributes in markup are refused too. The console sets styles through the CSSOM (React's
 * style props, uPlot), which the policy does not govern.
 */
export function consolePolicy(request: FastifyRequest, nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self'${nonce === undefined ? '' : ` 'nonce-${nonce}'`}`,
    "img-src 'self' data: blob:",
    // A medical record's PDF is shown in a frame on a blob: URL the console made from the file it fetched.
    "frame-src blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...webSocketSources(request)].join(' '),
    ...COMMON_DIRECTIVES,
  ].join('; ');
}

/** Swagger UI at /docs: its own scripts only; it adds a <style> element of its own, so inline styles are allowed there. */
const DOCS_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  ...COMMON_DIRECTIVES,
].join('; ');

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Security headers on every answer (API, console files, docs, errors), and no source maps served:
 * any `*.map` outside the API answers 404 whether or not the file exists.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const pathname = pathOf(request.url);
    const isDocs = pathname === '/docs' || pathname.startsWith('/docs/');
    reply.header('content-security-policy', isDocs ? DOCS_POLICY : consolePolicy(request));
    if (isSecureDeployment(app.config, request)) {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('permissions-policy', isPatientAppPath(pathname) ? PATIENT_APP_PERMISSIONS_POLICY : PERMISSIONS_POLICY);
    reply.header('cross-origin-opener-policy', 'same-origin');
  });
  // After every onRequest hook (a WebSocket upgrade refused earlier would keep its socket open).
  app.addHook('preValidation', async (request) => {
    if (pathOf(request.url).endsWith('.map') && !isApiPath(request.url))
      throw new AppError('common.routeNotFound');
  });
}

/**
 * Sends the console's index.html with a fresh CSP nonce for the page's style elements. Read at
 * each request (it is small) so a rebuilt console is served without a restart.
 */
export async function sendConsoleIndex(consoleDir: string, reply: FastifyReply): Promise<FastifyReply> {
  const html = await readFile(path.join(consoleDir, 'index.html'), 'utf8');
  const nonce = randomBytes(16).toString('base64');
  return reply
    .header('content-security-policy', consolePolicy(reply.request, nonce))
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
}
