import {
  assignableUserSchema,
  assignRoleSchema,
  customRoleSchema,
  defaultRoleSchema,
  pageOf,
  roleInputSchema,
  roleListQuerySchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import * as roles from './service.js';

const idParams = z.object({ id: z.uuid() });

/** Role and permission management (default roles read-only, custom roles per tenant). */
export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: Parameters<typeof requireAuth>[0]): roles.RoleEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['roles'];

  app.get(
    '/role/default',
    {
      config: { access: 'permission.view' },
      schema: { tags, summary: 'Default roles and what they grant', response: { 200: successEnvelope(z.array(defaultRoleSchema)) } },
    },
    async () => ok(roles.listDefaultRoles()),
  );

  app.get(
    '/role',
    {
      config: { access: 'permission.view' },
      schema: { tags, summary: 'Custom roles of the tenant (paged, searchable by name)', querystring: roleListQuerySchema, response: { 200: successEnvelope(pageOf(customRoleSchema)) } },
    },
    async (request) => ok(await roles.listCustomRoles(environmentOf(request), request.query)),
  );

  app.get(
    '/role/:id',
    {
      config: { access: 'permission.view' },
      schema: { tags, summary: 'One custom role', params: idParams, response: { 200: successEnvelope(customRoleSchema) } },
    },
    async (request) => ok(await roles.getCustomRole(environmentOf(request), request.params.id)),
  );

  app.post(
    '/role',
    {
      config: { access: 'permission.update' },
      schema: { tags, summary: 'Create a custom role ("Role exists" for a duplicate name)', body: roleInputSchema, response: { 200: successEnvelope(customRoleSchema) } },
    },
    async (request) => ok(await roles.createCustomRole(environmentOf(request), request.body)),
  );

  app.put(
    '/role/:id',
    {
      config: { access: 'permission.update' },
      schema: {
        tags,
        summary: 'Change a custom role; its holders must log in again when what it grants changes',
        params: idParams,
        body: roleInputSchema,
        response: { 200: successEnvelope(customRoleSchema) },
      },
    },
    async (request) => ok(await roles.updateCustomRole(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/role/:id',
    {
      config: { access: 'permission.update' },
      schema: { tags, summary: 'Delete a custom role no one holds', params: idParams, response: { 200: successEnvelope(z.null()) } },
    },
    async (request) => {
      await roles.deleteCustomRole(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/role/assignable-users',
    {
      config: { access: 'permission.update' },
      schema: { tags, summary: 'Users of the tenant a role can be assigned to (paged, search by name, email, phone)', querystring: roleListQuerySchema, response: { 200: successEnvelope(pageOf(assignableUserSchema)) } },
    },
    async (request) => ok(await roles.listAssignableUsers(environmentOf(request), request.query)),
  );

  app.put(
    '/admin/user/role',
    {
      config: { access: 'permission.update' },
      schema: { tags, summary: 'Give a user a default or custom role (their sessions end)', body: assignRoleSchema, response: { 200: successEnvelope(assignableUserSchema) } },
    },
    async (request) => ok(await roles.assignRole(environmentOf(request), request.body.userId, request.body.role)),
  );
};
