import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { PAYMENT_CURRENCIES, type PaymentCurrency } from '@rpm/contracts';
import {
  PaymentSignatureError,
  type CallbackRequest,
  type CreatePaymentInput,
  type CreatedPayment,
  type PaymentProvider,
  type RefundResult,
  type VerifiedCallback,
} from './provider.js';

/**
 * The local sandbox: a payment page served by this server (GET /collector/payments/sandbox/:token
 * shows the order with Pay and Decline; POST completes it and sends the payer back). No money
 * moves. The token is the order (tenant, order id, amount, currency, expiry) signed with
 * HMAC-SHA256 under a key derived from SECRETS_KEY, so a completion for another order, amount or
 * tenant, or a made-up one, is refused.
 */
export interface SandboxToken {
  tenantId: string;
  orderId: string;
  amountMinor: number;
  currency: PaymentCurrency;
  /** Seconds since the epoch after which the page refuses the payment. */
  expiresAt: number;
}

const TOKEN_LIFETIME_SECONDS = 30 * 60;

function sandboxKey(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.from('rpm/payments'), Buffer.from('v1:sandbox-token'), 32));
}

export function signSandboxToken(secretsKey: Buffer, token: SandboxToken): string {
  const payload = Buffer.from(JSON.stringify([token.tenantId, token.orderId, token.amountMinor, token.currency, token.expiresAt])).toString('base64url');
  const mac = createHmac('sha256', sandboxKey(secretsKey)).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/** The order a token names, or undefined for a forged, altered or expired one. */
export function openSandboxToken(secretsKey: Buffer, text: string, now: Date): SandboxToken | undefined {
  const [payload, mac, ...rest] = text.split('.');
  if (payload === undefined || mac === undefined || rest.length > 0) return undefined;
  const expected = createHmac('sha256', sandboxKey(secretsKey)).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 5) return undefined;
  const [tenantId, orderId, amountMinor, currency, expiresAt] = fields as unknown[];
  const knownCurrency = PAYMENT_CURRENCIES.find((candidate) => candidate === currency);
  if (typeof tenantId !== 'string' || typeof orderId !== 'string' || typeof amountMinor !== 'number' || knownCurrency === undefined || typeof expiresAt !== 'number') return undefined;
  if (expiresAt * 1000 < now.getTime()) return undefined;
  return { tenantId, orderId, amountMinor, currency: knownCurrency, expiresAt };
}

export function createSandboxProvider(options: { tenantId: string; secretsKey: Buffer; publicUrl: string; now: () => Date }): PaymentProvider {
  return {
    method: 'SANDBOX',
    currencies: PAYMENT_CURRENCIES,

    createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const token = signSandboxToken(options.secretsKey, {
        tenantId: options.tenantId,
        orderId: input.orderId,
        amountMinor: input.amountMinor,
        currency: input.currency,
        expiresAt: Math.floor(input.createdAt.getTime() / 1000) + TOKEN_LIFETIME_SECONDS,
      });
      return Promise.resolve({ redirectUrl: `${options.publicUrl}/collector/payments/sandbox/${token}` });
    },

    /** The page's form: `token` and `decision` (pay or decline). */
    verifyCallback(callback: CallbackRequest): VerifiedCallback {
      const token = openSandboxToken(options.secretsKey, callback.query.token ?? '', options.now());
      if (token?.tenantId !== options.tenantId) throw new PaymentSignatureError('invalid or expired sandbox token');
      const decision = callback.query.decision === 'pay' ? 'pay' : 'decline';
      return {
        orderId: token.orderId,
        status: decision === 'pay' ? 'SUCCESS' : 'FAILED',
        result: decision === 'pay' ? 'success' : 'notCompleted',
        resultCode: decision,
        amountMinor: token.amountMinor,
        providerReference: `sandbox-${token.orderId}`,
        eventKey: `${token.orderId}:${decision}`,
        raw: { orderId: token.orderId, amountMinor: token.amountMinor, currency: token.currency, decision },
      };
    },

    refund(): Promise<RefundResult> {
      return Promise.resolve({ refunded: true, providerReference: null });
    },

    verifyKeys(): Promise<void> {
      return Promise.resolve();
    },
  };
}
