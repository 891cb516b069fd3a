import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { MessageGatewayChannel, MessageGatewayProvider } from '@rpm/contracts';
import type { SystemStore } from '../../../db/database.js';
import { tenantMessageGateways, type TenantMessageGatewayRow } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { createSecretBox, type SecretBox } from '../../../lib/secret-box.js';
import { createLocalCallProvider, localSmsProvider, type CallProvider, type SmsProvider } from '../providers.js';
import { sendEsmsSms } from './esms.js';
import { placeTwilioCall, sendTwilioSms } from './twilio.js';

/** Sealed credentials open only for their tenant and channel (lib/secret-box.ts associated data). */
export const GATEWAY_CREDENTIALS_PURPOSE = 'messaging/gateway-credentials';
export const credentialsContext = (tenantId: string, channel: MessageGatewayChannel) => `${tenantId}:${channel}`;

export interface GatewayEndpoints {
  /** The address gateways call back (PUBLIC_URL). */
  publicUrl: string;
  twilioApiUrl: string;
  esmsApiUrl: string;
}

/** The configured endpoints (config.ts fills them; a hand-built config gets the public defaults). */
export const gatewayEndpointsOf = (config: { port: number; gateways?: GatewayEndpoints | undefined }): GatewayEndpoints =>
  config.gateways ?? { publicUrl: `http://localhost:${config.port}`, twilioApiUrl: 'https://api.twilio.com', esmsApiUrl: 'https://rest.esms.vn' };

/** A tenant's gateway of one channel with its credentials opened (server-side only). */
export interface OpenGateway {
  tenantId: string;
  channel: MessageGatewayChannel;
  provider: MessageGatewayProvider;
  sender: string;
  credentials: Record<string, string>;
  callbackKey: string;
}

/** The path a gateway calls back for a tenant's gateway (under /collector). */
export const callbackPathOf = (gateway: Pick<OpenGateway, 'provider' | 'channel' | 'callbackKey'>) =>
  `/collector/gateway/${gateway.provider}/${gateway.callbackKey}/${gateway.channel === 'SMS' ? 'sms' : 'call'}`;

/** A new callback key: 32 random bytes, URL-safe base64 (43 characters). */
export const newCallbackKey = () => randomBytes(32).toString('base64url');

export function openGateway(box: SecretBox, row: TenantMessageGatewayRow): OpenGateway {
  const credentials =
    row.credentialsCiphertext === ''
      ? {}
      : (JSON.parse(box.open(row.credentialsCiphertext, credentialsContext(row.tenantId, row.channel))) as Record<string, string>);
  return { tenantId: row.tenantId, channel: row.channel, provider: row.provider, sender: row.sender, credentials, callbackKey: row.callbackKey };
}

/** The SMS provider a gateway row stands for. */
export function smsProviderOf(gateway: OpenGateway, endpoints: GatewayEndpoints): SmsProvider {
  const statusCallback = `${endpoints.publicUrl}${callbackPathOf(gateway)}`;
  const { credentials } = gateway;
  switch (gateway.provider) {
    case 'twilio': {
      const account = { accountSid: credentials.accountSid ?? '', authToken: credentials.authToken ?? '', from: gateway.sender, baseUrl: endpoints.twilioApiUrl };
      return {
        name: 'twilio',
        // The message's id rides in the callback address (signed with it), so a receipt finds its message.
        send: async (message) => ({
          providerMessageId: await sendTwilioSms(account, { to: message.to, body: message.text, statusCallback: `${statusCallback}?message=${message.id}` }),
        }),
        close: () => undefined,
      };
    }
    case 'esms': {
      const account = { apiKey: credentials.apiKey ?? '', secretKey: credentials.secretKey ?? '', brandName: gateway.sender, baseUrl: endpoints.esmsApiUrl };
      return {
        name: 'esms',
        send: async (message) => ({
          providerMessageId: await sendEsmsSms(account, { to: message.to, body: message.text, requestId: message.id, callbackUrl: statusCallback }),
        }),
        close: () => undefined,
      };
    }
    case 'local':
      return localSmsProvider;
  }
}

/** The voice provider a gateway row stands for (calls come from the tenant's Twilio number). */
export function callProviderOf(gateway: OpenGateway, endpoints: GatewayEndpoints, clock: Clock): CallProvider {
  if (gateway.provider !== 'twilio') return createLocalCallProvider(clock);
  const { credentials } = gateway;
  const account = { accountSid: credentials.accountSid ?? '', authToken: credentials.authToken ?? '', from: gateway.sender, baseUrl: endpoints.twilioApiUrl };
  const statusCallback = `${endpoints.publicUrl}${callbackPathOf(gateway)}`;
  return {
    name: 'twilio',
    call: async (request) => ({
      // The call's id rides in the callback address: progress that arrives before the call's sid
      // is recorded still finds its call.
      providerCallId: await placeTwilioCall(account, { to: request.to, text: request.text, language: request.language, statusCallback: `${statusCallback}?call=${request.id}` }),
      status: 'PLACED',
      startedAt: null,
      endedAt: null,
    }),
  };
}

/**
 * Which gateway each tenant uses, as the outbox and the call job ask for it. Rows are read from
 * the control plane and kept for a few seconds, so a busy outbox does not read them for every
 * message; a change made through this process is seen at once (forget), one made through
 * another process within the cache's life.
 */
export interface Gateways {
  smsFor(tenantId: string): Promise<SmsProvider>;
  callsFor(tenantId: string): Promise<CallProvider>;
  /** The gateway whose callback key this is, opened (callbacks; not cached). */
  byCallbackKey(key: string): Promise<OpenGateway | undefined>;
  forget(tenantId: string): void;
}

const CACHE_MILLISECONDS = 10_000;

export function createGateways(options: {
  system: SystemStore;
  secretsKey: Buffer;
  endpoints: GatewayEndpoints;
  clock: Clock;
  /** The server's default SMS provider (SMS_PROVIDER) for tenants without a gateway row. */
  defaultSms: SmsProvider;
}): Gateways {
  const box = createSecretBox(options.secretsKey, GATEWAY_CREDENTIALS_PURPOSE);
  const cache = new Map<string, { at: number; value: Promise<OpenGateway | undefined> }>();
  const read = (tenantId: string, channel: MessageGatewayChannel): Promise<OpenGateway | undefined> => {
    const key = `${tenantId}:${channel}`;
    const cached = cache.get(key);
    if (cached !== undefined && Date.now() - cached.at < CACHE_MILLISECONDS) return cached.value;
    const value = options.system
      .select()
      .from(tenantMessageGateways)
      .where(and(eq(tenantMessageGateways.tenantId, tenantId), eq(tenantMessageGateways.channel, channel)))
      .then(([row]) => (row === undefined ? undefined : openGateway(box, row)));
    // A failed read is not kept: the next message asks again.
    value.catch(() => cache.delete(key));
    cache.set(key, { at: Date.now(), value });
    return value;
  };
  return {
    smsFor: async (tenantId) => {
      const gateway = await read(tenantId, 'SMS');
      return gateway === undefined || gateway.provider === 'local' ? options.defaultSms : smsProviderOf(gateway, options.endpoints);
    },
    callsFor: async (tenantId) => {
      const gateway = await read(tenantId, 'CALL');
      return gateway === undefined ? createLocalCallProvider(options.clock) : callProviderOf(gateway, options.endpoints, options.clock);
    },
    byCallbackKey: async (key) => {
      const [row] = await options.system.select().from(tenantMessageGateways).where(eq(tenantMessageGateways.callbackKey, key));
      return row === undefined ? undefined : openGateway(box, row);
    },
    forget: (tenantId) => {
      cache.delete(`${tenantId}:SMS`);
      cache.delete(`${tenantId}:CALL`);
    },
  };
}
