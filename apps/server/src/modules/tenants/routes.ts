import { sendImage } from '../../http/send-image.js';
import { registerGatewayAdminRoutes } from '../messaging/gateways/routes.js';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import { TENANT_LOGO_MAX_BYTES, publicTenantSchema, successEnvelope, tenantLogoQuerySchema, tenantSettingsResponseSchema } from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { registerTenantAdminRoutes } from './admin-routes.js';
import { openPublicLogo } from './branding.js';
import { registerTenantManifestRoute } from './manifest.js';
import { findPublicTenantByCode, findPublicTenantByHost, readPublicSettings } from './service.js';

export const manageTenantRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only this plugin's routes accept multipart bodies (the logo upload): one file of at most 1 MB.
  await app.register(fastifyMultipart, {
    limits: { fileSize: TENANT_LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 100 },
    throwFileSizeLimit: false,
  });
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));

  // There is no public list of tenants: the login pages name one tenant by its exact code (typed,
  // from a link, or remembered) or by the host the console is served on.
  app.get(
    '/tenant/by-code/:code',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tenants'],
        summary: 'One active tenant by its exact code: name and logos, for the login pages',
        description:
          'Unknown, inactive and mistyped codes all answer tenant.notFound. Each of those counts against the caller’s address; after 30 in 15 minutes every lookup from it answers 429 tenant.lookupThrottled.',
        params: z.object({ code: z.string().max(64) }),
        response: { 200: successEnvelope(publicTenantSchema) },
      },
    },
    async (request) =>
      ok(await findPublicTenantByCode({ system: app.database.system, clock: app.clock, ip: request.ip }, request.params.code)),
  );

  app.get(
    '/tenant/by-host',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tenants'],
        summary: 'The active tenant whose public URL has the host this request was sent to, or null when no tenant claims it',
        response: { 200: successEnvelope(publicTenantSchema.nullable()) },
      },
    },
    async (request) => ok(await findPublicTenantByHost(app.database.system, request.host)),
  );

  app.get(
    '/tenant/:code/logo',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tenants'],
        summary: 'A tenant’s logo or registration QR code (image bytes), for the login page and branding',
        description:
          'Every 404 (unknown, inactive or platform code, or no such image) counts against the caller’s address with the misses of GET /manage/tenant/by-code/:code; past 30 in 15 minutes every call from it answers 429 tenant.lookupThrottled.',
        params: z.object({ code: z.string().trim().min(1).max(64) }),
        querystring: tenantLogoQuerySchema.extend({ v: z.string().max(40).optional().describe('Version, for caching') }),
      },
    },
    async (request, reply) => {
      const image = await openPublicLogo({ database: app.database, storage, clock: app.clock, ip: request.ip }, request.params.code, request.query.kind);
      return sendImage(reply, image, 'public, max-age=300');
    },
  );

  registerTenantManifestRoute(app, storage);
  registerTenantAdminRoutes(app, storage);
  registerGatewayAdminRoutes(app);
};

export const accountTenantRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/tenant/setting/getAll',
    {
      config: { access: 'session' },
      schema: {
        tags: ['tenants'],
        summary: 'Settings of the caller’s tenant (branding, logos, units, language, password rule)',
        response: { 200: successEnvelope(tenantSettingsResponseSchema) },
      },
    },
    async (request) => ok(await readPublicSettings(app.database.system, requireAuth(request).tenantId)),
  );
};
