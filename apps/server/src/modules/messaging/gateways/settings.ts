import { and, eq } from 'drizzle-orm';
import {
  MESSAGE_GATEWAY_CHANNELS,
  type MessageGateway,
  type MessageGatewayChannel,
  type MessageGatewayTestResult,
  type MessageGatewayUpdate,
} from '@rpm/contracts';
import { tenantMessageGateways } from '../../../db/schema.js';
import { AppError } from '../../../http/app-error.js';
import { createSecretBox } from '../../../lib/secret-box.js';
import { changeTenant, findManageableTenant, type TenantAdminEnvironment } from '../../tenants/admin-service.js';
import {
  GATEWAY_CREDENTIALS_PURPOSE,
  callProviderOf,
  callbackPathOf,
  credentialsContext,
  newCallbackKey,
  openGateway,
  smsProviderOf,
  type GatewayEndpoints,
  type Gateways,
  type OpenGateway,
} from './directory.js';

/** Tenant administration of the SMS and voice gateways (super and system admins, like connections). */
export interface GatewaySettingsEnvironment extends TenantAdminEnvironment {
  gateways: Gateways;
  endpoints: GatewayEndpoints;
}

const mask = (value: string) => (value.length > 8 ? `****${value.slice(-4)}` : '****');
/** The Twilio account SID is an identifier, not a secret: shown whole so the admin knows which account. */
const maskCredentials = (credentials: Record<string, string>) =>
  Object.fromEntries(Object.entries(credentials).map(([key, value]) => [key, key === 'accountSid' ? value : mask(value)]));

function viewOf(environment: GatewaySettingsEnvironment, channel: MessageGatewayChannel, gateway: OpenGateway | undefined, updatedAt: Date | null): MessageGateway {
  if (gateway === undefined) {
    return { channel, provider: 'local', sender: '', credentials: {}, callbackUrl: null, isDefault: true, updatedAt: null };
  }
  return {
    channel,
    provider: gateway.provider,
    sender: gateway.sender,
    credentials: maskCredentials(gateway.credentials),
    callbackUrl: gateway.provider === 'local' ? null : `${environment.endpoints.publicUrl}${callbackPathOf(gateway)}`,
    isDefault: false,
    updatedAt: updatedAt?.toISOString() ?? null,
  };
}

async function readRows(environment: GatewaySettingsEnvironment, tenantId: string) {
  const box = createSecretBox(environment.secretsKey, GATEWAY_CREDENTIALS_PURPOSE);
  const rows = await environment.database.system.select().from(tenantMessageGateways).where(eq(tenantMessageGateways.tenantId, tenantId));
  return new Map(rows.map((row) => [row.channel, { gateway: openGateway(box, row), updatedAt: row.updatedAt }]));
}

/** GET: both channels' gateways, credentials masked. */
export async function readGateways(environment: GatewaySettingsEnvironment, tenantId: string): Promise<MessageGateway[]> {
  const tenant = await findManageableTenant(environment, tenantId);
  const rows = await readRows(environment, tenant.id);
  return MESSAGE_GATEWAY_CHANNELS.map((channel) => {
    const row = rows.get(channel);
    return viewOf(environment, channel, row?.gateway, row?.updatedAt ?? null);
  });
}

/**
 * PUT: chooses a channel's gateway. Credentials left out keep the stored ones of the same
 * provider; a new provider needs its own. A new callback key comes with every new provider, so
 * an old gateway's receipts stop being taken.
 */
export async function saveGateway(
  environment: GatewaySettingsEnvironment,
  tenantId: string,
  channel: MessageGatewayChannel,
  input: MessageGatewayUpdate,
): Promise<MessageGateway> {
  const tenant = await findManageableTenant(environment, tenantId);
  if (channel === 'CALL' && input.provider === 'esms') {
    throw new AppError('gateway.unsupported', { fieldErrors: [{ field: 'body.provider', code: 'unsupported', message: 'gateway.unsupported' }] });
  }
  const stored = (await readRows(environment, tenant.id)).get(channel)?.gateway;
  const sameProvider = stored?.provider === input.provider;
  const credentials: Record<string, string> =
    input.provider === 'local' ? {} : (input.credentials ?? (sameProvider ? stored.credentials : undefined)) ?? {};
  if (input.provider !== 'local' && Object.keys(credentials).length === 0) {
    throw new AppError('gateway.credentialsRequired', { fieldErrors: [{ field: 'body.credentials', code: 'required', message: 'gateway.credentialsRequired' }] });
  }
  const box = createSecretBox(environment.secretsKey, GATEWAY_CREDENTIALS_PURPOSE);
  const now = environment.clock.now();
  const row = {
    tenantId: tenant.id,
    channel,
    provider: input.provider,
    sender: input.provider === 'local' ? '' : input.sender,
    credentialsCiphertext: input.provider === 'local' ? '' : box.seal(JSON.stringify(credentials), credentialsContext(tenant.id, channel)),
    callbackKey: sameProvider ? stored.callbackKey : newCallbackKey(),
    updatedAt: now,
    updatedBy: environment.auth.userId,
  };
  await changeTenant(
    environment,
    tenant,
    async (controlPlane) => {
      await controlPlane.delete(tenantMessageGateways).where(and(eq(tenantMessageGateways.tenantId, tenant.id), eq(tenantMessageGateways.channel, channel)));
      await controlPlane.insert(tenantMessageGateways).values(row);
    },
    () => ({
      action: 'TENANT_GATEWAY_UPDATED',
      targetType: 'tenant',
      targetId: tenant.id,
      // Which gateway, never its credentials: only whether they changed.
      details: { channel, provider: input.provider, sender: row.sender, credentialsChanged: input.provider !== 'local' && input.credentials !== undefined },
      at: now,
    }),
  );
  environment.gateways.forget(tenant.id);
  return viewOf(environment, channel, openGateway(box, row), now);
}

/**
 * POST test: sends one SMS (or places one call) to `to` at once through the stored gateway and
 * answers what the gateway said, refusal included, so a wrong key shows before a real SOS needs it.
 */
export async function testGateway(
  environment: GatewaySettingsEnvironment,
  tenantId: string,
  channel: MessageGatewayChannel,
  to: string,
): Promise<MessageGatewayTestResult> {
  const tenant = await findManageableTenant(environment, tenantId);
  const gateway = (await readRows(environment, tenant.id)).get(channel)?.gateway;
  const open: OpenGateway = gateway ?? { tenantId: tenant.id, channel, provider: 'local', sender: '', credentials: {}, callbackKey: '' };
  let result: MessageGatewayTestResult;
  const text = `${tenant.name}: test ${channel === 'SMS' ? 'message' : 'call'} / ${channel === 'SMS' ? 'tin nhắn' : 'cuộc gọi'} thử`;
  try {
    if (channel === 'SMS') {
      const provider = smsProviderOf(open, environment.endpoints);
      const receipt = await provider.send({ id: crypto.randomUUID(), to, text });
      result = { ok: true, provider: provider.name, providerId: receipt.providerMessageId, error: null };
    } else {
      const provider = callProviderOf(open, environment.endpoints, environment.clock);
      const receipt = await provider.call({ id: crypto.randomUUID(), from: open.sender, to, purpose: 'GATEWAY_TEST', text, language: 'en' });
      result = { ok: true, provider: provider.name, providerId: receipt.providerCallId, error: null };
    }
  } catch (error) {
    result = { ok: false, provider: open.provider, providerId: null, error: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
  await changeTenant(
    environment,
    tenant,
    async () => result,
    (outcome) => ({
      action: 'TENANT_GATEWAY_TESTED',
      targetType: 'tenant',
      targetId: tenant.id,
      details: { channel, provider: outcome.provider, ok: outcome.ok, to },
      at: environment.clock.now(),
    }),
  );
  return result;
}
