import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  TENANT_LOGO_MAX_BYTES,
  pageOf,
  successEnvelope,
  tenantRequestApproveSchema,
  tenantRequestListQuerySchema,
  tenantRequestLogoQuerySchema,
  tenantRequestRejectSchema,
  tenantRequestSchema,
  tenantRequestSubmittedSchema,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { originOf } from '../tenants/admin-routes.js';
import { receiveTrialRequestForm } from './receive-form.js';
import {
  approveTrialRequest,
  assertSubmissionAllowed,
  listTrialRequests,
  openTrialRequestLogo,
  platformTenantOf,
  readTrialRequest,
  rejectTrialRequest,
  submitTrialRequest,
  type TrialRequestEnvironment,
} from './service.js';

const idParams = z.object({ id: z.uuid() });
const tags = ['trial requests'];
const requestResponse = { 200: successEnvelope(tenantRequestSchema) };

/** Trial requests have no /account calls (they are made before any account exists). */
export const trialRequestAccountRoutes: FastifyPluginAsyncZod = async () => undefined;

export const trialRequestManageRoutes: FastifyPluginAsyncZod = async (app) => {
  // The public form: nine text fields and two logos of at most 1 MB each.
  await app.register(fastifyMultipart, {
    limits: { fileSize: TENANT_LOGO_MAX_BYTES, files: 2, fields: 12, parts: 14, fieldSize: 8 * 1024, headerPairs: 100 },
    throwFileSizeLimit: false,
  });
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  const environmentOf = (request: FastifyRequest): TrialRequestEnvironment => ({
    database: app.database,
    clock: app.clock,
    audit: auditContextOf(request),
    storage,
    secretsKey: app.config.secretsKey,
    kick: () => {
      app.messaging.kick();
    },
    log: request.log,
  });

  app.post(
    '/tenant-request',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Ask for a trial tenant (public branding page)',
        description:
          'Multipart: organizationName, officialName, requestedCode, requesterName, email, phone, primaryColor, message, language, and both logos `logoSquare` and `logoHorizontal` (PNG, recognised by content, at most 1 MB each). At most 10 requests per address and hour.',
        consumes: ['multipart/form-data'],
        response: { 200: successEnvelope(tenantRequestSubmittedSchema) },
      },
    },
    async (request) => {
      const environment = environmentOf(request);
      await assertSubmissionAllowed(environment);
      const platform = await platformTenantOf(environment);
      const received = await receiveTrialRequestForm(request, storage, platform.id);
      return ok(await submitTrialRequest(environment, platform.id, received));
    },
  );

  app.get(
    '/sadmin/tenant-request',
    {
      config: { access: 'tenant.request' },
      schema: { tags, summary: 'Trial requests (paged, newest first, filter by status, search)', querystring: tenantRequestListQuerySchema, response: { 200: successEnvelope(pageOf(tenantRequestSchema)) } },
    },
    async (request) => ok(await listTrialRequests(environmentOf(request), request.query)),
  );

  app.get(
    '/sadmin/tenant-request/:id',
    { config: { access: 'tenant.request' }, schema: { tags, summary: 'One trial request with the URLs of its logos', params: idParams, response: requestResponse } },
    async (request) => ok(await readTrialRequest(environmentOf(request), request.params.id)),
  );

  app.get(
    '/sadmin/tenant-request/:id/logo',
    {
      config: { access: 'tenant.request' },
      schema: { tags, summary: 'A logo of a trial request (image bytes)', params: idParams, querystring: tenantRequestLogoQuerySchema },
    },
    async (request, reply) => {
      const image = await openTrialRequestLogo(environmentOf(request), request.params.id, request.query.kind);
      return reply.header('cache-control', 'private, no-cache').header('content-length', image.size).type(image.contentType).send(image.stream);
    },
  );

  app.post(
    '/sadmin/tenant-request/:id/approve',
    {
      // Approving creates a tenant: a system admin (no tenant.create) may read and reject, not approve.
      config: { access: 'tenant.create' },
      schema: {
        tags,
        summary: 'Approve: creates the tenant and its first ADMIN (the requester, emailed a set-password code); a decided request answers 409',
        params: idParams,
        body: tenantRequestApproveSchema,
        response: requestResponse,
      },
    },
    async (request) =>
      ok(await approveTrialRequest({ ...environmentOf(request), auth: requireAuth(request) }, request.params.id, request.body, originOf(request))),
  );

  app.post(
    '/sadmin/tenant-request/:id/reject',
    {
      config: { access: 'tenant.request' },
      schema: { tags, summary: 'Reject with a reason (required), which is emailed to the requester; a decided request answers 409', params: idParams, body: tenantRequestRejectSchema, response: requestResponse },
    },
    async (request) => ok(await rejectTrialRequest({ ...environmentOf(request), auth: requireAuth(request) }, request.params.id, request.body.reason)),
  );
};
