import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';
import { REPLICA_CHECK_INTERVAL_MILLISECONDS } from '../db/replica-freshness.js';
import { isSecureDeployment } from './request-origin.js';

/**
 * Read-your-writes for tenants whose reads may go to a replica. A successful write (POST, PUT,
 * PATCH, DELETE) by a session of such a tenant answers with this short-lived cookie; while the
 * browser sends it back, that caller's replica-eligible reads go to the primary. It lives as long
 * as a replica may lag (REPLICA_MAX_LAG_MS, plus the interval its lag is looked at): after that,
 * a replica allowed to serve reads has replayed the write. It is a routing hint, never trusted for
 * access; a client that drops it only risks seeing a list a few seconds old. Being a cookie, it
 * follows the caller to every server process behind a load balancer without shared state.
 */
export const FRESH_READS_COOKIE = 'rpm_fresh_reads';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Installed after access control: marks the caller's AuthContext (isFreshReadRequired) and sets the cookie after writes. */
export function installReadYourWrites(app: FastifyInstance, database: Database, maxLagMilliseconds: number): void {
  const maxAge = Math.ceil((maxLagMilliseconds + REPLICA_CHECK_INTERVAL_MILLISECONDS) / 1000);
  app.addHook('onRequest', async (request) => {
    if (request.auth !== null && request.cookies[FRESH_READS_COOKIE] !== undefined) request.auth = { ...request.auth, isFreshReadRequired: true };
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const { auth } = request;
    if (auth === null || READ_METHODS.has(request.method) || reply.statusCode >= 400) return payload;
    if (await database.hasReplica(auth.tenantId)) {
      reply.setCookie(FRESH_READS_COOKIE, '1', { path: '/', httpOnly: true, sameSite: 'strict', secure: isSecureDeployment(app.config, request), maxAge });
    }
    return payload;
  });
}
