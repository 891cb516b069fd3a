import {
  activationCodeListQuerySchema,
  activationCodeSchema,
  codePackageInputSchema,
  codePackageListQuerySchema,
  codePackageSchema,
  codeStateChangeSchema,
  redeemCodeSchema,
  packageInputSchema,
  packageListQuerySchema,
  packageStateSchema,
  pageOf,
  patientSubscriptionsSchema,
  servicePackageSchema,
  subscribeSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { attachmentHeader, XLSX_CONTENT_TYPE } from '../../lib/xlsx.js';
import {
  changeCodeState,
  exportCodes,
  generateCodePackage,
  listCodePackages,
  listCodes,
  readCodePackage,
  redeemCode,
  type CodeEnvironment,
} from './codes.js';
import { createPackage, listPackages, setPackageEnabled, updatePackage, } from './catalogue.js';
import {
  cancelMySubscription,
  cancelPatientSubscription,
  listOffer,
  readMySubscription,
  readPatientSubscriptions,
  subscribePatient,
} from './service.js';

const idParams = z.object({ id: z.uuid() });
const RULES =
  'Package ID: letters, digits, - and _ (package.codeExists, "Package ID is existed"); a unique name (package.nameExists); price in integer minor units of the currency (VND none, USD and CAD cents); durationMonths 1..120 or -1 unlimited; limits -1 unlimited; a paid package gives at least one feature; the ZERO plan is the free default package. Audited';

function environmentFactory(app: Parameters<FastifyPluginAsyncZod>[0]) {
  return (request: FastifyRequest): CodeEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    secretsKey: app.config.secretsKey,
  });
}

/** Package management (spec §2) and a patient's package, under /account. */
export const packageAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFactory(app);
  const tags = ['packages'];
  const packageResponse = { 200: successEnvelope(servicePackageSchema) };
  const subscriptionsResponse = { 200: successEnvelope(patientSubscriptionsSchema) };

  app.get(
    '/packages',
    {
      config: { access: 'transaction.view' },
      schema: {
        tags,
        summary:
          'Packages and add-on services of the tenant, paged, searchable (name, id, description), filterable by kind and enabled, sortable (sortField price|name|code|created), each with its current subscribers',
        querystring: packageListQuerySchema,
        response: { 200: successEnvelope(pageOf(servicePackageSchema)) },
      },
    },
    async (request) => ok(await listPackages(environmentOf(request), request.query)),
  );

  app.post(
    '/packages',
    {
      config: { access: 'transaction.manage' },
      schema: { tags, summary: 'Create a package or add-on service', description: RULES, body: packageInputSchema, response: packageResponse },
    },
    async (request) => ok(await createPackage(environmentOf(request), request.body)),
  );

  app.put(
    '/packages/:id',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary:
          'Edit a package or add-on (a new price applies to new subscriptions; the currency stays once someone subscribed: package.currencyLocked; the kind never changes)',
        description: RULES,
        params: idParams,
        body: packageInputSchema,
        response: packageResponse,
      },
    },
    async (request) => ok(await updatePackage(environmentOf(request), request.params.id, request.body)),
  );

  app.put(
    '/packages/:id/state',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary:
          'Disable (no new subscriptions; current ones run to their end) or enable again. The default package stays enabled (package.defaultLocked). Audited',
        params: idParams,
        body: packageStateSchema,
        response: packageResponse,
      },
    },
    async (request) => ok(await setPackageEnabled(environmentOf(request), request.params.id, request.body.enabled)),
  );

  app.get(
    '/patients/:id/subscriptions',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary: 'A patient’s package now (features, limits, add-ons, wearable) and its subscriptions, newest first. Audited (SUBSCRIPTIONS_VIEWED)',
        params: idParams,
        response: subscriptionsResponse,
      },
    },
    async (request) => ok(await readPatientSubscriptions(environmentOf(request), request.params.id)),
  );

  app.post(
    '/patients/:id/subscription',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary:
          'Put the patient on a package or add-on (paid at the center; receiptId names the receipt): a package replaces the current one (change of package) or, the same package, extends it from its end; the default package ends it. package.disabled, package.wearableRequired for a paid package without a bound wearable. Audited',
        params: idParams,
        body: subscribeSchema,
        response: subscriptionsResponse,
      },
    },
    async (request) => ok(await subscribePatient(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/patients/:id/subscription',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary: 'Cancel the patient’s package: back to the default package at once (on it already: nothing changes). Audited',
        params: idParams,
        response: subscriptionsResponse,
      },
    },
    async (request) => ok(await cancelPatientSubscription(environmentOf(request), request.params.id)),
  );
};

/** Activation-code packages (spec §2 code package management, code list with export), under /account. */
export const codePackageAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFactory(app);
  const tags = ['packages'];
  const codePackageResponse = { 200: successEnvelope(codePackageSchema) };
  const batchParams = z.object({ id: z.uuid() });

  app.get(
    '/code-packages',
    {
      config: { access: 'transaction.view' },
      schema: {
        tags,
        summary: 'Code packages with their codes counted per state, paged, searchable (name, organisation, prefix), sortable (created|name|expires)',
        querystring: codePackageListQuerySchema,
        response: { 200: successEnvelope(pageOf(codePackageSchema)) },
      },
    },
    async (request) => ok(await listCodePackages(environmentOf(request), request.query)),
  );

  app.post(
    '/code-packages',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary:
          'Generate a code package: every field required (spec §5), the end date after the start, a series prefix of its own (codePackage.prefixExists), a package of the type (PACKAGE or ADDON). Answers the .xlsx of series and secret codes: the only time the codes are shown (they are stored hashed). The batch id is in the X-Code-Package-Id header. Audited',
        body: codePackageInputSchema,
      },
    },
    async (request, reply) => {
      const generated = await generateCodePackage(environmentOf(request), request.body);
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-disposition', attachmentHeader(generated.fileName))
        .header('cache-control', 'no-store')
        .header('x-code-package-id', generated.codePackage.id)
        .send(generated.file);
    },
  );

  app.get(
    '/code-packages/:id',
    {
      config: { access: 'transaction.view' },
      schema: {
        tags,
        summary: 'One code package: its fields and its codes counted per state (never a secret code); codePackage.notFound',
        params: batchParams,
        response: codePackageResponse,
      },
    },
    async (request) => ok(await readCodePackage(environmentOf(request), request.params.id)),
  );

  app.get(
    '/code-packages/:id/codes',
    {
      config: { access: 'transaction.view' },
      schema: {
        tags,
        summary: 'A code package’s codes: series, state, purchase and activation dates, who used it (never the secret code), paged, by series; filter state, search series',
        params: batchParams,
        querystring: activationCodeListQuerySchema,
        response: { 200: successEnvelope(pageOf(activationCodeSchema)) },
      },
    },
    async (request) => ok(await listCodes(environmentOf(request), request.params.id, request.query)),
  );

  app.get(
    '/code-packages/:id/export',
    {
      config: { access: 'transaction.export' },
      schema: { tags, summary: 'The code list as .xlsx (series, state, dates, organisation; never the secret codes). Audited', params: batchParams },
    },
    async (request, reply) => {
      const exported = await exportCodes(environmentOf(request), request.params.id);
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-disposition', attachmentHeader(exported.fileName))
        .send(exported.file);
    },
  );

  app.put(
    '/code-packages/:id/state',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary: 'markPaid: every unpaid code of the batch becomes PAID with its purchase date (the organisation paid). Audited',
        params: batchParams,
        body: codeStateChangeSchema,
        response: codePackageResponse,
      },
    },
    async (request) => ok(await changeCodeState(environmentOf(request), { codePackageId: request.params.id }, request.body.action)),
  );

  app.put(
    '/activation-codes/:id/state',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary: 'lock: the code is refused when entered; unlock: back to NOT_PAID or PAID. A used code stays used (activationCode.unavailable). Audited',
        params: batchParams,
        body: codeStateChangeSchema,
        response: codePackageResponse,
      },
    },
    async (request) => ok(await changeCodeState(environmentOf(request), { codeId: request.params.id }, request.body.action)),
  );
};

/** The patient app's subscriptions under /health/me. */
export const packageMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFactory(app);
  const tags = ['patient app'];
  const subscriptionsResponse = { 200: successEnvelope(patientSubscriptionsSchema) };

  app.get(
    '/me/packages',
    {
      config: { access: 'health.view' },
      schema: { tags, summary: 'The enabled packages and add-ons the patient may choose, packages by price first', response: { 200: successEnvelope(z.array(servicePackageSchema)) } },
    },
    async (request) => ok(await listOffer(environmentOf(request))),
  );

  app.get(
    '/me/subscription',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The profile’s package now (own record or a sub-user held; a followed patient’s: profile.readOnly) and its subscriptions. Audited (SUBSCRIPTIONS_VIEWED)',
        response: subscriptionsResponse,
      },
    },
    async (request) => ok(await readMySubscription(environmentOf(request))),
  );

  app.post(
    '/me/subscription/cancel',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Cancel the profile’s package: back to the default package at once (on it already: nothing changes). Audited',
        response: subscriptionsResponse,
      },
    },
    async (request) => ok(await cancelMySubscription(environmentOf(request))),
  );

  app.post(
    '/me/codes/redeem',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'Scratch-card entry: the series printed on the card and its code start the batch’s package for the profile (own or a sub-user held). activationCode.wrong ("scratch card code or security code incorrect"), activationCode.unavailable (not paid, locked or outside its dates), activationCode.used; 5 refused codes a day: activationCode.tooManyAttempts. Audited',
        body: redeemCodeSchema,
        response: subscriptionsResponse,
      },
    },
    async (request) => ok(await redeemCode(environmentOf(request), request.body)),
  );
};
