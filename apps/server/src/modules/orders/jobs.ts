import { ORDER_RECONCILE_HOURS } from '@rpm/contracts';
import { and, eq, gte, inArray, lte } from 'drizzle-orm';
import { orders, paymentAttempts } from '../../db/schema.js';
import { HOUR, MINUTE } from '../../lib/clock.js';
import { definePeriodicTask, type PeriodicTaskContext } from '../jobs/registry.js';
import { providerOf, readPaymentConfig } from '../payments/directory.js';
import { applyProviderVerdict } from '../payments/service.js';
import { activeTenantIds } from '../staff/store.js';
import { writeDailyCdr } from './cdr.js';
import { timeOutOrders } from './settle.js';

/** An order younger than this is left to the payer and the provider's own notice. */
const RECONCILE_AFTER_MINUTES = 2;

/**
 * Reconciliation of open orders in one tenant: every PENDING or TIMEOUT order between 2 minutes
 * and 24 hours old is asked about at its provider (where the provider answers queries: VNPay's
 * querydr, Stripe's Checkout Session); the answer is recorded like a callback (once, settling the
 * order). Then PENDING orders past their payment wait become TIMEOUT. Answers how many were settled.
 */
export async function reconcileTenant(context: Pick<PeriodicTaskContext, 'database' | 'clock' | 'log' | 'payments'>, tenantId: string): Promise<{ settled: number; timedOut: number }> {
  const { database, clock, log, payments } = context;
  const now = clock.now();
  let settled = 0;
  const config = payments === undefined ? undefined : await readPaymentConfig(database.system, payments.secretsKey, tenantId);
  if (payments !== undefined && config?.method !== null && config?.method !== undefined) {
    const method = config.method;
    const provider = providerOf({ ...config, method }, { clock, secretsKey: payments.secretsKey, endpoints: payments.endpoints });
    if (provider.queryPayment !== undefined) {
      const open = await database.withTenant(tenantId, (tx) =>
        tx
          .select({ attempt: paymentAttempts })
          .from(orders)
          .innerJoin(paymentAttempts, and(eq(paymentAttempts.tenantId, orders.tenantId), eq(paymentAttempts.orderId, orders.code), eq(paymentAttempts.method, method)))
          .where(
            and(
              inArray(orders.status, ['PENDING', 'TIMEOUT']),
              eq(orders.method, method),
              lte(orders.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MINUTES * MINUTE)),
              gte(orders.createdAt, new Date(now.getTime() - ORDER_RECONCILE_HOURS * HOUR)),
            ),
          )
          .limit(200),
      );
      for (const { attempt } of open) {
        try {
          const verdict = await provider.queryPayment({ orderId: attempt.orderId, createdAt: attempt.createdAt, providerReference: attempt.providerReference, ipAddress: '127.0.0.1' });
          if (verdict.status === 'PENDING') continue;
          const outcome = await applyProviderVerdict({ database, clock, secretsKey: payments.secretsKey, endpoints: payments.endpoints }, { ...config, method }, verdict);
          if (outcome.outcome === 'APPLIED') settled += 1;
        } catch (error) {
          log.warn({ err: error, tenantId, orderId: attempt.orderId }, 'orders: the provider could not be asked about an open order');
        }
      }
    }
  }
  const timedOut = await database.withTenant(tenantId, (tx) => timeOutOrders(tx, now));
  return { settled, timedOut };
}

export const RECONCILE_TASK = definePeriodicTask({
  name: 'orders.reconcile',
  schedule: '*/5 * * * *',
  handler: async (context) => {
    for (const tenantId of await activeTenantIds(context.database.system)) {
      try {
        await reconcileTenant(context, tenantId);
      } catch (error) {
        context.log.error({ err: error, tenantId }, 'orders: reconciliation failed for a tenant');
      }
    }
  },
});

/** Every 15 minutes: each tenant past its midnight gets the CDR of the day that ended (once). */
export const CDR_TASK = definePeriodicTask({
  name: 'orders.dailyCdr',
  schedule: '*/15 * * * *',
  handler: async ({ database, clock, log }) => {
    for (const tenantId of await activeTenantIds(database.system)) {
      try {
        await writeDailyCdr(database, tenantId, clock.now());
      } catch (error) {
        log.error({ err: error, tenantId }, 'orders: the daily CDR could not be written for a tenant');
      }
    }
  },
});
