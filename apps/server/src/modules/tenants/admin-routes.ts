import {
  alertSettingsSchema,
  emailTemplateInputSchema,
  emailTemplateParamsSchema,
  emailTemplatePreviewInputSchema,
  emailTemplatePreviewSchema,
  emailTemplateQuerySchema,
  emailTemplateSchema,
  pageOf,
  successEnvelope,
  tenantConnectionTestSchema,
  tenantConnectionsInputSchema,
  tenantConnectionsSchema,
  tenantCreateSchema,
  tenantDetailSchema,
  tenantListItemSchema,
  tenantListQuerySchema,
  tenantLogoQuerySchema,
  tenantSettingsUpdateSchema,
  tenantUpdateSchema,
} from '@rpm/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import type { FileStorage } from '../../lib/file-storage.js';
import { readTenantAlertSettings, updateTenantAlertSettings } from './alert-settings.js';
import { createTenant, listTenants, readTenantDetail, updateTenantIdentity, updateTenantSettings, type TenantAdminEnvironment } from './admin-service.js';
import { previewEmailTemplate, readEmailTemplate, saveEmailTemplate, uploadTenantLogo, type Upload } from './branding.js';
import { ConnectionChecksThrottled, readTenantConnections, saveTenantConnections, testTenantConnections } from './connections.js';

type ManageApp = Parameters<FastifyPluginAsyncZod>[0];

const idParams = z.object({ id: z.uuid() });
const tags = ['tenants'];
const detailResponse = { 200: successEnvelope(tenantDetailSchema) };

const fileMissing = () => new AppError('file.missing', { fieldErrors: [{ field: 'body.file', code: 'required', message: 'file.missing' }] });

/** The multipart field `file`, read only when the service asks (after the tenant is found). */
function receiveFile(request: FastifyRequest): () => Promise<Upload> {
  return async () => {
    if (!request.isMultipart()) throw fileMissing();
    let part: Awaited<ReturnType<FastifyRequest['file']>>;
    try {
      part = await request.file();
    } catch (error) {
      throw new AppError('common.invalidParameter', { cause: error });
    }
    if (part === undefined) throw fileMissing();
    const { file } = part;
    if (part.fieldname !== 'file') {
      file.resume();
      throw fileMissing();
    }
    return { stream: file, isTruncated: () => file.truncated };
  };
}

/** A caller over the connection-check limit is told when to come back (Retry-After, seconds). */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConnectionChecksThrottled) void reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

/** The console's address as the caller reached it: the link in a first admin's welcome email. */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Super-admin tenant management under /manage/sadmin/tenant (spec §2 tenant screens, §7). */
export function registerTenantAdminRoutes(app: ManageApp, storage: FileStorage): void {
  const environmentOf = (request: FastifyRequest): TenantAdminEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    secretsKey: app.config.secretsKey,
    kick: () => {
      app.messaging.kick();
    },
    log: request.log,
  });

  app.get(
    '/sadmin/tenant/all',
    {
      config: { access: 'tenant.view' },
      schema: {
        tags,
        summary: 'Tenants (paged, search, sort by name or creation) with counts of branches, admins, doctors and patients',
        querystring: tenantListQuerySchema,
        response: { 200: successEnvelope(pageOf(tenantListItemSchema)) },
      },
    },
    async (request) => ok(await listTenants(environmentOf(request), request.query)),
  );

  app.get(
    '/sadmin/tenant/:id',
    { config: { access: 'tenant.view' }, schema: { tags, summary: 'Tenant information', params: idParams, response: detailResponse } },
    async (request) => ok(await readTenantDetail(environmentOf(request), request.params.id)),
  );

  app.post(
    '/sadmin/tenant',
    {
      config: { access: 'tenant.create' },
      schema: {
        tags,
        summary: 'Create a tenant ("Tenant name already exists"); with `admin`, its first ADMIN is created and emailed a set-password code',
        body: tenantCreateSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await createTenant(environmentOf(request), request.body, originOf(request))),
  );

  app.put(
    '/sadmin/tenant/:id',
    {
      config: { access: 'tenant.update' },
      schema: { tags, summary: 'Change a tenant’s name, official name, public URL or status (the login code never changes)', params: idParams, body: tenantUpdateSchema, response: detailResponse },
    },
    async (request) => ok(await updateTenantIdentity(environmentOf(request), request.params.id, request.body)),
  );

  app.put(
    '/sadmin/tenant/:id/settings',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Change tenant settings (spec §3 keys, each checked against its allowed values; null restores the default). PASSWORD_RULE is the security setting.',
        params: idParams,
        body: tenantSettingsUpdateSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await updateTenantSettings(environmentOf(request), request.params.id, request.body)),
  );

  app.get(
    '/sadmin/tenant/:id/alert-settings',
    {
      config: { access: 'tenant.view' },
      schema: {
        tags,
        summary: 'A tenant’s alert settings (high-risk confirmation seconds, SOS KPI minutes, the status come-down window), read from the tenant screens',
        params: idParams,
        response: { 200: successEnvelope(alertSettingsSchema) },
      },
    },
    async (request) => ok(await readTenantAlertSettings(environmentOf(request), request.params.id)),
  );

  app.put(
    '/sadmin/tenant/:id/alert-settings',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Change a tenant’s alert settings from the tenant screens (statusSettleMinutes 5-1440; omitted: unchanged). Audited in the tenant',
        params: idParams,
        body: alertSettingsSchema,
        response: { 200: successEnvelope(alertSettingsSchema) },
      },
    },
    async (request) => ok(await updateTenantAlertSettings(environmentOf(request), request.params.id, request.body)),
  );

  app.post(
    '/sadmin/tenant/:id/logo',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Upload a logo (square, horizontal: PNG) or the registration QR code (PNG or JPEG), at most 1 MB',
        description: 'Multipart field `file`; the type is recognised by content, not by name.',
        consumes: ['multipart/form-data'],
        params: idParams,
        querystring: tenantLogoQuerySchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await uploadTenantLogo({ ...environmentOf(request), storage }, request.params.id, request.query.kind, receiveFile(request))),
  );

  app.get(
    '/sadmin/tenant/:id/email-template/:key',
    {
      config: { access: 'tenant.view' },
      schema: { tags, summary: 'An email template of the tenant in a language (its own wording, or the default)', params: emailTemplateParamsSchema, querystring: emailTemplateQuerySchema, response: { 200: successEnvelope(emailTemplateSchema) } },
    },
    async (request) => ok(await readEmailTemplate(environmentOf(request), request.params.id, request.params.key, request.query.language)),
  );

  app.put(
    '/sadmin/tenant/:id/email-template/:key',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Word an email template (plain text; placeholders {{name}} {{email}} {{tenant}} {{tenantCode}} {{link}} {{code}} {{minutes}})',
        params: emailTemplateParamsSchema,
        querystring: emailTemplateQuerySchema,
        body: emailTemplateInputSchema,
        response: { 200: successEnvelope(emailTemplateSchema) },
      },
    },
    async (request) => ok(await saveEmailTemplate(environmentOf(request), request.params.id, request.params.key, request.query.language, request.body)),
  );

  app.post(
    '/sadmin/tenant/:id/email-template/:key/preview',
    {
      config: { access: 'tenant.view' },
      schema: {
        tags,
        summary: 'Render a template (the given text, else the stored one) with sample values; `html` is escaped and safe to show',
        params: emailTemplateParamsSchema,
        querystring: emailTemplateQuerySchema,
        body: emailTemplatePreviewInputSchema,
        response: { 200: successEnvelope(emailTemplatePreviewSchema) },
      },
    },
    async (request) => ok(await previewEmailTemplate(environmentOf(request), request.params.id, request.params.key, request.query.language, request.body)),
  );

  app.get(
    '/sadmin/tenant/:id/connections',
    {
      config: { access: 'tenant.view' },
      schema: { tags, summary: 'Connection type and the stored connections (passwords are never returned)', params: idParams, response: { 200: successEnvelope(tenantConnectionsSchema) } },
    },
    async (request) => ok(await readTenantConnections(environmentOf(request), request.params.id)),
  );

  app.post(
    '/sadmin/tenant/:id/connections/test',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary:
          'Connect to each supplied server (5 s timeout) and check what it reached; any failure is one "Could not contact the supplied server". ROOT and SUPER_ADMIN only; 10 tests or saves per caller per 10 minutes (429 with Retry-After)',
        description:
          'A connection is refused, with the same answer as an unreachable server, when it leads to the platform database or to a database of another tenant, or when its role is (or belongs to) a superuser, BYPASSRLS or CREATEROLE role.',
        params: idParams,
        body: tenantConnectionsInputSchema,
        response: { 200: successEnvelope(tenantConnectionTestSchema) },
      },
    },
    async (request, reply) => ok(await withRetryAfter(reply, () => testTenantConnections(environmentOf(request), request.params.id, request.body))),
  );

  app.put(
    '/sadmin/tenant/:id/connections',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary:
          'Save the connection type: SHARED, or DEDICATED with exactly three connections tested and checked as by the test call (primary is migrated and then serves the tenant); counts against the same limit',
        params: idParams,
        body: tenantConnectionsInputSchema,
        response: { 200: successEnvelope(tenantConnectionsSchema) },
      },
    },
    async (request, reply) => ok(await withRetryAfter(reply, () => saveTenantConnections(environmentOf(request), request.params.id, request.body))),
  );
}
