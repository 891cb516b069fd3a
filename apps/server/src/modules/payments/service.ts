import { and, eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { PAYMENT_STATUS_TRANSITIONS, type PaymentCurrency, type PaymentMethod } from '@rpm/contracts';
import type { Database, TenantTransaction } from '../../db/database.js';
import { paymentAttempts, paymentCallbacks, type PaymentAttemptRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { settleOrderOfAttempt } from '../orders/settle.js';
import { providerOf, readPaymentConfig, type OpenPaymentConfig } from './directory.js';
import { PaymentKeyError, PaymentUnavailableError, type PaymentEndpoints, type VerifiedCallback } from './providers/provider.js';

/**
 * Payment attempts: the one place that starts a payment with a tenant's provider and records what
 * the provider later says. Checkout and orders call startPayment and read the attempt's status;
 * the callback routes and reconciliation call applyProviderVerdict.
 */
export interface PaymentEnvironment {
  database: Database;
  clock: Clock;
  secretsKey: Buffer;
  endpoints: PaymentEndpoints;
}

export interface StartPaymentInput {
  /** Our reference (letters, digits, `-`, `_`; at most 64); unique per tenant and method. */
  orderId: string;
  amountMinor: number;
  currency: PaymentCurrency;
  description: string;
  /** Where the payer returns; the tenant's configured callbackUrl when left out. */
  returnUrl?: string;
  ipAddress: string;
  locale: 'en' | 'vi';
  createdBy: string | null;
}

export interface StartedPayment {
  attemptId: string;
  orderId: string;
  method: PaymentMethod;
  redirectUrl: string;
}

/** The tenant's configuration when it can take payments: partner verified and a method saved. */
export async function requirePaymentMethod(environment: PaymentEnvironment, tenantId: string): Promise<OpenPaymentConfig & { method: PaymentMethod }> {
  const config = await readPaymentConfig(environment.database.system, environment.secretsKey, tenantId);
  if (config?.method === null || config?.method === undefined || config.partnerStatus !== 'VERIFIED') throw new AppError('payment.methodNotFinalized');
  return { ...config, method: config.method };
}

/**
 * Records a PENDING attempt, then asks the provider for the payment page. When the provider
 * fails, the attempt is closed as FAILED (result `error`) and the error is answered.
 */
export async function startPayment(environment: PaymentEnvironment, tenantId: string, input: StartPaymentInput): Promise<StartedPayment> {
  const config = await requirePaymentMethod(environment, tenantId);
  const provider = providerOf(config, environment);
  if (!provider.currencies.includes(input.currency)) throw new AppError('payment.currencyUnsupported');
  const now = environment.clock.now();
  const returnUrl = input.returnUrl ?? config.keys.callbackUrl;
  const id = uuidv7();
  await environment.database.withTenant(tenantId, async (tx) => {
    await tx.insert(paymentAttempts).values({
      tenantId,
      id,
      method: config.method,
      orderId: input.orderId,
      amountMinor: input.amountMinor,
      currency: input.currency,
      description: input.description.slice(0, 255),
      returnUrl,
      status: 'PENDING',
      createdBy: input.createdBy,
      createdAt: now,
      updatedAt: now,
    });
  });
  try {
    // VNPay returns the payer to this server, which checks the signature, records the verdict and
    // sends the payer on; the others go straight back (their verdict comes by webhook or form).
    const providerReturnUrl = config.method === 'VNPAY' && config.callbackKey !== null ? `${environment.endpoints.publicUrl}/collector/payments/vnpay/${config.callbackKey}/return` : returnUrl;
    const created = await provider.createPayment({ ...input, returnUrl: providerReturnUrl, createdAt: now });
    if (created.providerReference !== undefined) {
      await environment.database.withTenant(tenantId, (tx) =>
        tx.update(paymentAttempts).set({ providerReference: created.providerReference, updatedAt: now }).where(and(eq(paymentAttempts.tenantId, tenantId), eq(paymentAttempts.id, id))),
      );
    }
    return { attemptId: id, orderId: input.orderId, method: config.method, redirectUrl: created.redirectUrl };
  } catch (error) {
    await environment.database.withTenant(tenantId, (tx) =>
      tx
        .update(paymentAttempts)
        .set({ status: 'FAILED', result: 'error', providerCode: 'create-failed', completedAt: now, updatedAt: now })
        .where(and(eq(paymentAttempts.tenantId, tenantId), eq(paymentAttempts.id, id))),
    );
    if (error instanceof PaymentKeyError) throw new AppError('payment.providerKeyInvalid', { cause: error });
    if (error instanceof PaymentUnavailableError) throw new AppError('payment.providerUnavailable', { cause: error });
    throw error;
  }
}

/** What recording a provider's verdict did, and VNPay's name for it. */
export type VerdictOutcome =
  | { outcome: 'APPLIED'; attempt: PaymentAttemptRow }
  | { outcome: 'IGNORED'; reason: 'replayed' | 'final'; attempt: PaymentAttemptRow | undefined }
  | { outcome: 'REFUSED'; reason: 'unknownOrder' | 'wrongAmount'; attempt: PaymentAttemptRow | undefined };

async function findAttempt(tx: TenantTransaction, tenantId: string, method: PaymentMethod, verdict: VerifiedCallback): Promise<PaymentAttemptRow | undefined> {
  const byOrder = verdict.orderId === null ? undefined : eq(paymentAttempts.orderId, verdict.orderId);
  const byReference = verdict.providerReference === null ? undefined : eq(paymentAttempts.providerReference, verdict.providerReference);
  const match = byOrder ?? byReference;
  if (match === undefined) return undefined;
  const [row] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.tenantId, tenantId), eq(paymentAttempts.method, method), match))
    .for('update');
  return row;
}

/**
 * Records a verified provider verdict once: the callback row is unique per provider event, so a
 * replay changes nothing; the attempt moves only along PAYMENT_STATUS_TRANSITIONS, and only when
 * the amount is the one asked for.
 */
export async function applyProviderVerdict(environment: PaymentEnvironment, config: OpenPaymentConfig & { method: PaymentMethod }, verdict: VerifiedCallback): Promise<VerdictOutcome> {
  const { tenantId, method } = config;
  const now = environment.clock.now();
  return environment.database.withTenant(tenantId, async (tx): Promise<VerdictOutcome> => {
    const attempt = await findAttempt(tx, tenantId, method, verdict);
    const decide = (): VerdictOutcome => {
      if (attempt === undefined) return { outcome: 'REFUSED', reason: 'unknownOrder', attempt };
      // A refund names the charged amount; everything else must be the amount asked for.
      if (verdict.amountMinor !== null && verdict.amountMinor !== attempt.amountMinor) return { outcome: 'REFUSED', reason: 'wrongAmount', attempt };
      if (!PAYMENT_STATUS_TRANSITIONS[attempt.status].includes(verdict.status)) return { outcome: 'IGNORED', reason: 'final', attempt };
      return { outcome: 'APPLIED', attempt };
    };
    let decision = decide();
    const inserted = await tx
      .insert(paymentCallbacks)
      .values({
        tenantId,
        id: uuidv7(),
        attemptId: attempt?.id ?? null,
        method,
        eventKey: verdict.eventKey.slice(0, 200),
        status: verdict.status,
        outcome: decision.outcome,
        payload: verdict.raw,
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: paymentCallbacks.id });
    if (inserted.length === 0) return { outcome: 'IGNORED', reason: 'replayed', attempt };
    if (decision.outcome === 'APPLIED') {
      const [moved] = await tx
        .update(paymentAttempts)
        .set({
          status: verdict.status,
          result: verdict.result,
          providerCode: verdict.resultCode.slice(0, 100),
          providerReference: verdict.providerReference ?? decision.attempt.providerReference,
          completedAt: decision.attempt.completedAt ?? now,
          updatedAt: now,
        })
        .where(and(eq(paymentAttempts.tenantId, tenantId), eq(paymentAttempts.id, decision.attempt.id)))
        .returning();
      decision = { outcome: 'APPLIED', attempt: moved ?? decision.attempt };
      // The order the payment is for follows it, in this transaction.
      await settleOrderOfAttempt(tx, tenantId, decision.attempt, now);
    }
    return decision;
  });
}

/** A tenant's attempt by order id (for the sandbox page and the return redirect). */
export async function findAttemptByOrder(environment: PaymentEnvironment, tenantId: string, method: PaymentMethod, orderId: string): Promise<PaymentAttemptRow | undefined> {
  return environment.database.withTenant(tenantId, async (tx) => {
    const [row] = await tx
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.tenantId, tenantId), eq(paymentAttempts.method, method), eq(paymentAttempts.orderId, orderId)));
    return row;
  });
}

/** A fresh order reference for a test payment: TEST-, the time and randomness. */
export const newTestOrderId = () => `TEST-${uuidv7().replace(/-/g, '').slice(0, 24)}`;
