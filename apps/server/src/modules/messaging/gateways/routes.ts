import {
  MESSAGE_GATEWAY_CHANNELS,
  messageGatewaySchema,
  messageGatewayTestResultSchema,
  messageGatewayTestSchema,
  messageGatewayUpdateSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../../http/access.js';
import { AppError } from '../../../http/app-error.js';
import { auditContextOf } from '../../../http/audit-context.js';
import { ok } from '../../../http/envelope.js';
import { recordCallStatus } from '../../alerts/calls.js';
import { recordDeliveryReceipt } from '../outbox-store.js';
import { publishMessageUpdate } from './receipts.js';
import { gatewayEndpointsOf, type GatewayEndpoints, type OpenGateway } from './directory.js';
import { esmsOutcomeOf } from './esms.js';
import { readGateways, saveGateway, testGateway, type GatewaySettingsEnvironment } from './settings.js';
import { callOutcomeOf, isValidTwilioSignature, messageOutcomeOf } from './twilio.js';

type ManageApp = Parameters<FastifyPluginAsyncZod>[0];
const tags = ['tenants'];
const channelParams = z.object({ id: z.uuid(), channel: z.enum(MESSAGE_GATEWAY_CHANNELS) });

const endpointsOf = (app: FastifyInstance): GatewayEndpoints => gatewayEndpointsOf(app.config);

/** Under /manage: a tenant's SMS and voice gateways (super admins; system admins of their tenants). */
export function registerGatewayAdminRoutes(app: ManageApp): void {
  const environmentOf = (request: FastifyRequest): GatewaySettingsEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    secretsKey: app.config.secretsKey,
    kick: () => {
      app.messaging.kick();
    },
    log: request.log,
    gateways: app.gateways,
    endpoints: endpointsOf(app),
  });

  app.get(
    '/sadmin/tenant/:id/gateways',
    {
      config: { access: 'tenant.view' },
      schema: {
        tags,
        summary: 'The tenant’s SMS and call gateways (local, twilio, esms), credentials masked, with the address each gateway reports back to',
        params: z.object({ id: z.uuid() }),
        response: { 200: successEnvelope(z.array(messageGatewaySchema)) },
      },
    },
    async (request) => ok(await readGateways(environmentOf(request), request.params.id)),
  );

  app.put(
    '/sadmin/tenant/:id/gateways/:channel',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary:
          'Choose the gateway of SMS or CALL: local (recorded only), twilio (sender = the Twilio number, credentials accountSid and authToken) or esms (SMS only; sender = the registered brand name, credentials apiKey and secretKey). Credentials are stored encrypted; left out, the stored ones of the same provider are kept. Audited without the credentials',
        params: channelParams,
        body: messageGatewayUpdateSchema,
        response: { 200: successEnvelope(messageGatewaySchema) },
      },
    },
    async (request) => ok(await saveGateway(environmentOf(request), request.params.id, request.params.channel, request.body)),
  );

  app.post(
    '/sadmin/tenant/:id/gateways/:channel/test',
    {
      config: { access: 'tenant.update' },
      schema: {
        tags,
        summary: 'Send a test SMS (or place a test call) to a number at once through the stored gateway; answers what the gateway said, its refusal included. Audited',
        params: channelParams,
        body: messageGatewayTestSchema,
        response: { 200: successEnvelope(messageGatewayTestResultSchema) },
      },
    },
    async (request) => ok(await testGateway(environmentOf(request), request.params.id, request.params.channel, request.body.to)),
  );
}

const keyParams = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const recordedSchema = successEnvelope(z.object({ recorded: z.boolean() }));
const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * Under /collector: the gateways' delivery receipts and call progress. No session: a Twilio
 * callback is proven by X-Twilio-Signature (the tenant's auth token over the address it called and
 * the form), an eSMS receipt by the secret callback key in its address. Twilio posts forms; eSMS
 * calls with GET and a query.
 */
export const gatewayCallbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });
  const endpoints = endpointsOf(app);

  /** The tenant's gateway this key names, for this provider and channel, with a valid signature. */
  async function verifiedTwilio(request: FastifyRequest, key: string, channel: 'SMS' | 'CALL', form: Record<string, string>): Promise<OpenGateway> {
    const gateway = await app.gateways.byCallbackKey(key);
    if (gateway?.provider !== 'twilio' || gateway.channel !== channel) throw new AppError('gateway.unknownCallback');
    const signature = request.headers['x-twilio-signature'];
    const url = `${endpoints.publicUrl}${request.url}`;
    if (!isValidTwilioSignature(gateway.credentials.authToken ?? '', typeof signature === 'string' ? signature : undefined, url, form)) {
      request.log.warn({ tenantId: gateway.tenantId }, 'gateway callback with an invalid signature');
      throw new AppError('gateway.signatureInvalid');
    }
    return gateway;
  }

  const formSchema = z.record(z.string(), z.string());
  const uuidOrUndefined = (value: string | undefined) => (value !== undefined && z.uuid().safeParse(value).success ? value : undefined);

  app.post(
    '/gateway/twilio/:key/sms',
    {
      config: { access: 'public' },
      schema: {
        tags: ['gateways'],
        summary: 'Twilio’s SMS status callback (MessageSid, MessageStatus, ErrorCode), signed: delivered or undelivered recorded once',
        params: keyParams,
        querystring: z.object({ message: z.string().max(64).optional() }),
        body: formSchema,
        response: { 200: recordedSchema },
      },
    },
    async (request) => {
      const gateway = await verifiedTwilio(request, request.params.key, 'SMS', request.body);
      const status = messageOutcomeOf(request.body.MessageStatus ?? '');
      if (status === undefined) return ok({ recorded: false });
      const recorded = await app.database.withTenant(gateway.tenantId, async (tx) => {
        const row = await recordDeliveryReceipt(tx, {
          provider: 'twilio',
          messageId: uuidOrUndefined(request.query.message),
          providerMessageId: request.body.MessageSid,
          status,
          error: request.body.ErrorCode === undefined ? undefined : `twilio error ${request.body.ErrorCode}`,
        });
        if (row !== undefined) await publishMessageUpdate(tx, gateway.tenantId, row.id, status);
        return row !== undefined;
      });
      return ok({ recorded });
    },
  );

  app.post(
    '/gateway/twilio/:key/call',
    {
      config: { access: 'public' },
      schema: {
        tags: ['gateways'],
        summary: 'Twilio’s call status callback (CallSid, CallStatus), signed: the call moves forward only; an SOS follower call that ends unanswered calls the next follower',
        params: keyParams,
        querystring: z.object({ call: z.string().max(64).optional() }),
        body: formSchema,
        response: { 200: recordedSchema },
      },
    },
    async (request) => {
      const gateway = await verifiedTwilio(request, request.params.key, 'CALL', request.body);
      const status = callOutcomeOf(request.body.CallStatus ?? '');
      const callId = uuidOrUndefined(request.query.call);
      if (status === undefined || callId === undefined) return ok({ recorded: false });
      const recorded = await app.database.withTenant(gateway.tenantId, (tx) =>
        recordCallStatus(tx, app.clock, gateway.tenantId, callId, {
          status,
          provider: 'twilio',
          ...(request.body.CallSid === undefined ? {} : { providerCallId: request.body.CallSid }),
          ...(status === 'FAILED' || status === 'BUSY' || status === 'NO_ANSWER' ? { lastError: `twilio: ${request.body.CallStatus ?? ''}` } : {}),
        }),
      );
      return ok({ recorded });
    },
  );

  app.get(
    '/gateway/esms/:key/sms',
    {
      config: { access: 'public' },
      schema: {
        tags: ['gateways'],
        summary: 'eSMS’s delivery callback (SMSID, SendStatus, SendSuccess, SendFailed, RequestId): delivered or undelivered recorded once',
        params: keyParams,
        querystring: z.record(z.string(), z.string()),
        response: { 200: recordedSchema },
      },
    },
    async (request) => {
      const gateway = await app.gateways.byCallbackKey(request.params.key);
      if (gateway?.provider !== 'esms' || gateway.channel !== 'SMS') throw new AppError('gateway.unknownCallback');
      const status = esmsOutcomeOf(request.query);
      if (status === undefined) return ok({ recorded: false });
      const recorded = await app.database.withTenant(gateway.tenantId, async (tx) => {
        const messageId = uuidOrUndefined(request.query.RequestId);
        const row = await recordDeliveryReceipt(tx, {
          provider: 'esms',
          messageId,
          ...(messageId === undefined ? { providerMessageId: request.query.SMSID } : {}),
          status,
          error: status === 'UNDELIVERED' ? `esms: SendStatus ${request.query.SendStatus ?? ''}` : undefined,
        });
        if (row !== undefined) await publishMessageUpdate(tx, gateway.tenantId, row.id, status);
        return row !== undefined;
      });
      return ok({ recorded });
    },
  );
};
