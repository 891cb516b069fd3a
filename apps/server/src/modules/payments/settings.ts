import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  type PartnerVerifyStatus,
  type PaymentConfigStep,
  type PaymentMethodInformation,
  type PaymentPartnerKey,
  type PaymentTaxInput,
  type PaymentTestResult,
  type VerifyPartnerInput,
  type VerifyPaymentMethodInput,
} from '@rpm/contracts';
import { tenantPaymentConfigs } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { changeTenant, findManageableTenant, type TenantAdminEnvironment } from '../tenants/admin-service.js';
import type { TenantRow } from '../tenants/store.js';
import {
  newPaymentCallbackKey,
  notificationPathOf,
  providerOf,
  readPaymentConfig,
  sealPaymentKeys,
  type OpenPaymentConfig,
  type PaymentKeys,
} from './directory.js';
import { PaymentKeyError, PaymentUnavailableError, type PaymentEndpoints } from './providers/provider.js';
import { newTestOrderId, startPayment } from './service.js';

/**
 * The payment configuration wizard (spec §2: partner verification, then the payment provider's
 * keys, then tax). Super admins configure any customer tenant, system admins the tenants assigned
 * to them (findManageableTenant); the tenant is the one named, or the one the session acts in.
 */
export interface PaymentSettingsEnvironment extends TenantAdminEnvironment {
  endpoints: PaymentEndpoints;
}

const mask = (value: string) => (value === '' ? null : value.length > 8 ? `****${value.slice(-4)}` : '****');

/**
 * The partner key the platform issues to a tenant: HMAC-SHA256 of the tenant id under a key
 * derived from SECRETS_KEY. Nothing is stored: the key can be issued again and checked at any time,
 * and changes only with SECRETS_KEY.
 */
export function partnerKeyOf(secretsKey: Buffer, tenantId: string): string {
  const key = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.from('rpm/payments'), Buffer.from('v1:partner-key'), 32));
  return `rpmp_${createHmac('sha256', key).update(`partner:${tenantId}`).digest('base64url')}`;
}

function stepOf(config: OpenPaymentConfig | undefined): PaymentConfigStep {
  if (config?.partnerStatus !== 'VERIFIED') return 'PARTNER';
  if (config.method === null) return 'METHOD';
  return config.taxRate === null ? 'TAX' : 'DONE';
}

function statusOf(config: OpenPaymentConfig | undefined): PartnerVerifyStatus {
  return config?.partnerStatus === 'VERIFIED'
    ? { status: 'VERIFIED', partnerId: config.partnerId, verifiedAt: config.partnerVerifiedAt?.toISOString() ?? null }
    : { status: 'NOT_VERIFIED', partnerId: null, verifiedAt: null };
}

function informationOf(environment: PaymentSettingsEnvironment, tenantId: string, config: OpenPaymentConfig | undefined): PaymentMethodInformation {
  const method = config?.method ?? null;
  const notificationPath = method === null || config?.callbackKey === null || config?.callbackKey === undefined ? null : notificationPathOf(method, config.callbackKey);
  return {
    tenantId,
    step: stepOf(config),
    partner: statusOf(config),
    method,
    // The terminal code or account id names the account; it is not a secret.
    accessKey: method === null || config?.keys.accessKey === '' ? null : (config?.keys.accessKey ?? null),
    shareKey: method === null ? null : mask(config?.keys.shareKey ?? ''),
    secretKey: method === null ? null : mask(config?.keys.secretKey ?? ''),
    publishableKey: method === null || config?.publishableKey === '' ? null : (config?.publishableKey ?? null),
    callbackUrl: method === null ? null : (config?.keys.callbackUrl ?? null),
    notificationUrl: notificationPath === null ? null : `${environment.endpoints.publicUrl}${notificationPath}`,
    methodVerifiedAt: config?.methodVerifiedAt?.toISOString() ?? null,
    taxRate: config?.taxRate ?? null,
    updatedAt: config?.updatedAt.toISOString() ?? null,
  };
}

async function resolveTenant(environment: PaymentSettingsEnvironment, tenantId: string | undefined): Promise<{ tenant: TenantRow; config: OpenPaymentConfig | undefined }> {
  const tenant = await findManageableTenant(environment, tenantId ?? environment.auth.tenantId);
  return { tenant, config: await readPaymentConfig(environment.database.system, environment.secretsKey, tenant.id) };
}

/** GET partner-verify-status. */
export async function readPartnerStatus(environment: PaymentSettingsEnvironment, tenantId: string | undefined): Promise<PartnerVerifyStatus> {
  return statusOf((await resolveTenant(environment, tenantId)).config);
}

/** GET payment-method-information: the stored configuration, keys masked. */
export async function readPaymentInformation(environment: PaymentSettingsEnvironment, tenantId: string | undefined): Promise<PaymentMethodInformation> {
  const { tenant, config } = await resolveTenant(environment, tenantId);
  return informationOf(environment, tenant.id, config);
}

/** Super admins: the partner id and key of a tenant, to hand to whoever configures its payments. Audited. */
export async function issuePartnerKey(environment: PaymentSettingsEnvironment, tenantId: string | undefined): Promise<PaymentPartnerKey> {
  const { tenant } = await resolveTenant(environment, tenantId);
  return changeTenant(
    environment,
    tenant,
    async () => ({ partnerId: tenant.id, apiKey: partnerKeyOf(environment.secretsKey, tenant.id) }),
    () => ({ action: 'TENANT_PAYMENT_PARTNER_KEY_ISSUED', targetType: 'tenant', targetId: tenant.id, details: {}, at: environment.clock.now() }),
  );
}

function sameText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** POST verify-partner-auth: the partner id must be this tenant's and the key the one issued to it. */
export async function verifyPartner(environment: PaymentSettingsEnvironment, input: VerifyPartnerInput): Promise<PartnerVerifyStatus> {
  const { tenant } = await resolveTenant(environment, input.tenantId);
  if (input.partnerId !== tenant.id || !sameText(input.apiKey, partnerKeyOf(environment.secretsKey, tenant.id))) {
    environment.log.warn({ tenantId: tenant.id }, 'payment partner verification refused');
    throw new AppError('payment.partnerVerifyFailed');
  }
  const now = environment.clock.now();
  await changeTenant(
    environment,
    tenant,
    async (controlPlane) => {
      await controlPlane
        .insert(tenantPaymentConfigs)
        .values({ tenantId: tenant.id, partnerStatus: 'VERIFIED', partnerId: tenant.id, partnerVerifiedAt: now, updatedAt: now, updatedBy: environment.auth.userId })
        .onConflictDoUpdate({
          target: tenantPaymentConfigs.tenantId,
          set: { partnerStatus: 'VERIFIED', partnerId: tenant.id, partnerVerifiedAt: now, updatedAt: now, updatedBy: environment.auth.userId },
        });
    },
    () => ({ action: 'TENANT_PAYMENT_PARTNER_VERIFIED', targetType: 'tenant', targetId: tenant.id, details: { partnerId: tenant.id }, at: now }),
  );
  return { status: 'VERIFIED', partnerId: tenant.id, verifiedAt: now.toISOString() };
}

/**
 * POST verify-payment-method: after partner verification only; the keys are proven with the
 * provider (one harmless authenticated request) before they are sealed and stored. A new method
 * gets a new notification address.
 */
export async function verifyPaymentMethod(environment: PaymentSettingsEnvironment, input: VerifyPaymentMethodInput): Promise<PaymentMethodInformation> {
  const { tenant, config } = await resolveTenant(environment, input.tenantId);
  if (config?.partnerStatus !== 'VERIFIED') throw new AppError('payment.methodNotFinalized');
  const keys: PaymentKeys =
    input.method === 'SANDBOX'
      ? { accessKey: '', shareKey: '', secretKey: '', callbackUrl: input.callbackUrl }
      : { accessKey: input.accessKey ?? '', shareKey: input.method === 'STRIPE' ? (input.shareKey ?? '') : '', secretKey: input.secretKey ?? '', callbackUrl: input.callbackUrl };
  try {
    await providerOf({ tenantId: tenant.id, method: input.method, keys }, environment).verifyKeys();
  } catch (error) {
    if (error instanceof PaymentKeyError) {
      environment.log.warn({ tenantId: tenant.id, method: input.method, reason: error.message }, 'payment provider refused the keys');
      throw new AppError('payment.providerKeyInvalid', { cause: error });
    }
    if (error instanceof PaymentUnavailableError) throw new AppError('payment.providerUnavailable', { cause: error });
    throw error;
  }
  const now = environment.clock.now();
  const callbackKey = config.method === input.method && config.callbackKey !== null ? config.callbackKey : newPaymentCallbackKey();
  const publishableKey = input.method === 'STRIPE' ? (input.publishableKey ?? '') : '';
  const values = {
    method: input.method,
    credentialsCiphertext: sealPaymentKeys(environment.secretsKey, tenant.id, keys),
    publishableKey,
    callbackKey,
    methodVerifiedAt: now,
    updatedAt: now,
    updatedBy: environment.auth.userId,
  };
  await changeTenant(
    environment,
    tenant,
    async (controlPlane) => {
      await controlPlane.update(tenantPaymentConfigs).set(values).where(eqTenant(tenant.id));
    },
    // Which method and return address, never the keys.
    () => ({
      action: 'TENANT_PAYMENT_METHOD_UPDATED',
      targetType: 'tenant',
      targetId: tenant.id,
      details: { method: input.method, previousMethod: config.method, callbackUrl: input.callbackUrl, keysChanged: input.method !== 'SANDBOX' },
      at: now,
    }),
  );
  return informationOf(environment, tenant.id, { ...config, ...values, keys });
}

/** PUT tax: the rate in basis points, once a method is saved. */
export async function saveTaxRate(environment: PaymentSettingsEnvironment, input: PaymentTaxInput): Promise<PaymentMethodInformation> {
  const { tenant, config } = await resolveTenant(environment, input.tenantId);
  if (config?.partnerStatus !== 'VERIFIED' || config.method === null) throw new AppError('payment.methodNotFinalized');
  const now = environment.clock.now();
  await changeTenant(
    environment,
    tenant,
    async (controlPlane) => {
      await controlPlane.update(tenantPaymentConfigs).set({ taxRate: input.rate, updatedAt: now, updatedBy: environment.auth.userId }).where(eqTenant(tenant.id));
    },
    () => ({ action: 'TENANT_PAYMENT_TAX_UPDATED', targetType: 'tenant', targetId: tenant.id, details: { rate: input.rate, previousRate: config.taxRate }, at: now }),
  );
  return informationOf(environment, tenant.id, { ...config, taxRate: input.rate, updatedAt: now });
}

/** POST test-payment: starts a payment through the tenant's provider and answers its page. Audited. */
export async function startTestPayment(
  environment: PaymentSettingsEnvironment,
  input: { amountMinor: number; currency: 'VND' | 'USD' | 'CAD'; tenantId?: string | undefined },
  request: { ipAddress: string; locale: 'en' | 'vi' },
): Promise<PaymentTestResult> {
  const { tenant } = await resolveTenant(environment, input.tenantId);
  const orderId = newTestOrderId();
  const started = await startPayment(environment, tenant.id, {
    orderId,
    amountMinor: input.amountMinor,
    currency: input.currency,
    description: `Test payment ${tenant.name}`,
    ipAddress: request.ipAddress,
    locale: request.locale,
    createdBy: environment.auth.userId,
  });
  await changeTenant(
    environment,
    tenant,
    async () => started,
    () => ({
      action: 'TENANT_PAYMENT_TESTED',
      targetType: 'tenant',
      targetId: tenant.id,
      details: { method: started.method, orderId, amountMinor: input.amountMinor, currency: input.currency },
      at: environment.clock.now(),
    }),
  );
  return { orderId, redirectUrl: started.redirectUrl };
}

const eqTenant = (tenantId: string) => eq(tenantPaymentConfigs.tenantId, tenantId);
