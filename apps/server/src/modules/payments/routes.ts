import { randomBytes } from 'node:crypto';
import {
  partnerVerifyStatusSchema,
  paymentConfigTenantQuerySchema,
  paymentMethodInformationSchema,
  paymentPartnerKeySchema,
  paymentTaxSchema,
  paymentTestResultSchema,
  paymentTestSchema,
  successEnvelope,
  verifyPartnerSchema,
  verifyPaymentMethodSchema,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { findPaymentConfigByCallbackKey, paymentEndpointsOf, providerOf, readPaymentConfig, type OpenPaymentConfig } from './directory.js';
import { PaymentSignatureError, type CallbackRequest, type PaymentProvider } from './providers/provider.js';
import { openSandboxToken } from './providers/sandbox.js';
import { VNPAY_IPN_ANSWERS, type VnpayIpnAnswer } from './providers/vnpay.js';
import { sandboxPage, sandboxPagePolicy } from './sandbox-page.js';
import { applyProviderVerdict, findAttemptByOrder, type PaymentEnvironment, type VerdictOutcome } from './service.js';
import { issuePartnerKey, readPartnerStatus, readPaymentInformation, saveTaxRate, startTestPayment, verifyPartner, verifyPaymentMethod, type PaymentSettingsEnvironment } from './settings.js';

const tags = ['payments'];

/**
 * Under /auth (the spec's "Payment config" calls): the tenant's payment configuration wizard.
 * Super admins for any customer tenant, system admins for their tenants; `tenantId` (query or
 * body) names the tenant, else the session's.
 */
export const paymentConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const endpoints = paymentEndpointsOf(app.config);
  const environmentOf = (request: FastifyRequest): PaymentSettingsEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    secretsKey: app.config.secretsKey,
    kick: () => undefined,
    log: request.log,
    endpoints,
  });

  app.post(
    '/sadmin/payment-config/verify-partner-auth',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Step 1: verify the payment partner: partnerId is the tenant id, apiKey the partner key the platform issued to it. Audited',
        body: verifyPartnerSchema,
        response: { 200: successEnvelope(partnerVerifyStatusSchema) },
      },
    },
    async (request) => ok(await verifyPartner(environmentOf(request), request.body)),
  );

  app.post(
    '/sadmin/payment-config/verify-payment-method',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary:
          'Step 2 (after step 1): the payment method (VNPAY, STRIPE, SANDBOX) and its keys, proven with the provider before they are stored sealed; callbackUrl is where payers return. Audited without the keys',
        body: verifyPaymentMethodSchema,
        response: { 200: successEnvelope(paymentMethodInformationSchema) },
      },
    },
    async (request) => ok(await verifyPaymentMethod(environmentOf(request), request.body)),
  );

  app.put(
    '/sadmin/payment-config/tax',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Step 3 (after step 2): the tax rate in basis points (0 to 10000; 1000 = 10 %). Audited',
        body: paymentTaxSchema,
        response: { 200: successEnvelope(paymentMethodInformationSchema) },
      },
    },
    async (request) => ok(await saveTaxRate(environmentOf(request), request.body)),
  );

  app.get(
    '/sadmin/payment-config/partner-verify-status',
    {
      config: { access: 'tenant.view' },
      schema: { tags, summary: 'Whether the tenant’s payment partner is verified, and when', querystring: paymentConfigTenantQuerySchema, response: { 200: successEnvelope(partnerVerifyStatusSchema) } },
    },
    async (request) => ok(await readPartnerStatus(environmentOf(request), request.query.tenantId)),
  );

  app.get(
    '/sadmin/payment-config/payment-method-information',
    {
      config: { access: 'tenant.view' },
      schema: {
        tags,
        summary: 'The tenant’s payment configuration: wizard step, partner status, method, keys masked, the address the provider notifies, tax rate',
        querystring: paymentConfigTenantQuerySchema,
        response: { 200: successEnvelope(paymentMethodInformationSchema) },
      },
    },
    async (request) => ok(await readPaymentInformation(environmentOf(request), request.query.tenantId)),
  );

  app.post(
    '/sadmin/payment-config/partner-key',
    {
      config: { access: 'tenant.create' },
      schema: {
        tags,
        summary: 'Super admins: issue the tenant’s payment partner id and API key (the same each time for a tenant). Audited',
        body: paymentConfigTenantQuerySchema,
        response: { 200: successEnvelope(paymentPartnerKeySchema) },
      },
    },
    async (request) => ok(await issuePartnerKey(environmentOf(request), request.body.tenantId)),
  );

  app.post(
    '/sadmin/payment-config/test-payment',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Start a test payment of an amount (integer minor units) through the tenant’s provider; answers the payment page to open. Audited',
        body: paymentTestSchema,
        response: { 200: successEnvelope(paymentTestResultSchema) },
      },
    },
    async (request) => ok(await startTestPayment(environmentOf(request), request.body, { ipAddress: request.ip, locale: request.language === 'vi' ? 'vi' : 'en' })),
  );
};

const keyParams = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const BODY_LIMIT_BYTES = 64 * 1024;

const headersOf = (request: FastifyRequest): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]));

/** VNPay's IPN answer for what recording the verdict did. */
function ipnAnswerOf(outcome: VerdictOutcome): VnpayIpnAnswer {
  if (outcome.outcome === 'APPLIED') return VNPAY_IPN_ANSWERS.confirmed;
  if (outcome.outcome === 'IGNORED') return VNPAY_IPN_ANSWERS.alreadyConfirmed;
  return outcome.reason === 'unknownOrder' ? VNPAY_IPN_ANSWERS.orderNotFound : VNPAY_IPN_ANSWERS.invalidAmount;
}

/** Where the payer goes back to, with the outcome (the tenant's page shows it). */
function returnAddress(returnUrl: string, orderId: string, status: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('orderId', orderId);
  url.searchParams.set('status', status);
  return url.toString();
}

/**
 * Under /collector: the providers' callbacks and the sandbox's payment page. No session: VNPay's
 * are proven by vnp_SecureHash, Stripe's by Stripe-Signature, the sandbox's by its signed token; the
 * random key in the address names the tenant. Each verified verdict is recorded once.
 */
export const paymentCallbackRoutes: FastifyPluginAsyncZod = async (app) => {
  // Stripe signs the exact bytes: keep the body as sent (this plugin only).
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });
  const endpoints = paymentEndpointsOf(app.config);
  const environment: PaymentEnvironment = { database: app.database, clock: app.clock, secretsKey: app.config.secretsKey, endpoints };

  async function configByKey(key: string, method: 'VNPAY' | 'STRIPE'): Promise<OpenPaymentConfig & { method: 'VNPAY' | 'STRIPE' }> {
    const config = await findPaymentConfigByCallbackKey(app.database.system, app.config.secretsKey, key);
    if (config?.method !== method) throw new AppError('payment.unknownCallback');
    return { ...config, method };
  }

  function verify(request: FastifyRequest, provider: PaymentProvider, tenantId: string, callback: CallbackRequest) {
    try {
      return provider.verifyCallback(callback);
    } catch (error) {
      if (!(error instanceof PaymentSignatureError)) throw error;
      request.log.warn({ tenantId, method: provider.method }, 'payment callback with an invalid signature');
      return null;
    }
  }

  app.get(
    '/payments/vnpay/:key/ipn',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'VNPay’s IPN (vnp_ parameters signed by vnp_SecureHash): recorded once; answers VNPay’s RspCode (00 confirmed, 01 order not found, 02 already confirmed, 04 invalid amount, 97 invalid signature)',
        params: keyParams,
        querystring: z.record(z.string(), z.string()),
        response: { 200: z.object({ RspCode: z.string(), Message: z.string() }) },
      },
    },
    async (request) => {
      const config = await findPaymentConfigByCallbackKey(app.database.system, app.config.secretsKey, request.params.key);
      // VNPay reads the answer's code, not the HTTP status: an address that names no VNPay tenant gets 01.
      if (config?.method !== 'VNPAY') return VNPAY_IPN_ANSWERS.orderNotFound;
      const settings = { ...config, method: 'VNPAY' as const };
      const verdict = verify(request, providerOf(settings, environment), config.tenantId, { kind: 'NOTIFICATION', query: request.query, headers: headersOf(request), rawBody: '' });
      if (verdict === null) return VNPAY_IPN_ANSWERS.invalidSignature;
      if (verdict === undefined) return VNPAY_IPN_ANSWERS.unknownError;
      return ipnAnswerOf(await applyProviderVerdict(environment, settings, verdict));
    },
  );

  app.get(
    '/payments/vnpay/:key/return',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The payer’s return from VNPay (signed like the IPN): the verdict is recorded once and the payer sent on to the tenant’s return page with orderId and status',
        params: keyParams,
        querystring: z.record(z.string(), z.string()),
      },
    },
    async (request, reply) => {
      const config = await configByKey(request.params.key, 'VNPAY');
      const verdict = verify(request, providerOf(config, environment), config.tenantId, { kind: 'RETURN', query: request.query, headers: headersOf(request), rawBody: '' });
      if (verdict === null || verdict === undefined) throw new AppError('payment.signatureInvalid');
      const outcome = await applyProviderVerdict(environment, config, verdict);
      const attempt = outcome.attempt;
      if (attempt === undefined) throw new AppError('payment.notFound');
      return reply.redirect(returnAddress(attempt.returnUrl, attempt.orderId, attempt.status), 303);
    },
  );

  app.post(
    '/payments/stripe/:key/webhook',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Stripe’s webhook (checkout.session.completed, checkout.session.expired, charge.refunded), checked with Stripe-Signature; each event recorded once',
        params: keyParams,
        body: z.string().max(BODY_LIMIT_BYTES),
        response: { 200: successEnvelope(z.object({ recorded: z.boolean() })) },
      },
    },
    async (request) => {
      const config = await configByKey(request.params.key, 'STRIPE');
      const verdict = verify(request, providerOf(config, environment), config.tenantId, { kind: 'NOTIFICATION', query: {}, headers: headersOf(request), rawBody: request.body });
      if (verdict === null) throw new AppError('payment.signatureInvalid');
      if (verdict === undefined) return ok({ recorded: false });
      const outcome = await applyProviderVerdict(environment, config, verdict);
      return ok({ recorded: outcome.outcome === 'APPLIED' });
    },
  );

  const tokenParams = z.object({ token: z.string().min(10).max(1000) });

  /** The sandbox order a token names, with the tenant's configuration and its attempt. */
  async function sandboxOrder(token: string) {
    const opened = openSandboxToken(app.config.secretsKey, token, app.clock.now());
    if (opened === undefined) return undefined;
    const config = await readPaymentConfig(app.database.system, app.config.secretsKey, opened.tenantId);
    if (config?.method !== 'SANDBOX') return undefined;
    const attempt = await findAttemptByOrder(environment, opened.tenantId, 'SANDBOX', opened.orderId);
    return attempt === undefined ? undefined : { config: { ...config, method: 'SANDBOX' as const }, attempt };
  }

  app.get(
    '/payments/sandbox/:token',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'The sandbox’s payment page: the order with Pay and Decline (no money moves)', params: tokenParams },
    },
    async (request, reply) => {
      const found = await sandboxOrder(request.params.token);
      const nonce = randomBytes(16).toString('base64');
      const returnOrigin = found === undefined ? undefined : new URL(found.attempt.returnUrl).origin;
      // same-origin: the form's post then carries this origin (no-referrer would send "Origin: null",
      // which the cross-site check refuses when the payer also has a console session).
      reply
        .header('content-security-policy', sandboxPagePolicy(nonce, returnOrigin))
        .header('referrer-policy', 'same-origin')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8');
      return reply.code(found === undefined ? 403 : 200).send(sandboxPage(request.language === 'vi' ? 'vi' : 'en', nonce, found?.attempt));
    },
  );

  app.post(
    '/payments/sandbox/:token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The sandbox page’s answer (form field decision = pay or decline), proven by its signed token: recorded once, then the payer goes back to the return page',
        params: tokenParams,
        body: z.object({ decision: z.enum(['pay', 'decline']) }),
      },
    },
    async (request, reply) => {
      const found = await sandboxOrder(request.params.token);
      if (found === undefined) throw new AppError('payment.signatureInvalid');
      const provider = providerOf(found.config, environment);
      const verdict = verify(request, provider, found.config.tenantId, {
        kind: 'RETURN',
        query: { token: request.params.token, decision: request.body.decision },
        headers: headersOf(request),
        rawBody: '',
      });
      if (verdict === null || verdict === undefined) throw new AppError('payment.signatureInvalid');
      const outcome = await applyProviderVerdict(environment, found.config, verdict);
      const attempt = outcome.attempt ?? found.attempt;
      return reply.redirect(returnAddress(attempt.returnUrl, attempt.orderId, attempt.status), 303);
    },
  );
};
