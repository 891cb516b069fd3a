import Stripe from 'stripe';
import type { PaymentCurrency } from '@rpm/contracts';
import {
  PaymentKeyError,
  PaymentSignatureError,
  PaymentUnavailableError,
  type CallbackRequest,
  type CreatePaymentInput,
  type CreatedPayment,
  type PaymentProvider,
  type PaymentQuery,
  type RefundRequest,
  type RefundResult,
  type VerifiedCallback,
} from './provider.js';

/**
 * Stripe Checkout through the official library, pointed at STRIPE_API_URL (a local server in
 * tests). A payment is a Checkout Session with one line of the order's amount; the order id rides
 * as client_reference_id and in the metadata of the session and its PaymentIntent. Webhooks are
 * checked with the Stripe-Signature header (stripe.webhooks.constructEvent, 5 minutes' tolerance)
 * against the endpoint's signing secret. Stripe's amounts are minor units too, and VND is
 * zero-decimal in Stripe as here: amounts pass unchanged.
 */
export interface StripeKeys {
  /** The account id (acct_…) the secret key must open. */
  accountId: string;
  secretKey: string;
  /** The webhook endpoint's signing secret (whsec_…). */
  webhookSecret: string;
}

const REQUEST_TIMEOUT_MS = 20_000;
const SESSION_EXPIRY_MINUTES = 30;

/** The library's options for an API origin such as https://api.stripe.com or http://127.0.0.1:4242. */
export function stripeHostOptions(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port), protocol };
}

function translateError(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
    return new PaymentKeyError(`Stripe refused the key: ${error.message}`);
  }
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError) {
    return new PaymentUnavailableError(`Stripe could not be reached: ${error.message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (value === null || value === undefined ? null : typeof value === 'string' ? value : value.id);

export function createStripeProvider(keys: StripeKeys, apiUrl: string): PaymentProvider {
  const stripe = new Stripe(keys.secretKey, {
    ...stripeHostOptions(apiUrl),
    timeout: REQUEST_TIMEOUT_MS,
    maxNetworkRetries: 1,
    telemetry: false,
  });

  return {
    method: 'STRIPE',
    currencies: ['VND', 'USD', 'CAD'] satisfies PaymentCurrency[],

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            client_reference_id: input.orderId,
            metadata: { orderId: input.orderId },
            payment_intent_data: { metadata: { orderId: input.orderId } },
            line_items: [
              {
                quantity: 1,
                price_data: { currency: input.currency.toLowerCase(), unit_amount: input.amountMinor, product_data: { name: input.description.slice(0, 250) || input.orderId } },
              },
            ],
            locale: input.locale === 'vi' ? 'vi' : 'en',
            success_url: input.returnUrl,
            cancel_url: input.returnUrl,
            expires_at: Math.floor(input.createdAt.getTime() / 1000) + SESSION_EXPIRY_MINUTES * 60,
          },
          // A retried start of the same order gets the same session.
          { idempotencyKey: `checkout-${input.orderId}` },
        );
        if (session.url === null) throw new PaymentUnavailableError('Stripe made a Checkout Session without a payment page address');
        return { redirectUrl: session.url, providerReference: session.id };
      } catch (error) {
        throw translateError(error);
      }
    },

    verifyCallback(callback: CallbackRequest): VerifiedCallback | undefined {
      const signature = callback.headers['stripe-signature'];
      if (signature === undefined || signature === '') throw new PaymentSignatureError('no Stripe-Signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(callback.rawBody, signature, keys.webhookSecret);
      } catch {
        throw new PaymentSignatureError();
      }
      const raw = JSON.parse(callback.rawBody) as Record<string, unknown>;
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.expired': {
          const session = event.data.object;
          const isPaid = event.type === 'checkout.session.completed' && session.payment_status === 'paid';
          const isExpired = event.type === 'checkout.session.expired';
          return {
            orderId: session.client_reference_id ?? session.metadata?.orderId ?? null,
            status: isPaid ? 'SUCCESS' : isExpired ? 'FAILED' : 'PENDING',
            result: isPaid ? 'success' : isExpired ? 'paymentWaitExpired' : 'notCompleted',
            resultCode: event.type,
            amountMinor: session.amount_total,
            providerReference: idOf(session.payment_intent) ?? session.id,
            eventKey: event.id,
            raw,
          };
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          const isFull = charge.amount_refunded >= charge.amount;
          return {
            orderId: charge.metadata.orderId ?? null,
            status: isFull ? 'REFUNDED' : 'SUCCESS',
            result: isFull ? 'reverseTransaction' : 'success',
            resultCode: event.type,
            amountMinor: charge.amount,
            providerReference: idOf(charge.payment_intent),
            eventKey: event.id,
            raw,
          };
        }
        default:
          return undefined;
      }
    },

    async queryPayment(query: PaymentQuery): Promise<VerifiedCallback> {
      if (!query.providerReference?.startsWith('cs_')) throw new PaymentUnavailableError('no Checkout Session to ask Stripe about');
      try {
        const session = await stripe.checkout.sessions.retrieve(query.providerReference);
        const isPaid = session.payment_status === 'paid';
        const isExpired = session.status === 'expired';
        return {
          orderId: session.client_reference_id ?? query.orderId,
          status: isPaid ? 'SUCCESS' : isExpired ? 'FAILED' : 'PENDING',
          result: isPaid ? 'success' : isExpired ? 'paymentWaitExpired' : 'notCompleted',
          resultCode: `session.${session.status ?? 'open'}`,
          amountMinor: session.amount_total,
          providerReference: idOf(session.payment_intent) ?? session.id,
          eventKey: `query:${session.id}:${session.status ?? ''}:${session.payment_status}`,
          raw: { id: session.id, status: session.status, payment_status: session.payment_status, amount_total: session.amount_total, currency: session.currency },
        };
      } catch (error) {
        throw translateError(error);
      }
    },

    async refund(refund: RefundRequest): Promise<RefundResult> {
      if (!refund.providerReference?.startsWith('pi_')) throw new PaymentUnavailableError('no PaymentIntent to refund');
      try {
        const made = await stripe.refunds.create({ payment_intent: refund.providerReference, amount: refund.amountMinor }, { idempotencyKey: `refund-${refund.orderId}` });
        return { refunded: made.status === 'succeeded' || made.status === 'pending', providerReference: made.id };
      } catch (error) {
        throw translateError(error);
      }
    },

    async verifyKeys(): Promise<void> {
      let account: Stripe.Account;
      try {
        account = await stripe.accounts.retrieveCurrent();
      } catch (error) {
        throw translateError(error);
      }
      if (account.id !== keys.accountId) throw new PaymentKeyError('the secret key opens another Stripe account');
    },
  };
}
