import {
  cdrFileSchema,
  checkoutResultSchema,
  checkoutSchema,
  couponInputSchema,
  couponListQuerySchema,
  couponSchema,
  couponStateSchema,
  orderExportSchema,
  orderListQuerySchema,
  orderSchema,
  pageOf,
  pageQuerySchema,
  quoteSchema,
  refundSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { attachmentHeader, XLSX_CONTENT_TYPE } from '../../lib/xlsx.js';
import { paymentEndpointsOf } from '../payments/directory.js';
import { listCdrFiles, readCdrFile } from './cdr.js';
import { checkout, quoteCheckout, type OrderEnvironment } from './checkout.js';
import { createCoupon, listCoupons, setCouponEnabled } from './coupons.js';
import { exportOrders, listMyOrders, listOrders, paymentsTranslator, readMyOrder, readOrderForStaff, refundOrder } from './history.js';

const idParams = z.object({ id: z.uuid() });
const codeParams = z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

function environmentFactory(app: Parameters<FastifyPluginAsyncZod>[0]) {
  const endpoints = paymentEndpointsOf(app.config);
  return (request: FastifyRequest): OrderEnvironment => ({
    database: app.database,
    clock: app.clock,
    secretsKey: app.config.secretsKey,
    endpoints,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
}

/** Transaction control, order history, exports, CDR files and coupons (spec §2), under /account. */
export const orderAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFactory(app);
  const tags = ['transactions'];
  const orderResponse = { 200: successEnvelope(orderSchema) };

  app.get(
    '/transactions',
    {
      config: { access: 'transaction.view' },
      schema: {
        tags,
        summary: 'Orders of the patients the caller sees: search (code, customer, phone, package), status, payment method, type, days from/to in the tenant’s time zone; sorted',
        querystring: orderListQuerySchema,
        response: { 200: successEnvelope(pageOf(orderSchema)) },
      },
    },
    async (request) => ok(await listOrders(environmentOf(request), request.query)),
  );

  app.post(
    '/transactions/export',
    {
      config: { access: 'transaction.export' },
      schema: {
        tags,
        summary: 'Order history as .xlsx with the chosen attributes in their order (spec §5: at least one attribute, a payment method and a date); export.noData when none. Audited',
        body: orderExportSchema,
      },
    },
    async (request, reply) => {
      const exported = await exportOrders(environmentOf(request), request.body, paymentsTranslator(request.language));
      return reply.header('content-type', XLSX_CONTENT_TYPE).header('content-disposition', attachmentHeader(exported.fileName)).header('cache-control', 'no-store').send(exported.file);
    },
  );

  app.get(
    '/transactions/cdr',
    {
      config: { access: 'transaction.export' },
      schema: { tags, summary: 'The daily CDR files (written after midnight, tenant time), newest first', querystring: pageQuerySchema, response: { 200: successEnvelope(pageOf(cdrFileSchema)) } },
    },
    async (request) => ok(await listCdrFiles(environmentOf(request), request.query)),
  );

  app.get(
    '/transactions/cdr/:id',
    {
      config: { access: 'transaction.export' },
      schema: { tags, summary: 'One CDR file (CSV)', params: idParams },
    },
    async (request, reply) => {
      const file = await readCdrFile(environmentOf(request), request.params.id);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', attachmentHeader(file.fileName)).header('cache-control', 'no-store').send(file.content);
    },
  );

  app.get(
    '/transactions/:id',
    {
      config: { access: 'transaction.view' },
      schema: { tags, summary: 'One order with its items, payment result and refund', params: idParams, response: orderResponse },
    },
    async (request) => ok(await readOrderForStaff(environmentOf(request), request.params.id)),
  );

  app.post(
    '/transactions/:id/refund',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary: 'Refund a paid order in full (through the provider where it refunds; VNPay’s are made in its portal and recorded here); its package ends if still current. order.notRefundable. Audited',
        params: idParams,
        body: refundSchema,
        response: orderResponse,
      },
    },
    async (request) => ok(await refundOrder(environmentOf(request), request.params.id, request.body.reason)),
  );

  app.get(
    '/coupons',
    {
      config: { access: 'transaction.view' },
      schema: { tags, summary: 'The tenant’s coupons', querystring: couponListQuerySchema, response: { 200: successEnvelope(pageOf(couponSchema)) } },
    },
    async (request) => ok(await listCoupons(environmentOf(request), request.query)),
  );

  app.post(
    '/coupons',
    {
      config: { access: 'transaction.manage' },
      schema: {
        tags,
        summary: 'A coupon: PERCENT (basis points, at most 10000) or AMOUNT (minor units of its currency), dates, uses (-1 unlimited); coupon.codeExists. Audited',
        body: couponInputSchema,
        response: { 200: successEnvelope(couponSchema) },
      },
    },
    async (request) => ok(await createCoupon(environmentOf(request), request.body)),
  );

  app.put(
    '/coupons/:id/state',
    {
      config: { access: 'transaction.manage' },
      schema: { tags, summary: 'Enable or disable a coupon. Audited', params: idParams, body: couponStateSchema, response: { 200: successEnvelope(couponSchema) } },
    },
    async (request) => ok(await setCouponEnabled(environmentOf(request), request.params.id, request.body.enabled)),
  );
};

/** The patient app's checkout and orders, under /health/me. */
export const orderMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFactory(app);
  const tags = ['patient app'];
  const rules =
    'Enabled paid packages of one currency, at most one package plus add-ons (order.invalidCart), a bound wearable (package.wearableRequired), the account’s phone 10 digits starting 098 (payment.phoneNotSupported), a usable coupon (coupon.invalid), the tenant’s tax rate';

  app.post(
    '/me/checkout/quote',
    {
      config: { access: 'health.view' },
      schema: { tags, summary: `What an order would cost, nothing stored. ${rules}`, body: checkoutSchema, response: { 200: successEnvelope(quoteSchema) } },
    },
    async (request) => ok(await quoteCheckout(environmentOf(request), request.body)),
  );

  app.post(
    '/me/checkout',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `Order for the profile (own or a sub-user held) and start its payment: answers the order and where to send the payer (none when a coupon paid it all). ${rules}; payment.methodNotFinalized when the tenant takes no payments. Audited`,
        body: checkoutSchema,
        response: { 200: successEnvelope(checkoutResultSchema) },
      },
    },
    async (request) => ok(await checkout(environmentOf(request), request.body, { ipAddress: request.ip, locale: request.language === 'vi' ? 'vi' : 'en' })),
  );

  app.get(
    '/me/orders',
    {
      config: { access: 'health.view' },
      schema: { tags, summary: 'The profile’s orders, newest first (a followed patient’s: none)', querystring: pageQuerySchema, response: { 200: successEnvelope(pageOf(orderSchema)) } },
    },
    async (request) => ok(await listMyOrders(environmentOf(request), request.query)),
  );

  app.get(
    '/me/orders/:code',
    {
      config: { access: 'health.view' },
      schema: { tags, summary: 'One of the profile’s orders by its code (the payment result screen)', params: codeParams, response: { 200: successEnvelope(orderSchema) } },
    },
    async (request) => ok(await readMyOrder(environmentOf(request), request.params.code)),
  );
};
