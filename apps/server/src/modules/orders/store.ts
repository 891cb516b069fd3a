import { randomInt } from 'node:crypto';
import { WEB_STATUS, type Order, type PaymentResult } from '@rpm/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { orderItems, orders, type OrderItemRow, type OrderRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';

/** Order codes: ORD, the UTC date (yyMMdd) and 10 characters without look-alikes; the provider carries it. */
const CODE_ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';
export function newOrderCode(now: Date): string {
  const day = now.toISOString().slice(2, 10).replace(/-/g, '');
  const random = Array.from({ length: 10 }, () => CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length))).join('');
  return `ORD${day}${random}`;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function toOrder(row: OrderRow, items: readonly OrderItemRow[]): Order {
  return {
    id: row.id,
    code: row.code,
    patientId: row.patientId,
    customerName: row.customerName,
    customerPhone: row.customerPhone,
    packageName: row.packageName,
    type: row.type,
    status: row.status,
    webStatus: WEB_STATUS[row.status],
    currency: row.currency,
    subtotalMinor: row.subtotalMinor,
    discountMinor: row.discountMinor,
    taxRate: row.taxRate,
    taxMinor: row.taxMinor,
    totalMinor: row.totalMinor,
    couponCode: row.couponCode,
    method: row.method,
    purchaseChannel: row.purchaseChannel,
    retailChannel: row.retailChannel,
    referenceId: row.providerReference,
    result: row.result as PaymentResult | null,
    fulfilment: row.fulfilment,
    fulfilmentError: row.fulfilmentError,
    refundedMinor: row.refundedMinor,
    refundReason: row.refundReason,
    refundedAt: iso(row.refundedAt),
    createdAt: row.createdAt.toISOString(),
    completedAt: iso(row.completedAt),
    items: items
      .filter((item) => item.orderId === row.id)
      .sort((a, b) => a.line - b.line)
      .map((item) => ({
        line: item.line,
        packageId: item.packageId,
        productId: item.productId,
        name: item.name,
        category: item.category,
        unitMinor: item.unitMinor,
        quantity: item.quantity,
        discountMinor: item.discountMinor,
        amountMinor: item.amountMinor,
      })),
  };
}

/** The orders' items, for a page of orders (one query). */
export async function itemsOf(tx: TenantTransaction, orderIds: readonly string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return [];
  return tx.select().from(orderItems).where(inArray(orderItems.orderId, [...orderIds])).orderBy(asc(orderItems.orderId), asc(orderItems.line));
}

/** One order with its items, as the caller sees it (another tenant's or patient's: payment.notFound). */
export async function readOrder(tx: TenantTransaction, where: { id: string } | { code: string }, options: { lock?: boolean } = {}): Promise<{ row: OrderRow; order: Order }> {
  const condition = 'id' in where ? eq(orders.id, where.id) : eq(orders.code, where.code);
  const query = tx.select().from(orders).where(and(condition)).limit(1);
  const [row] = options.lock === true ? await query.for('update') : await query;
  if (row === undefined) throw new AppError('order.notFound');
  return { row, order: toOrder(row, await itemsOf(tx, [row.id])) };
}
