import {
  pageOf,
  scopeAdminListQuerySchema,
  scopeAdminSchema,
  scopeAdminsInputSchema,
  scopeChildrenQuerySchema,
  scopeDetailSchema,
  scopeHierarchyQuerySchema,
  scopeInputSchema,
  scopeListQuerySchema,
  scopeNameStatusSchema,
  scopeNodeSchema,
  scopeSchema,
  scopeUpdateSchema,
  successEnvelope,
} from '@rpm/contracts';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { type EnvironmentOf, type OrgApp } from './route-support.js';
import * as scopes from './scope-service.js';

const idParams = z.object({ id: z.uuid() });
const tags = ['scopes'];
const detailResponse = { 200: successEnvelope(scopeDetailSchema) };
const WHOLE_TENANT = 'Needs a caller who sees the whole acting tenant (platform staff or a tenant-wide admin); others get 403.';

/** GET|POST|PUT|DELETE /account/sadmin/mhsc/scope… and GET /account/smadmin/scope… */
export function registerScopeRoutes(app: OrgApp, environmentOf: EnvironmentOf): void {
  app.get(
    '/sadmin/mhsc/scope',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: { tags, summary: 'Scopes of the acting tenant (paged; search by name, filter by type and parent)', description: WHOLE_TENANT, querystring: scopeListQuerySchema, response: { 200: successEnvelope(pageOf(scopeSchema)) } },
    },
    async (request) => ok(await scopes.listScopes(environmentOf(request), request.query)),
  );

  app.get(
    '/sadmin/mhsc/scope/children',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: { tags, summary: 'Direct children of a scope (without scopeId: the root scopes)', querystring: scopeChildrenQuerySchema, response: { 200: successEnvelope(z.array(scopeSchema)) } },
    },
    async (request) => ok(await scopes.listChildScopes(environmentOf(request), request.query.scopeId)),
  );

  app.get(
    '/sadmin/mhsc/scope/hierarchy',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: {
        tags,
        summary: 'A scope as a tree: its ancestors up to the root (isFetchParent) and its subtree (isFetchChildren); without scopeId every tree',
        querystring: scopeHierarchyQuerySchema,
        response: { 200: successEnvelope(z.array(scopeNodeSchema)) },
      },
    },
    async (request) => ok(await scopes.scopeHierarchy(environmentOf(request), request.query)),
  );

  app.get(
    '/sadmin/mhsc/scope/support-admin',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: { tags, summary: 'Admins and support admins of a scope (paged)', querystring: scopeAdminListQuerySchema, response: { 200: successEnvelope(pageOf(scopeAdminSchema)) } },
    },
    async (request) => ok(await scopes.listScopeAdmins(environmentOf(request), request.query)),
  );

  app.get(
    '/sadmin/mhsc/scope/:id',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: { tags, summary: 'One scope with its parent, number of children, centers and admins', params: idParams, response: detailResponse },
    },
    async (request) => ok(await scopes.getScope(environmentOf(request), request.params.id)),
  );

  app.post(
    '/sadmin/mhsc/scope',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: {
        tags,
        summary: 'Create a scope: a root is level 1, a child one level below its parent, at most level 5 ("scope.invalidLevel"); name unique per level ("scope.nameExists")',
        body: scopeInputSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await scopes.createScope(environmentOf(request), request.body)),
  );

  app.put(
    '/sadmin/mhsc/scope/name-and-status/:id',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: {
        tags,
        summary: 'Rename and enable or disable a scope; disabling is refused while enabled centers, enabled child scopes or admins use it ("scope.inUse")',
        params: idParams,
        body: scopeNameStatusSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await scopes.updateScopeNameAndStatus(environmentOf(request), request.params.id, request.body)),
  );

  app.put(
    '/sadmin/mhsc/scope/:id/admins',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: { tags, summary: 'Replace a scope’s admins and support admins (active admin accounts of the tenant)', params: idParams, body: scopeAdminsInputSchema, response: detailResponse },
    },
    async (request) => ok(await scopes.setScopeAdmins(environmentOf(request), request.params.id, request.body)),
  );

  app.put(
    '/sadmin/mhsc/scope/:id',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: {
        tags,
        summary: 'Change a scope’s name, type and parent; a move takes its subtree along and must keep every level within 1 to 5',
        params: idParams,
        body: scopeUpdateSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await scopes.updateScope(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/sadmin/mhsc/scope/:id',
    {
      config: { access: 'tenant.scope', wholeTenant: true },
      schema: { tags, summary: 'Delete a scope without children ("scope.hasChildren"), centers or admins ("scope.inUse")', params: idParams, response: { 200: successEnvelope(z.null()) } },
    },
    async (request) => {
      await scopes.deleteScope(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/smadmin/scope/me',
    {
      config: { access: 'tenant.center' },
      schema: { tags, summary: 'The scopes the caller administers or acts at', response: { 200: successEnvelope(z.array(scopeSchema)) } },
    },
    async (request) => ok(await scopes.listMyScopes(environmentOf(request))),
  );

  app.get(
    '/smadmin/scope/hierarchy',
    {
      config: { access: 'tenant.center' },
      schema: {
        tags,
        summary: 'As /sadmin/mhsc/scope/hierarchy, limited to the caller’s scopes and those below them (others are not found)',
        querystring: scopeHierarchyQuerySchema,
        response: { 200: successEnvelope(z.array(scopeNodeSchema)) },
      },
    },
    async (request) => ok(await scopes.callerScopeHierarchy(environmentOf(request), request.query)),
  );

  app.get(
    '/smadmin/scope',
    {
      config: { access: 'tenant.center' },
      schema: { tags, summary: 'Scopes of the caller’s subtree (paged; search, type, parent)', querystring: scopeListQuerySchema, response: { 200: successEnvelope(pageOf(scopeSchema)) } },
    },
    async (request) => ok(await scopes.listCallerScopes(environmentOf(request), request.query)),
  );
}
