import { ORDER_PAYMENT_WAIT_MINUTES, type OrderStatus } from '@rpm/contracts';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { coupons, orderItems, orders, type OrderRow, type PaymentAttemptRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { MINUTE } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { notifyPatient } from '../notifications/notify.js';
import { cancelSubscription, currentSubscriptions, startSubscription } from '../packages/subscriptions.js';

/**
 * What a payment's verdict does to its order, in the verdict's own transaction (so a paid order
 * and its packages are recorded together, or not at all):
 * - SUCCESS: the order is paid and its packages start (source ORDER, the order code as receipt). A
 *   package that cannot start any more (disabled since, or the wearable unbound) does not undo the
 *   payment: the order stays paid with fulfilment FAILED and the reason, for staff to refund.
 * - FAILED: the order failed and its coupon use is given back.
 * - REFUNDED: the order is refunded (the provider's own refund, e.g. from Stripe's dashboard).
 * A TIMEOUT order still takes a late SUCCESS or FAILED: the provider has the last word on money.
 */
export async function settleOrderOfAttempt(tx: TenantTransaction, tenantId: string, attempt: PaymentAttemptRow, now: Date): Promise<void> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.code, attempt.orderId), eq(orders.method, attempt.method)))
    .limit(1)
    .for('update');
  if (order === undefined) return;
  const moves: Partial<Record<OrderStatus, readonly OrderStatus[]>> = { PENDING: ['SUCCESS', 'FAILED'], TIMEOUT: ['SUCCESS', 'FAILED'], SUCCESS: ['REFUNDED'] };
  const target: OrderStatus = attempt.status === 'PENDING' ? 'PENDING' : attempt.status;
  if (!(moves[order.status] ?? []).includes(target)) return;
  const common = { result: attempt.result, providerReference: attempt.providerReference ?? order.providerReference, updatedAt: now };
  if (target === 'SUCCESS') {
    await tx.update(orders).set({ ...common, status: 'SUCCESS', completedAt: now }).where(eq(orders.id, order.id));
    await fulfilOrder(tx, tenantId, { ...order, status: 'SUCCESS' }, now);
    await notifyPatient(tx, tenantId, order.patientId, { kind: 'order.paid', params: { packageName: order.packageName, code: order.code }, link: `/payment/result?orderId=${order.code}`, at: now });
  } else if (target === 'FAILED') {
    await tx.update(orders).set({ ...common, status: 'FAILED', completedAt: now }).where(eq(orders.id, order.id));
    await releaseCoupon(tx, order, now);
  } else {
    await tx
      .update(orders)
      .set({ ...common, status: 'REFUNDED', refundedMinor: order.totalMinor, refundedAt: now, refundReason: order.refundReason ?? 'provider' })
      .where(eq(orders.id, order.id));
    await endOrderSubscriptions(tx, tenantId, order, now);
    await notifyRefund(tx, tenantId, order, now);
  }
  await recordAudit(tx, tenantId, orderAudit(tenantId, order), {
    action: target === 'SUCCESS' ? 'ORDER_PAID' : target === 'FAILED' ? 'ORDER_FAILED' : 'ORDER_REFUNDED',
    targetType: 'order',
    targetId: order.id,
    details: { code: order.code, patientId: order.patientId, totalMinor: order.totalMinor, currency: order.currency, result: attempt.result, providerCode: attempt.providerCode },
    at: now,
  });
}

/** Tells the patient their payment was refunded. */
export async function notifyRefund(tx: TenantTransaction, tenantId: string, order: OrderRow, now: Date): Promise<void> {
  await notifyPatient(tx, tenantId, order.patientId, { kind: 'order.refunded', params: { packageName: order.packageName, code: order.code }, link: '/subscription', at: now });
}

/** The order's author acts (the patient who paid), through no request. */
export const orderAudit = (tenantId: string, order: OrderRow): AuditContext => ({ actorUserId: order.createdBy, actorTenantId: tenantId, ip: null, userAgent: null, requestId: null });

/**
 * Starts the paid order's packages, each in a savepoint: one that cannot start is written down
 * (fulfilment FAILED with the error's code) and the payment stays recorded.
 */
export async function fulfilOrder(tx: TenantTransaction, tenantId: string, order: OrderRow, now: Date): Promise<void> {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  const failures: string[] = [];
  // Packages first, then add-ons (an add-on may need the package).
  for (const item of items.sort((a, b) => (a.category === b.category ? a.line - b.line : a.category === 'PACKAGE' ? -1 : 1))) {
    if (item.packageId === null) continue;
    const packageId = item.packageId;
    try {
      await tx.transaction(async (savepoint) => {
        await startSubscription(savepoint, {
          tenantId,
          patientId: order.patientId,
          packageId,
          source: 'ORDER',
          receiptId: order.code,
          actorId: order.createdBy,
          audit: orderAudit(tenantId, order),
          now,
        });
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failures.push(`${item.productId}: ${error.code}`);
    }
  }
  await tx
    .update(orders)
    .set({ fulfilment: failures.length === 0 ? 'DONE' : 'FAILED', fulfilmentError: failures.length === 0 ? null : failures.join('; ').slice(0, 500), updatedAt: now })
    .where(eq(orders.id, order.id));
}

/** A failed order gives its coupon's use back. */
export async function releaseCoupon(tx: TenantTransaction, order: OrderRow, now: Date): Promise<void> {
  if (order.couponId === null) return;
  await tx
    .update(coupons)
    .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)`, updatedAt: now })
    .where(eq(coupons.id, order.couponId));
}

/**
 * A refunded order's package ends (back to the default package) when the patient's current
 * package is the one this order paid for (its receipt); a later order's package stays.
 */
export async function endOrderSubscriptions(tx: TenantTransaction, tenantId: string, order: OrderRow, now: Date): Promise<void> {
  const current = (await currentSubscriptions(tx, order.patientId)).find((entry) => entry.subscription.kind === 'PACKAGE');
  if (current?.subscription.receiptId !== order.code) return;
  await cancelSubscription(tx, { tenantId, patientId: order.patientId, audit: orderAudit(tenantId, order), now });
}

/**
 * Orders still PENDING past the payment wait become TIMEOUT (not final: see above). Answers the
 * orders moved.
 */
export async function timeOutOrders(tx: TenantTransaction, now: Date): Promise<number> {
  const moved = await tx
    .update(orders)
    .set({ status: 'TIMEOUT', result: 'paymentWaitExpired', updatedAt: now })
    .where(and(eq(orders.status, 'PENDING'), lte(orders.expiresAt, now)))
    .returning({ id: orders.id });
  return moved.length;
}

/** The payment wait of an order made now. */
export const paymentDeadline = (now: Date) => new Date(now.getTime() + ORDER_PAYMENT_WAIT_MINUTES * MINUTE);

export const OPEN_STATUSES: OrderStatus[] = ['PENDING', 'TIMEOUT'];
