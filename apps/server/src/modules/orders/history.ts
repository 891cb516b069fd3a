import {
  DEFAULT_TENANT_TIME_ZONE,
  minorToDecimal,
  WEB_STATUS,
  type Order,
  type OrderExportAttribute,
  type OrderExportInput,
  type OrderListQuery,
  type PaymentMethod,
} from '@rpm/contracts';
import { resources, type SupportedLanguage } from '@rpm/i18n';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { orders, paymentAttempts } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { xlsxStream, type XlsxColumn, type XlsxValue } from '../../lib/xlsx.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { requireProfile } from '../followers/profile.js';
import { providerOf, readPaymentConfig } from '../payments/directory.js';
import { PaymentUnavailableError } from '../payments/providers/provider.js';
import { readTenantSettings } from '../tenants/store.js';
import type { OrderEnvironment } from './checkout.js';
import { endOrderSubscriptions, notifyRefund } from './settle.js';
import { itemsOf, readOrder, toOrder } from './store.js';
import { containsPattern } from '../../lib/like.js';

/**
 * Transaction control and order history (spec §2): the tenant's orders with filters, one order with
 * its items, refunds, and the Excel export with chosen attributes (spec §5). Staff see the orders of
 * the patients they see (row level security on orders); the patient app its profile's.
 */

export async function tenantTimeZone(database: Database, tenantId: string): Promise<string> {
  return (await readTenantSettings(database.system, tenantId)).get('TIME_ZONE') ?? DEFAULT_TENANT_TIME_ZONE;
}

/** Orders made from the start of `from` to the end of `to`, both days in the tenant's time zone. */
function betweenDays(from: string | undefined, to: string | undefined, zone: string): SQL | undefined {
  return and(
    from === undefined ? undefined : gte(orders.createdAt, sql`(${from}::date)::timestamp AT TIME ZONE ${zone}`),
    to === undefined ? undefined : lt(orders.createdAt, sql`(${to}::date + 1)::timestamp AT TIME ZONE ${zone}`),
  );
}

function listConditions(query: OrderListQuery, zone: string): SQL | undefined {
  const search = query.search === undefined || query.search === '' ? undefined : containsPattern(query.search);
  return and(
    search === undefined ? undefined : or(ilike(orders.code, search), ilike(orders.customerName, search), ilike(orders.customerPhone, search), ilike(orders.packageName, search)),
    query.status === undefined ? undefined : eq(orders.status, query.status),
    query.method === undefined ? undefined : eq(orders.method, query.method),
    query.type === undefined ? undefined : eq(orders.type, query.type),
    betweenDays(query.from, query.to, zone),
  );
}

const SORT_COLUMNS = { created: orders.createdAt, total: orders.totalMinor, status: orders.status, code: orders.code } as const;

async function pageOfOrders(tx: TenantTransaction, where: SQL | undefined, query: Pick<OrderListQuery, 'page' | 'size' | 'sortField' | 'sortType'>) {
  const column = SORT_COLUMNS[query.sortField];
  const direction = query.sortType === 'asc' ? asc : desc;
  const rows = await tx
    .select()
    .from(orders)
    .where(where)
    .orderBy(direction(column), direction(orders.id))
    .limit(query.size)
    .offset(query.page * query.size);
  const [total] = await tx.select({ total: count() }).from(orders).where(where);
  const items = await itemsOf(
    tx,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toOrder(row, items)), page: query.page, size: query.size, total: total?.total ?? 0 };
}

/** An order names its patient and what they pay: every read is audited as a read of those patients. */
async function auditOrderReads(environment: OrderEnvironment, tx: TenantTransaction, patientIds: readonly string[], targetId?: string): Promise<void> {
  await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
    action: 'ORDERS_VIEWED',
    targetType: targetId === undefined ? 'patient' : 'order',
    ...(targetId === undefined ? {} : { targetId }),
    patientIds: [...new Set(patientIds)],
  });
}

/** GET /account/transactions: the orders the caller sees, filtered, searched and sorted. Audited. */
export async function listOrders(environment: OrderEnvironment, query: OrderListQuery) {
  const zone = await tenantTimeZone(environment.database, environment.auth.tenantId);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const page = await pageOfOrders(tx, listConditions(query, zone), query);
    await auditOrderReads(
      environment,
      tx,
      page.items.map((order) => order.patientId),
    );
    return page;
  });
}

/** GET /account/transactions/:id: one order with its items. Audited. */
export function readOrderForStaff(environment: OrderEnvironment, id: string): Promise<Order> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { order } = await readOrder(tx, { id });
    await auditOrderReads(environment, tx, [order.patientId], order.id);
    return order;
  });
}

/** GET /health/me/orders: the profile's orders, newest first (a followed patient's: none). */
export function listMyOrders(environment: OrderEnvironment, query: Pick<OrderListQuery, 'page' | 'size'>) {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    if (profile.kind === 'FOLLOWED') return { items: [], page: query.page, size: query.size, total: 0 };
    const page = await pageOfOrders(tx, eq(orders.patientId, profile.patientId), { ...query, sortField: 'created', sortType: 'desc' });
    await auditOrderReads(environment, tx, [profile.patientId]);
    return page;
  });
}

/** GET /health/me/orders/:code: one of the profile's orders (the payment result screen). */
export function readMyOrder(environment: OrderEnvironment, code: string): Promise<Order> {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    const { order } = await readOrder(tx, { code });
    if (profile.kind === 'FOLLOWED' || order.patientId !== profile.patientId) throw new AppError('order.notFound');
    await auditOrderReads(environment, tx, [order.patientId], order.id);
    return order;
  });
}

/**
 * POST /account/transactions/:id/refund: a paid order is refunded in full. Through the provider
 * where it refunds (Stripe, the sandbox); otherwise (VNPay: refunds are made in VNPay's merchant
 * portal) it records a refund made there. The order becomes REFUNDED, its payment too, and the
 * package it paid for ends (back to the default package) if it is still the patient's current
 * one. Audited (ORDER_REFUNDED).
 */
export async function refundOrder(environment: OrderEnvironment, id: string, reason: string): Promise<Order> {
  const { auth } = environment;
  const { row } = await withCaller(environment.database, auth, (tx) => readOrder(tx, { id }));
  if (row.status !== 'SUCCESS' || row.totalMinor === 0) throw new AppError('order.notRefundable');
  let throughProvider = false;
  if (row.method !== null) {
    const config = await readPaymentConfig(environment.database.system, environment.secretsKey, auth.tenantId);
    if (config?.method === row.method) {
      const provider = providerOf({ ...config, method: row.method }, environment);
      if (provider.refund !== undefined) {
        try {
          const result = await provider.refund({ orderId: row.code, amountMinor: row.totalMinor, providerReference: row.providerReference });
          throughProvider = result.refunded;
        } catch (error) {
          if (error instanceof PaymentUnavailableError) throw new AppError('payment.providerUnavailable', { cause: error });
          throw error;
        }
        if (!throughProvider) throw new AppError('order.refundFailed');
      }
    }
  }
  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    const { row: locked } = await readOrder(tx, { id }, { lock: true });
    // A provider's refund notice may have recorded it meanwhile: nothing more to do.
    if (locked.status === 'SUCCESS') {
      await tx
        .update(orders)
        .set({ status: 'REFUNDED', refundedMinor: locked.totalMinor, refundReason: reason, refundedAt: now, refundedBy: auth.userId, updatedAt: now })
        .where(eq(orders.id, id));
      if (locked.method !== null)
        await tx
          .update(paymentAttempts)
          .set({ status: 'REFUNDED', updatedAt: now })
          .where(and(eq(paymentAttempts.orderId, locked.code), eq(paymentAttempts.method, locked.method), eq(paymentAttempts.status, 'SUCCESS')));
      await endOrderSubscriptions(tx, auth.tenantId, locked, now);
      await notifyRefund(tx, auth.tenantId, locked, now);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'ORDER_REFUNDED',
        targetType: 'order',
        targetId: id,
        details: { code: locked.code, patientId: locked.patientId, totalMinor: locked.totalMinor, currency: locked.currency, reason, throughProvider },
        at: now,
      });
    }
    return (await readOrder(tx, { id })).order;
  });
}

// Excel export ---------------------------------------------------------------------------------------

type Translate = (key: string) => string;

/** Looks a dotted key up in the payments catalogue of a language (the key itself when missing). */
export function paymentsTranslator(language: SupportedLanguage): Translate {
  const catalogue = resources[language].payments as unknown as Record<string, unknown>;
  return (key) => {
    const found = key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), catalogue);
    return typeof found === 'string' ? found : key;
  };
}

/** Each attribute's header key (orders.export.*) and value. */
const ATTRIBUTE_VALUES: Record<OrderExportAttribute, (order: Order, translate: Translate, zone: string) => XlsxValue> = {
  code: (order) => order.code,
  createdAt: (order, _t, zone) => localDateTime(order.createdAt, zone),
  customerName: (order) => order.customerName,
  customerPhone: (order) => order.customerPhone,
  packageName: (order) => order.packageName,
  items: (order) => order.items.map((item) => `${item.productId} × ${String(item.quantity)}`).join(', '),
  type: (order, translate) => translate(`orders.types.${order.type}`),
  status: (order, translate) => translate(`orders.statuses.${order.status}`),
  webStatus: (order) => WEB_STATUS[order.status],
  currency: (order) => order.currency,
  subtotal: (order) => minorToDecimal(order.subtotalMinor, order.currency),
  discount: (order) => minorToDecimal(order.discountMinor, order.currency),
  tax: (order) => minorToDecimal(order.taxMinor, order.currency),
  total: (order) => minorToDecimal(order.totalMinor, order.currency),
  coupon: (order) => order.couponCode ?? '',
  method: (order) => order.method ?? '',
  referenceId: (order) => order.referenceId ?? '',
  responseMessage: (order, translate) => (order.result === null ? '' : translate(`results.${order.result}`)),
  purchaseChannel: (order) => order.purchaseChannel,
  retailChannel: (order) => order.retailChannel,
  completedAt: (order, _t, zone) => (order.completedAt === null ? '' : localDateTime(order.completedAt, zone)),
  refunded: (order) => minorToDecimal(order.refundedMinor, order.currency),
};

/** dd/MM/yyyy HH:mm in the tenant's zone (spec §9 date formats). */
export function localDateTime(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}

const EXPORT_PAGE = 500;

/** Every order matching, a page at a time (constant memory), through the caller's rights. */
async function* exportRows(environment: OrderEnvironment, where: SQL | undefined): AsyncGenerator<Order> {
  for (let page = 0; ; page += 1) {
    const chunk = await withCaller(environment.database, environment.auth, (tx) => pageOfOrders(tx, where, { page, size: EXPORT_PAGE, sortField: 'created', sortType: 'asc' }));
    yield* chunk.items;
    if (chunk.items.length < EXPORT_PAGE) return;
  }
}

/**
 * POST /account/transactions/export: the orders of the chosen payment methods and days as .xlsx,
 * with the chosen attributes in the order given, headers and values in the caller's language. No
 * order: payment.noDataToExport. Audited (TRANSACTIONS_EXPORTED).
 */
export async function exportOrders(environment: OrderEnvironment, input: OrderExportInput & { attributes: OrderExportAttribute[]; methods: PaymentMethod[]; from: string; to: string }, translate: Translate) {
  const { auth } = environment;
  const zone = await tenantTimeZone(environment.database, auth.tenantId);
  const where = and(inArray(orders.method, input.methods), betweenDays(input.from, input.to, zone), input.status === undefined ? undefined : eq(orders.status, input.status));
  const total = await withCaller(environment.database, auth, async (tx) => {
    const [row] = await tx.select({ total: count() }).from(orders).where(where);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'TRANSACTIONS_EXPORTED',
      targetType: 'order',
      details: { attributes: input.attributes, methods: input.methods, from: input.from, to: input.to, status: input.status ?? null, rows: row?.total ?? 0 },
      at: environment.clock.now(),
    });
    return row?.total ?? 0;
  });
  if (total === 0) throw new AppError('export.noData');
  const columns: XlsxColumn[] = input.attributes.map((attribute) => ({ header: translate(`orders.export.${attribute}`), width: attribute === 'items' || attribute === 'packageName' ? 30 : 18 }));
  async function* rows() {
    for await (const order of exportRows(environment, where)) yield input.attributes.map((attribute) => ATTRIBUTE_VALUES[attribute](order, translate, zone));
  }
  return { fileName: `transactions-${input.from}-${input.to}.xlsx`, file: xlsxStream('Transactions', columns, rows()) };
}

