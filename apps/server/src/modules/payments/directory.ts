import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PaymentMethod } from '@rpm/contracts';
import type { SystemStore } from '../../db/database.js';
import { tenantPaymentConfigs, type TenantPaymentConfigRow } from '../../db/schema.js';
import { createSecretBox } from '../../lib/secret-box.js';
import type { Clock } from '../../lib/clock.js';
import type { PaymentEndpoints, PaymentProvider } from './providers/provider.js';
import { createSandboxProvider } from './providers/sandbox.js';
import { createStripeProvider } from './providers/stripe.js';
import { createVnpayProvider } from './providers/vnpay.js';

/** The secret box's purpose for provider keys; each value is also bound to its tenant. */
export const PAYMENT_KEYS_PURPOSE = 'payments/provider-keys';
export const paymentKeysContext = (tenantId: string) => `${tenantId}:payment-method`;

export const paymentEndpointsOf = (config: {
  port: number;
  gateways?: { publicUrl: string } | undefined;
  payments?: { vnpayPaymentUrl: string; vnpayApiUrl: string; stripeApiUrl: string } | undefined;
}): PaymentEndpoints => ({
  publicUrl: config.gateways?.publicUrl ?? `http://localhost:${config.port}`,
  vnpayPaymentUrl: config.payments?.vnpayPaymentUrl ?? 'https://pay.vnpay.vn/vpcpay.html',
  vnpayApiUrl: config.payments?.vnpayApiUrl ?? 'https://merchant.vnpay.vn/merchant_webapi/api/transaction',
  stripeApiUrl: config.payments?.stripeApiUrl ?? 'https://api.stripe.com',
});

/** The keys of a payment method as entered (spec: accessKey, shareKey, secretKey, callbackUrl). */
export interface PaymentKeys {
  accessKey: string;
  shareKey: string;
  secretKey: string;
  callbackUrl: string;
}

/** A tenant's payment configuration with its keys opened (server-side only). */
export interface OpenPaymentConfig {
  tenantId: string;
  partnerStatus: 'VERIFIED' | 'NOT_VERIFIED';
  partnerId: string | null;
  partnerVerifiedAt: Date | null;
  method: PaymentMethod | null;
  keys: PaymentKeys;
  publishableKey: string;
  callbackKey: string | null;
  methodVerifiedAt: Date | null;
  taxRate: number | null;
  updatedAt: Date;
}

const NO_KEYS: PaymentKeys = { accessKey: '', shareKey: '', secretKey: '', callbackUrl: '' };

export function openPaymentConfig(secretsKey: Buffer, row: TenantPaymentConfigRow): OpenPaymentConfig {
  const box = createSecretBox(secretsKey, PAYMENT_KEYS_PURPOSE);
  const keys = row.credentialsCiphertext === '' ? NO_KEYS : { ...NO_KEYS, ...(JSON.parse(box.open(row.credentialsCiphertext, paymentKeysContext(row.tenantId))) as Partial<PaymentKeys>) };
  return {
    tenantId: row.tenantId,
    partnerStatus: row.partnerStatus,
    partnerId: row.partnerId,
    partnerVerifiedAt: row.partnerVerifiedAt,
    method: row.method,
    keys,
    publishableKey: row.publishableKey,
    callbackKey: row.callbackKey,
    methodVerifiedAt: row.methodVerifiedAt,
    taxRate: row.taxRate,
    updatedAt: row.updatedAt,
  };
}

export function sealPaymentKeys(secretsKey: Buffer, tenantId: string, keys: PaymentKeys): string {
  return createSecretBox(secretsKey, PAYMENT_KEYS_PURPOSE).seal(JSON.stringify(keys), paymentKeysContext(tenantId));
}

export async function readPaymentConfig(system: SystemStore, secretsKey: Buffer, tenantId: string): Promise<OpenPaymentConfig | undefined> {
  const [row] = await system.select().from(tenantPaymentConfigs).where(eq(tenantPaymentConfigs.tenantId, tenantId));
  return row === undefined ? undefined : openPaymentConfig(secretsKey, row);
}

/** The configuration whose notification address carries this key. */
export async function findPaymentConfigByCallbackKey(system: SystemStore, secretsKey: Buffer, callbackKey: string): Promise<OpenPaymentConfig | undefined> {
  const [row] = await system.select().from(tenantPaymentConfigs).where(eq(tenantPaymentConfigs.callbackKey, callbackKey));
  return row === undefined ? undefined : openPaymentConfig(secretsKey, row);
}

/** 256 random bits, base64url: names a tenant in the address a provider notifies. */
export const newPaymentCallbackKey = () => randomBytes(32).toString('base64url');

/** Where the tenant's provider sends its server-to-server notifications. */
export function notificationPathOf(method: PaymentMethod, callbackKey: string): string | null {
  switch (method) {
    case 'VNPAY':
      return `/collector/payments/vnpay/${callbackKey}/ipn`;
    case 'STRIPE':
      return `/collector/payments/stripe/${callbackKey}/webhook`;
    case 'SANDBOX':
      return null;
  }
}

/** The provider of a method with its keys, for one tenant. */
export function providerOf(
  settings: { tenantId: string; method: PaymentMethod; keys: PaymentKeys },
  environment: { endpoints: PaymentEndpoints; secretsKey: Buffer; clock: Clock },
): PaymentProvider {
  switch (settings.method) {
    case 'VNPAY':
      return createVnpayProvider({ tmnCode: settings.keys.accessKey, hashSecret: settings.keys.secretKey }, { paymentUrl: environment.endpoints.vnpayPaymentUrl, apiUrl: environment.endpoints.vnpayApiUrl });
    case 'STRIPE':
      return createStripeProvider({ accountId: settings.keys.accessKey, secretKey: settings.keys.secretKey, webhookSecret: settings.keys.shareKey }, environment.endpoints.stripeApiUrl);
    case 'SANDBOX':
      return createSandboxProvider({ tenantId: settings.tenantId, secretsKey: environment.secretsKey, publicUrl: environment.endpoints.publicUrl, now: () => environment.clock.now() });
  }
}
