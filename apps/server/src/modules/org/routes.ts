import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import { CENTER_LOGO_MAX_BYTES } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { createLocalFileStorage, type FileStorage } from '../../lib/file-storage.js';
import { registerCenterRoutes } from './center-routes.js';
import { CENTER_FORM_LIMITS, readCenterForm } from './logo.js';
import { registerManageRoutes } from './manage-routes.js';
import type { EnvironmentOf } from './route-support.js';
import { registerScopeRoutes } from './scope-routes.js';

function environmentFactory(app: FastifyInstance, storage: FileStorage): EnvironmentOf {
  return (request) => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });
}

const storageOf = (app: FastifyInstance) => createLocalFileStorage(path.join(app.config.dataDir, 'files'));

/** Scopes and health centers under /account (spec §7 "Scopes" and "Health centers"). */
export const orgAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  // Center forms are multipart: readCenterForm turns the fields and the `logo` part into the body
  // the route's schema validates. Registered here, so only this plugin's routes accept multipart.
  await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: CENTER_FORM_LIMITS });
  app.addHook('preValidation', readCenterForm);
  const environmentOf = environmentFactory(app, storageOf(app));
  registerScopeRoutes(app, environmentOf);
  registerCenterRoutes(app, environmentOf);
};

/** Centers addressed by tenant name, and the flat scope list, under /manage (spec §7 "Manage"). */
export const orgManageRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: CENTER_LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 100 },
  });
  registerManageRoutes(app, environmentFactory(app, storageOf(app)));
};
