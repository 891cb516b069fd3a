import { successEnvelope, tenantSettingsResponseSchema, tenantSummarySchema } from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { listTenantsForLogin, readPublicSettings } from './service.js';

export const manageTenantRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/tenant/all',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tenants'],
        summary: 'Active tenants, for the login screen’s tenant picker',
        response: { 200: successEnvelope(z.array(tenantSummarySchema)) },
      },
    },
    async () => ok(await listTenantsForLogin(app.database.system)),
  );
};

export const accountTenantRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/tenant/setting/getAll',
    {
      config: { access: 'session' },
      schema: {
        tags: ['tenants'],
        summary: 'Settings of the caller’s tenant (branding, units, language, password rule)',
        response: { 200: successEnvelope(tenantSettingsResponseSchema) },
      },
    },
    async (request) => ok(await readPublicSettings(app.database.system, requireAuth(request).tenantId)),
  );
};
