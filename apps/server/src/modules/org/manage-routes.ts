import {
  centerDetailSchema,
  manageCenterCreateSchema,
  manageCenterQuerySchema,
  manageCenterUpdateSchema,
  scopeSchema,
  successEnvelope,
} from '@rpm/contracts';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { receiveFilePart } from './logo.js';
import * as manage from './manage-service.js';
import { type EnvironmentOf, type OrgApp } from './route-support.js';
import { listAllScopes } from './scope-service.js';

const tags = ['health centers'];
const detailResponse = { 200: successEnvelope(centerDetailSchema) };
const TENANT_RULE = 'tenantName must be the tenant the caller acts in (a super admin switches tenant to manage another); any other name answers "tenant.notFound".';

/** /manage/sadmin/center… and /manage/scope/all. */
export function registerManageRoutes(app: OrgApp, environmentOf: EnvironmentOf): void {
  app.post(
    '/sadmin/center',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: { tags, summary: 'Create a health center named in the body, in scope `scope`, with its main admin', description: TENANT_RULE, body: manageCenterCreateSchema, response: detailResponse },
    },
    async (request) => ok(await manage.manageCreateCenter(environmentOf(request), request.body)),
  );

  app.put(
    '/sadmin/center',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: { tags, summary: 'Move the health center found by name to scope `scope` (null: no scope)', description: TENANT_RULE, body: manageCenterUpdateSchema, response: detailResponse },
    },
    async (request) => ok(await manage.manageMoveCenter(environmentOf(request), request.body)),
  );

  app.get(
    '/sadmin/center/detail',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: { tags, summary: 'One health center found by name (any case)', description: TENANT_RULE, querystring: manageCenterQuerySchema, response: detailResponse },
    },
    async (request) => ok(await manage.manageCenterDetail(environmentOf(request), request.query)),
  );

  app.post(
    '/sadmin/center/upload-logo',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: {
        tags,
        summary: 'Set the logo of the health center found by name',
        description: `${TENANT_RULE} Multipart field \`file\`: PNG, JPEG or WEBP (recognised by content), at most 1 MB.`,
        consumes: ['multipart/form-data'],
        querystring: manageCenterQuerySchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await manage.manageUploadLogo(environmentOf(request), request.query, () => receiveFilePart(request))),
  );

  app.get(
    '/scope/all',
    {
      config: { access: 'session' },
      schema: { tags: ['scopes'], summary: 'Every scope of the acting tenant, flat (the console caches it for its pickers)', response: { 200: successEnvelope(z.array(scopeSchema)) } },
    },
    async (request) => ok(await listAllScopes(environmentOf(request))),
  );
}
