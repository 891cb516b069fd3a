import { z } from 'zod';
import { CURRENCIES, type Currency } from './packages.js';

/**
 * Payments (spec §2 "Payment method setup: partner verification, then payment provider key, then
 * tax"; §3 "Payment config"; §8 provider result codes). A tenant takes payments through one
 * provider: VNPay (Vietnam's card and bank gateway), Stripe (Checkout), or the local sandbox (a
 * payment page served by this server, for demonstrations). Money is always an integer amount of
 * the currency's minor unit with the currency: never a float.
 */
export const PAYMENT_METHODS = ['VNPAY', 'STRIPE', 'SANDBOX'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Currencies the product sells in (spec §3 Transaction) and how many decimals their minor unit has. */
/** The currencies payments are taken in: the packages' (packages.ts). */
export const PAYMENT_CURRENCIES = CURRENCIES;
export type PaymentCurrency = Currency;

/** Integer minor units (dong, cents), positive, below 2^53. */
export const amountMinorSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A payment's state as a provider reports it. */
export const PAYMENT_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Spec §8 provider result codes, the same for every provider (each provider's own codes map onto
 * them); the message of each is in the `payments` catalogue under `results`.
 */
export const PAYMENT_RESULTS = [
  'success',
  'insufficientBalance',
  'wrongOtp',
  'suspectedFraud',
  'notRegisteredInternetBanking',
  'cardVerificationFailed',
  'paymentWaitExpired',
  'cardLocked',
  'pendingExpired',
  'wrongPasswordTooManyTimes',
  'dailyLimitExceeded',
  'bankMaintenance',
  'notCompleted',
  'error',
  'reverseTransaction',
  'settled',
  'unknown',
] as const;
export type PaymentResult = (typeof PAYMENT_RESULTS)[number];

/** Partner verification status (spec: partner-verify-status). */
export const PARTNER_STATUSES = ['VERIFIED', 'NOT_VERIFIED'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

/** The wizard's next step: verify the partner, then save the provider keys, then the tax rate. */
export const PAYMENT_CONFIG_STEPS = ['PARTNER', 'METHOD', 'TAX', 'DONE'] as const;
export type PaymentConfigStep = (typeof PAYMENT_CONFIG_STEPS)[number];

const key = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max)
    .regex(/^[\x21-\x7e]+$/, { error: 'must be printable characters without spaces' });

/**
 * The tenant a call configures: platform staff may name it; left out, the tenant the session acts
 * in (the tenant switcher's choice).
 */
const tenantIdField = z.uuid().optional();
export const paymentConfigTenantQuerySchema = z.object({ tenantId: tenantIdField });

/**
 * POST verify-partner-auth. `partnerId` is the tenant's id; `apiKey` the partner key the platform
 * operator issued to that tenant (docs/decisions.md, "Payment partner verification").
 */
export const verifyPartnerSchema = z.object({
  apiKey: key(200),
  partnerId: z.string().trim().min(1, { error: 'validation.required' }).max(64),
  tenantId: tenantIdField,
});
export type VerifyPartnerInput = z.infer<typeof verifyPartnerSchema>;

const httpsOrLocalUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s/?#]+([/?#]\S*)?$/i, { error: 'must be an http or https address' });

/**
 * POST verify-payment-method: the provider and its keys, checked with the provider before they are
 * stored. What each key is per method:
 * - VNPAY: accessKey = the terminal code (vnp_TmnCode), secretKey = the hash secret
 *   (vnp_HashSecret); VNPay signs its callbacks with the same secret, so shareKey is not used.
 * - STRIPE: accessKey = the account id (acct_…), secretKey = the secret API key (sk_…), shareKey =
 *   the webhook signing secret (whsec_…), publishableKey = pk_… (shown to payers' browsers).
 * - SANDBOX: no keys: the server signs its own payment pages.
 * callbackUrl is where a payer's browser lands after paying (the tenant's own page).
 */
export const verifyPaymentMethodSchema = z
  .object({
    method: z.enum(PAYMENT_METHODS),
    accessKey: z.string().trim().max(200).default(''),
    shareKey: z.string().trim().max(200).default(''),
    secretKey: z.string().trim().max(200).default(''),
    publishableKey: z.string().trim().max(200).default(''),
    callbackUrl: httpsOrLocalUrl,
    tenantId: tenantIdField,
  })
  .superRefine((value, context) => {
    const required = (field: 'accessKey' | 'shareKey' | 'secretKey' | 'publishableKey') => {
      if (value[field] === '') context.addIssue({ code: 'custom', path: [field], message: 'validation.required' });
      else if (!key(200).safeParse(value[field]).success) context.addIssue({ code: 'custom', path: [field], message: 'must be printable characters without spaces' });
    };
    if (value.method === 'VNPAY') {
      required('accessKey');
      required('secretKey');
      if (value.accessKey !== '' && !/^[A-Za-z0-9]{8}$/.test(value.accessKey)) context.addIssue({ code: 'custom', path: ['accessKey'], message: 'must be the 8-character terminal code (vnp_TmnCode)' });
    }
    if (value.method === 'STRIPE') {
      required('accessKey');
      required('secretKey');
      required('shareKey');
      required('publishableKey');
      if (value.accessKey !== '' && !/^acct_[A-Za-z0-9]+$/.test(value.accessKey)) context.addIssue({ code: 'custom', path: ['accessKey'], message: 'must be the Stripe account id (acct_…)' });
      if (value.secretKey !== '' && !/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(value.secretKey)) context.addIssue({ code: 'custom', path: ['secretKey'], message: 'must be a Stripe secret key (sk_test_… or sk_live_…)' });
      if (value.shareKey !== '' && !/^whsec_[A-Za-z0-9+/=]+$/.test(value.shareKey)) context.addIssue({ code: 'custom', path: ['shareKey'], message: 'must be the webhook signing secret (whsec_…)' });
      if (value.publishableKey !== '' && !/^pk_(test|live)_[A-Za-z0-9]+$/.test(value.publishableKey)) context.addIssue({ code: 'custom', path: ['publishableKey'], message: 'must be a publishable key (pk_test_… or pk_live_…)' });
      const modeOf = (text: string) => /_(test|live)_/.exec(text)?.[1];
      if (modeOf(value.secretKey) !== undefined && modeOf(value.publishableKey) !== undefined && modeOf(value.secretKey) !== modeOf(value.publishableKey)) {
        context.addIssue({ code: 'custom', path: ['publishableKey'], message: 'must be of the same mode (test or live) as the secret key' });
      }
    }
  });
export type VerifyPaymentMethodInput = z.input<typeof verifyPaymentMethodSchema>;

/** PUT tax: the rate in basis points (1000 = 10 %). */
export const paymentTaxSchema = z.object({ rate: z.number().int().min(0).max(10_000), tenantId: tenantIdField });
export type PaymentTaxInput = z.infer<typeof paymentTaxSchema>;

/** GET partner-verify-status. */
export const partnerVerifyStatusSchema = z.object({
  status: z.enum(PARTNER_STATUSES),
  partnerId: z.string().nullable(),
  verifiedAt: z.iso.datetime().nullable(),
});
export type PartnerVerifyStatus = z.infer<typeof partnerVerifyStatusSchema>;

/** GET payment-method-information: what is stored, keys masked (`****` and the last 4 characters). */
export const paymentMethodInformationSchema = z.object({
  tenantId: z.uuid(),
  step: z.enum(PAYMENT_CONFIG_STEPS),
  partner: partnerVerifyStatusSchema,
  method: z.enum(PAYMENT_METHODS).nullable(),
  /** The account or terminal identifier (not a secret), shown whole. */
  accessKey: z.string().nullable(),
  shareKey: z.string().nullable(),
  secretKey: z.string().nullable(),
  publishableKey: z.string().nullable(),
  callbackUrl: z.string().nullable(),
  /** Where the provider sends its server-to-server notifications (set on the provider's side). */
  notificationUrl: z.string().nullable(),
  methodVerifiedAt: z.iso.datetime().nullable(),
  taxRate: z.number().int().nullable(),
  updatedAt: z.iso.datetime().nullable(),
});
export type PaymentMethodInformation = z.infer<typeof paymentMethodInformationSchema>;

/** The partner key the platform issues to a tenant (super admins only). */
export const paymentPartnerKeySchema = z.object({ partnerId: z.uuid(), apiKey: z.string() });
export type PaymentPartnerKey = z.infer<typeof paymentPartnerKeySchema>;

/** POST test-payment: starts a payment of the given amount through the tenant's provider. */
export const paymentTestSchema = z.object({
  amountMinor: amountMinorSchema,
  currency: z.enum(PAYMENT_CURRENCIES),
  tenantId: tenantIdField,
});
export const paymentTestResultSchema = z.object({ orderId: z.string(), redirectUrl: z.string() });
export type PaymentTestResult = z.infer<typeof paymentTestResultSchema>;

/**
 * How a payment attempt's status may move on a provider's word: once out of PENDING it is final,
 * except that a paid one may be refunded. Anything else (a late or replayed callback) changes nothing.
 */
export const PAYMENT_STATUS_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PENDING: ['SUCCESS', 'FAILED'],
  SUCCESS: ['REFUNDED'],
  FAILED: [],
  REFUNDED: [],
};
