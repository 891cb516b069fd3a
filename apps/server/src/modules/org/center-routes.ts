import {
  centerAdminsInputSchema,
  centerDetailSchema,
  centerDetailsInputSchema,
  centerEnabledQuerySchema,
  centerFormSchema,
  centerListQuerySchema,
  centerSummarySchema,
  centerUpdateFormSchema,
  mhscAndScopeCheckSchema,
  myCenterSchema,
  pageOf,
  successEnvelope,
} from '@rpm/contracts';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import * as centers from './center-service.js';
import { ReceivedFile } from './logo.js';
import { sendImage, type EnvironmentOf, type OrgApp } from './route-support.js';

const idParams = z.object({ id: z.uuid() });
const tags = ['health centers'];
const detailResponse = { 200: successEnvelope(centerDetailSchema) };

/** The optional logo part of a center form; only the multipart reader creates a ReceivedFile. */
const logoField = z
  .instanceof(ReceivedFile)
  .meta({ type: 'string', format: 'binary', description: 'The center’s logo: PNG, JPEG or WEBP (recognised by content), at most 1 MB' })
  .optional();

const FORM_CONVENTION =
  'multipart/form-data: each field of the center is one form field (supportAdminIds repeated or comma separated; a blank field is "not given") plus an optional file part `logo`. ' +
  'application/json with the same fields is accepted when no logo is sent. Errors: "center.nameExists", "center.invalidAdmin", "scope.notFound", "file.tooLarge" (413), "file.unsupportedType" (415).';

/** /account/sadmin/mhsc…, /account/smadmin/mhsc…, /account/user/mhsc, /account/smadmin/check-mhsc-and-scope. */
export function registerCenterRoutes(app: OrgApp, environmentOf: EnvironmentOf): void {
  app.get(
    '/sadmin/mhsc',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: {
        tags,
        summary: 'Health centers of the acting tenant (paged; search by name, address, email, phone; scopeId takes the scopes below it too)',
        querystring: centerListQuerySchema,
        response: { 200: successEnvelope(pageOf(centerSummarySchema)) },
      },
    },
    async (request) => ok(await centers.listCenters(environmentOf(request), request.query)),
  );

  app.get(
    '/sadmin/mhsc/:id',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: { tags, summary: 'One health center: every field, scope, main and support admins, staff and patient counts', params: idParams, response: detailResponse },
    },
    async (request) => ok(await centers.getCenter(environmentOf(request), request.params.id, { isTenantWide: true })),
  );

  app.post(
    '/sadmin/mhsc',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: {
        tags,
        summary: 'Create a health center with its main admin (required) and support admins; optional logo',
        description: FORM_CONVENTION,
        consumes: ['multipart/form-data', 'application/json'],
        body: centerFormSchema.safeExtend({ logo: logoField }),
        response: detailResponse,
      },
    },
    async (request) => {
      const { logo, ...form } = request.body;
      return ok(await centers.createCenter(environmentOf(request), form, logo));
    },
  );

  app.put(
    '/sadmin/mhsc/:id',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: {
        tags,
        summary: 'Replace a health center’s fields; its admins too when mainAdminId is sent; its logo when one is sent',
        description: FORM_CONVENTION,
        consumes: ['multipart/form-data', 'application/json'],
        params: idParams,
        body: centerUpdateFormSchema.safeExtend({ logo: logoField }),
        response: detailResponse,
      },
    },
    async (request) => {
      const { logo, ...form } = request.body;
      return ok(await centers.updateCenter(environmentOf(request), request.params.id, form, logo));
    },
  );

  app.put(
    '/sadmin/mhsc/deactivate/:id',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: {
        tags,
        summary: 'Enable or disable a health center; disabling is refused while staff or patients belong to it ("center.inUse": Health Center is being used)',
        params: idParams,
        querystring: centerEnabledQuerySchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await centers.setCenterEnabled(environmentOf(request), request.params.id, request.query.enabled)),
  );

  app.put(
    '/sadmin/mhsc/:id/admins',
    {
      config: { access: 'tenant.center', wholeTenant: true },
      schema: {
        tags,
        summary: 'Replace a health center’s admins: exactly one main admin and any support admins (the only way to change the main admin)',
        params: idParams,
        body: centerAdminsInputSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await centers.setCenterAdmins(environmentOf(request), request.params.id, request.body)),
  );

  app.get(
    '/sadmin/mhsc/:id/logo',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'The health center’s logo (image bytes), for anyone who may see the center', params: idParams },
    },
    async (request, reply) => sendImage(reply, await centers.openCenterLogo(environmentOf(request), request.params.id)),
  );

  app.get(
    '/smadmin/mhsc/me',
    {
      config: { access: 'tenant.center' },
      schema: { tags, summary: 'The health centers the caller administers (with MAIN or SUPPORT) and their level’s center', response: { 200: successEnvelope(z.array(myCenterSchema)) } },
    },
    async (request) => ok(await centers.listMyCenters(environmentOf(request))),
  );

  app.get(
    '/smadmin/mhsc/:id',
    {
      config: { access: 'tenant.center' },
      schema: { tags, summary: 'One health center the caller may see (any other is not found)', params: idParams, response: detailResponse },
    },
    async (request) => ok(await centers.getCenter(environmentOf(request), request.params.id, { isTenantWide: false })),
  );

  app.put(
    '/smadmin/mhsc/:id',
    {
      config: { access: 'tenant.center' },
      schema: {
        tags,
        summary: 'A center admin edits the details of a center they may see; scope, status and admins stay with the /sadmin calls',
        params: idParams,
        body: centerDetailsInputSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await centers.updateCenterDetails(environmentOf(request), request.params.id, request.body)),
  );

  app.get(
    '/user/mhsc',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'The caller’s own health centers (their level, extra levels, administered, as a patient)', response: { 200: successEnvelope(z.array(centerSummarySchema)) } },
    },
    async (request) => ok(await centers.listUserCenters(environmentOf(request))),
  );

  app.get(
    '/smadmin/check-mhsc-and-scope',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Whether the caller has any scope and any health center (administered or their level’s)', response: { 200: successEnvelope(mhscAndScopeCheckSchema) } },
    },
    async (request) => ok(await centers.checkMhscAndScope(environmentOf(request))),
  );
}
