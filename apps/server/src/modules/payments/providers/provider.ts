import type { PaymentCurrency, PaymentMethod, PaymentResult, PaymentStatus } from '@rpm/contracts';

/**
 * One interface over every payment provider (VNPay, Stripe Checkout, the local sandbox). A
 * provider is built for one tenant from its stored keys (directory.ts) and never touches the
 * database: callers record attempts and outcomes (service.ts). Money is an integer amount of the
 * currency's minor unit (VND has none: 50 000 dong is 50000; USD and CAD have cents) with its
 * currency, never a float.
 */
export interface PaymentProvider {
  readonly method: PaymentMethod;
  /** Currencies the provider takes; createPayment refuses others with payment.currencyUnsupported. */
  readonly currencies: readonly PaymentCurrency[];
  /**
   * Starts a payment: answers where to send the payer's browser. Idempotent per orderId where the
   * provider allows it (Stripe: the order id is the idempotency key).
   */
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /**
   * Checks a callback's signature and reads the provider's verdict. Throws PaymentSignatureError
   * when the signature is missing or wrong; answers undefined for a signed event that concerns no
   * payment outcome (a Stripe event type we do not use).
   */
  verifyCallback(callback: CallbackRequest): VerifiedCallback | undefined;
  /** Asks the provider for a payment's state (reconciliation), where the provider offers it. */
  queryPayment?(query: PaymentQuery): Promise<VerifiedCallback>;
  /** Refunds a completed payment in full, where the provider offers it. */
  refund?(refund: RefundRequest): Promise<RefundResult>;
  /**
   * Proves the keys with one harmless authenticated request: throws PaymentKeyError when the
   * provider refuses them, PaymentUnavailableError when it cannot be reached.
   */
  verifyKeys(): Promise<void>;
}

export interface CreatePaymentInput {
  /** Our reference the provider carries back: letters, digits, `-` and `_`, at most 64. */
  orderId: string;
  amountMinor: number;
  currency: PaymentCurrency;
  /** Shown to the payer (VNPay strips diacritics and special characters, as it requires). */
  description: string;
  /** Where the payer's browser goes after paying or giving up. */
  returnUrl: string;
  /** The payer's IP address (VNPay requires it). */
  ipAddress: string;
  locale: 'en' | 'vi';
  /** When the attempt was made (VNPay's create and expiry dates come from it). */
  createdAt: Date;
}

export interface CreatedPayment {
  redirectUrl: string;
  /** The provider's own id of the payment when it makes one at once (Stripe's Checkout Session). */
  providerReference?: string;
}

/** A callback as it arrived: the query, the headers, and the body exactly as sent (signatures cover the bytes). */
export interface CallbackRequest {
  kind: 'RETURN' | 'NOTIFICATION';
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  rawBody: string;
}

export interface VerifiedCallback {
  /** Our order id, when the callback carries it (Stripe refunds name the PaymentIntent only). */
  orderId: string | null;
  status: PaymentStatus;
  /** The spec §8 result. */
  result: PaymentResult;
  /** The provider's own result code (VNPay's vnp_ResponseCode, Stripe's event type). */
  resultCode: string;
  /** The amount the provider says it collected, in minor units; null when it does not say. */
  amountMinor: number | null;
  /** The provider's id of the payment (VNPay's vnp_TransactionNo, Stripe's PaymentIntent). */
  providerReference: string | null;
  /** Unique per provider event: a replay has the same key. */
  eventKey: string;
  /** What the provider sent, without any signature. */
  raw: Record<string, unknown>;
}

export interface PaymentQuery {
  orderId: string;
  /** When the payment was created (VNPay's vnp_TransactionDate). */
  createdAt: Date;
  providerReference: string | null;
  ipAddress: string;
}

export interface RefundRequest {
  orderId: string;
  amountMinor: number;
  providerReference: string | null;
}

export interface RefundResult {
  refunded: boolean;
  providerReference: string | null;
}

/** A callback whose signature is missing or does not match the tenant's keys. */
export class PaymentSignatureError extends Error {
  constructor(message = 'invalid payment callback signature') {
    super(message);
    this.name = 'PaymentSignatureError';
  }
}

/** The provider refused the keys. */
export class PaymentKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentKeyError';
  }
}

/** The provider could not be reached or answered with a server error. */
export class PaymentUnavailableError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'PaymentUnavailableError';
  }
}

/** Where the providers live: production origins by default, local servers in tests. */
export interface PaymentEndpoints {
  /** This server's public origin (the address providers notify and payers return to). */
  publicUrl: string;
  /** VNPay's payment page (paymentv2/vpcpay.html). */
  vnpayPaymentUrl: string;
  /** VNPay's merchant API (querydr and refund). */
  vnpayApiUrl: string;
  /** Stripe's API origin. */
  stripeApiUrl: string;
}
