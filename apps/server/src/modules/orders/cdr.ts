import { minorToDecimal, WEB_STATUS, type CdrFile, type OrderStatus } from '@rpm/contracts';
import { and, asc, count, desc, eq, gte, lt, or, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { cdrFiles, orderItems, orders } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { OrderEnvironment } from './checkout.js';
import { tenantTimeZone } from './history.js';

/**
 * The daily CDR (call detail record) of transactions (spec §2 "order history with export (CDR and
 * Excel)"; §9 "CDR export runs automatically, daily at 12 AM"): after midnight in the tenant's time
 * zone, one file of the day that ended, kept for staff to download. A CSV (RFC 4180, UTF-8): one
 * row per order settled that day (paid, failed, or timed out and settled later) and one per refund
 * made that day, with a negative amount. Written once per tenant and day (the unique day makes a
 * second run or a second server write nothing).
 */
export const CDR_COLUMNS = ['record_type', 'order_code', 'event_time', 'customer_phone', 'products', 'amount', 'currency', 'method', 'reference_id', 'web_status', 'status', 'result'] as const;

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const csvLine = (values: readonly string[]) => `${values.map(csvCell).join(',')}\r\n`;

/** The tenant's local day that ended most recently before `now` (yyyy-MM-dd). */
export function previousLocalDay(now: Date, zone: string): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const previous = new Date(`${today}T00:00:00Z`);
  previous.setUTCDate(previous.getUTCDate() - 1);
  return previous.toISOString().slice(0, 10);
}

/** Builds the CDR of one local day (orders settled and refunds made that day, in the tenant's zone). */
export async function buildCdr(tx: TenantTransaction, day: string, zone: string): Promise<{ content: string; rows: number }> {
  const [bounds] = (
    await tx.execute<{ from: string; to: string }>(sql`SELECT ((${day}::date)::timestamp AT TIME ZONE ${zone})::text AS "from", ((${day}::date + 1)::timestamp AT TIME ZONE ${zone})::text AS "to"`)
  ).rows.map((row) => ({ from: new Date(row.from), to: new Date(row.to) }));
  if (bounds === undefined) throw new Error('no day bounds');
  const rows = await tx
    .select({
      order: orders,
      products: sql<string>`coalesce((SELECT string_agg(item.product_id, ' ' ORDER BY item.line) FROM ${orderItems} item WHERE item.tenant_id = ${orders.tenantId} AND item.order_id = ${orders.id}), '')`,
    })
    .from(orders)
    .where(or(and(gte(orders.completedAt, bounds.from), lt(orders.completedAt, bounds.to)), and(gte(orders.refundedAt, bounds.from), lt(orders.refundedAt, bounds.to))))
    .orderBy(asc(orders.completedAt), asc(orders.code));
  const inDay = (at: Date | null) => at !== null && at >= bounds.from && at < bounds.to;
  const lines = [csvLine(CDR_COLUMNS)];
  for (const { order, products } of rows) {
    const common = [order.customerPhone, products] as const;
    const provider = [order.currency, order.method ?? 'COUPON', order.providerReference ?? ''] as const;
    if (inDay(order.completedAt)) {
      // The state the day ended with: a refund made later is its own row in its own day's file.
      const status: OrderStatus = order.status === 'REFUNDED' ? 'SUCCESS' : order.status;
      lines.push(csvLine(['ORDER', order.code, order.completedAt?.toISOString() ?? '', ...common, minorToDecimal(order.totalMinor, order.currency), ...provider, String(WEB_STATUS[status]), status, order.result ?? '']));
    }
    if (inDay(order.refundedAt))
      lines.push(csvLine(['REFUND', order.code, order.refundedAt?.toISOString() ?? '', ...common, minorToDecimal(-order.refundedMinor, order.currency), ...provider, String(WEB_STATUS.REFUNDED), 'REFUNDED', '']));
  }
  return { content: lines.join(''), rows: lines.length - 1 };
}

/** Writes the tenant's CDR of the day that ended, once. Answers whether a file was written. */
export async function writeDailyCdr(database: Database, tenantId: string, now: Date): Promise<boolean> {
  const zone = await tenantTimeZone(database, tenantId);
  const day = previousLocalDay(now, zone);
  return database.withTenant(tenantId, async (tx) => {
    const [existing] = await tx.select({ id: cdrFiles.id }).from(cdrFiles).where(eq(cdrFiles.day, day)).limit(1);
    if (existing !== undefined) return false;
    const built = await buildCdr(tx, day, zone);
    const inserted = await tx
      .insert(cdrFiles)
      .values({ tenantId, id: uuidv7(), day, fileName: `cdr-${day}.csv`, rows: built.rows, content: Buffer.from(built.content, 'utf8'), createdAt: now })
      .onConflictDoNothing()
      .returning({ id: cdrFiles.id });
    return inserted.length > 0;
  });
}

const toCdrFile = (row: { id: string; day: string; fileName: string; rows: number; createdAt: Date }): CdrFile => ({
  id: row.id,
  day: row.day,
  fileName: row.fileName,
  rows: row.rows,
  createdAt: row.createdAt.toISOString(),
});

/** GET /account/transactions/cdr: the written files, newest day first. */
export function listCdrFiles(environment: OrderEnvironment, query: { page: number; size: number }) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const rows = await tx
      .select({ id: cdrFiles.id, day: cdrFiles.day, fileName: cdrFiles.fileName, rows: cdrFiles.rows, createdAt: cdrFiles.createdAt })
      .from(cdrFiles)
      .orderBy(desc(cdrFiles.day))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(cdrFiles);
    return { items: rows.map(toCdrFile), page: query.page, size: query.size, total: total?.total ?? 0 };
  });
}

/** GET /account/transactions/cdr/:id: one file's bytes. */
export function readCdrFile(environment: OrderEnvironment, id: string) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const [row] = await tx.select().from(cdrFiles).where(eq(cdrFiles.id, id)).limit(1);
    if (row === undefined) throw new AppError('order.cdrNotFound');
    return row;
  });
}
