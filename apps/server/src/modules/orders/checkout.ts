import { priceCart, type CheckoutInput, type CheckoutResult, type Currency, type Quote } from '@rpm/contracts';
import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { coupons, orderItems, orders, patients, servicePackages, users, type CouponRow, type ServicePackageRow } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import { hasWearable } from '../packages/subscriptions.js';
import { readPaymentConfig } from '../payments/directory.js';
import { requirePaymentMethod, startPayment, type PaymentEnvironment } from '../payments/service.js';
import { fulfilOrder, paymentDeadline, releaseCoupon } from './settle.js';
import { newOrderCode, readOrder } from './store.js';

/**
 * The patient app's checkout (spec §2 subscriptions, checkout, payment result): the profile's
 * cart is priced once (priceCart), stored as an order with its items, and the payer sent to the
 * tenant's payment provider; the provider's verdict settles the order (settle.ts). An order a
 * coupon pays in full needs no provider and is settled at once.
 */
export interface OrderEnvironment extends PaymentEnvironment {
  auth: AuthContext;
  audit: AuditContext;
}

/** Spec §5: "10 digits for paid packages in the app, and only the 098 prefix is supported". */
export const PAID_PHONE_PATTERN = /^098\d{7}$/;
/** The account's phone as dialled at home: +84 98… and 84 98… are 098…. */
export function domesticPhone(phone: string | null): string {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.startsWith('84') && digits.length === 11 ? `0${digits.slice(2)}` : digits;
}

interface Cart {
  patientId: string;
  customerName: string;
  customerPhone: string;
  offers: ServicePackageRow[];
  coupon: CouponRow | null;
  currency: Currency;
  taxRate: number;
  quote: Quote;
}

/** The profile that pays (own record or a sub-user held), its name, and the paying account's phone. */
async function payer(environment: OrderEnvironment) {
  const { auth } = environment;
  if (auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return withCaller(environment.database, auth, async (tx) => {
    const profile = await requireProfile(tx, auth);
    assertProfileWritable(profile);
    const [patient] = await tx
      .select({ firstName: patients.firstName, middleName: patients.middleName, lastName: patients.lastName })
      .from(patients)
      .where(eq(patients.id, profile.patientId))
      .limit(1);
    const [account] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, auth.userId)).limit(1);
    if (patient === undefined) throw new AppError('patient.notFound');
    const name = [patient.firstName, patient.middleName, patient.lastName].filter((part) => part.trim() !== '').join(' ');
    return { patientId: profile.patientId, customerName: name, customerPhone: domesticPhone(account?.phone ?? null) };
  });
}

async function usableCoupon(tx: TenantTransaction, code: string, currency: Currency, now: Date): Promise<CouponRow> {
  const [coupon] = await tx.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  const usable =
    coupon !== undefined &&
    coupon.enabled &&
    coupon.validFrom <= now &&
    now < coupon.validTo &&
    (coupon.maxUses === -1 || coupon.usedCount < coupon.maxUses) &&
    (coupon.kind === 'PERCENT' || coupon.currency === currency);
  if (!usable) throw new AppError('coupon.invalid');
  return coupon;
}

/**
 * Checks and prices a cart (as the tenant, after the payer's own record was checked): enabled paid
 * packages of one currency, at most one package (the rest add-ons), a bound wearable (spec §6), the
 * 098 phone (spec §5), a usable coupon, the tenant's tax rate.
 */
async function buildCart(environment: OrderEnvironment, tx: TenantTransaction, input: CheckoutInput, who: Awaited<ReturnType<typeof payer>>): Promise<Cart> {
  const now = environment.clock.now();
  const ids = [...new Set(input.packageIds)];
  if (ids.length !== input.packageIds.length) throw new AppError('order.invalidCart');
  const rows = await tx.select().from(servicePackages).where(inArray(servicePackages.id, ids));
  const offers = ids.map((id) => rows.find((row) => row.id === id));
  if (offers.some((row) => row === undefined)) throw new AppError('package.notFound');
  const found = offers.filter((row): row is ServicePackageRow => row !== undefined);
  if (found.some((row) => !row.enabled)) throw new AppError('package.disabled');
  // The default package is free: it is reached by cancelling, never bought.
  if (found.some((row) => row.priceMinor === 0)) throw new AppError('order.invalidCart');
  if (found.filter((row) => row.kind === 'PACKAGE').length > 1) throw new AppError('order.invalidCart');
  const currency = found[0]?.currency as Currency;
  if (found.some((row) => row.currency !== currency)) throw new AppError('order.invalidCart');
  if (!(await hasWearable(tx, who.patientId))) throw new AppError('package.wearableRequired');
  if (!PAID_PHONE_PATTERN.test(who.customerPhone)) throw new AppError('payment.phoneNotSupported');
  const coupon = input.couponCode === undefined ? null : await usableCoupon(tx, input.couponCode, currency, now);
  const config = await readPaymentConfig(environment.database.system, environment.secretsKey, environment.auth.tenantId);
  const taxRate = config?.taxRate ?? 0;
  const priced = priceCart(
    found.map((row) => ({ unitMinor: row.priceMinor, quantity: 1 })),
    coupon === null ? null : { kind: coupon.kind, value: coupon.value },
    taxRate,
  );
  const quote: Quote = {
    currency,
    items: found.map((row, index) => {
      const line = priced.lines[index];
      return {
        packageId: row.id,
        name: row.name,
        category: row.kind as 'PACKAGE' | 'ADDON',
        unitMinor: row.priceMinor,
        quantity: 1,
        discountMinor: line?.discountMinor ?? 0,
        amountMinor: line?.amountMinor ?? row.priceMinor,
      };
    }),
    couponCode: coupon?.code ?? null,
    subtotalMinor: priced.subtotalMinor,
    discountMinor: priced.discountMinor,
    taxRate,
    taxMinor: priced.taxMinor,
    totalMinor: priced.totalMinor,
  };
  return { ...who, offers: found, coupon, currency, taxRate, quote };
}

/** POST /health/me/checkout/quote: what the order would cost, nothing stored. */
export async function quoteCheckout(environment: OrderEnvironment, input: CheckoutInput): Promise<Quote> {
  const who = await payer(environment);
  return environment.database.withTenant(environment.auth.tenantId, async (tx) => (await buildCart(environment, tx, input, who)).quote);
}

/**
 * POST /health/me/checkout: stores the order (PENDING, or paid at once when a coupon pays it all)
 * and starts the payment with the tenant's provider. A provider that cannot start the payment fails
 * the order (its coupon use given back) and the error is answered. Audited (ORDER_CREATED).
 */
export async function checkout(environment: OrderEnvironment, input: CheckoutInput, request: { ipAddress: string; locale: 'en' | 'vi' }): Promise<CheckoutResult> {
  const { auth } = environment;
  const who = await payer(environment);
  const now = environment.clock.now();
  const code = newOrderCode(now);
  const created = await environment.database.withTenant(auth.tenantId, async (tx) => {
    const cart = await buildCart(environment, tx, input, who);
    const free = cart.quote.totalMinor === 0;
    const method = free ? null : (await requirePaymentMethod(environment, auth.tenantId)).method;
    if (cart.coupon !== null) {
      const taken = await tx
        .update(coupons)
        .set({ usedCount: sql`${coupons.usedCount} + 1`, updatedAt: now })
        .where(and(eq(coupons.id, cart.coupon.id), or(eq(coupons.maxUses, -1), gt(coupons.maxUses, coupons.usedCount)), lte(coupons.validFrom, now)))
        .returning({ id: coupons.id });
      if (taken.length === 0) throw new AppError('coupon.invalid');
    }
    const packageName = cart.offers.map((row) => row.name).join(' + ');
    const [order] = await tx
      .insert(orders)
      .values({
        tenantId: auth.tenantId,
        id: uuidv7(),
        code,
        patientId: cart.patientId,
        customerName: cart.customerName,
        customerPhone: cart.customerPhone,
        packageName: packageName.slice(0, 255),
        type: free ? 'COUPON' : 'SERVICE_PACKAGE',
        status: free ? 'SUCCESS' : 'PENDING',
        currency: cart.currency,
        subtotalMinor: cart.quote.subtotalMinor,
        discountMinor: cart.quote.discountMinor,
        taxRate: cart.taxRate,
        taxMinor: cart.quote.taxMinor,
        totalMinor: cart.quote.totalMinor,
        couponId: cart.coupon?.id ?? null,
        couponCode: cart.coupon?.code ?? null,
        method,
        purchaseChannel: 'APP',
        retailChannel: 'DIRECT',
        result: free ? 'success' : null,
        createdBy: auth.userId,
        createdAt: now,
        expiresAt: paymentDeadline(now),
        completedAt: free ? now : null,
        updatedAt: now,
      })
      .returning();
    if (order === undefined) throw new Error('order not stored');
    await tx.insert(orderItems).values(
      cart.quote.items.map((item, index) => ({
        tenantId: auth.tenantId,
        orderId: order.id,
        line: index + 1,
        packageId: item.packageId,
        productId: cart.offers[index]?.code ?? '',
        name: item.name,
        category: item.category,
        unitMinor: item.unitMinor,
        quantity: item.quantity,
        discountMinor: item.discountMinor,
        amountMinor: item.amountMinor,
      })),
    );
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'ORDER_CREATED',
      targetType: 'order',
      targetId: order.id,
      details: { code, patientId: cart.patientId, totalMinor: order.totalMinor, currency: order.currency, coupon: order.couponCode, type: order.type },
      at: now,
    });
    if (free) await fulfilOrder(tx, auth.tenantId, order, now);
    return { order, free, description: packageName };
  });
  if (created.free) return { order: await readOwnOrder(environment, code), redirectUrl: null };
  try {
    const started = await startPayment(environment, auth.tenantId, {
      orderId: code,
      amountMinor: created.order.totalMinor,
      currency: created.order.currency,
      description: created.description,
      returnUrl: `${environment.endpoints.publicUrl}/app/payment/result`,
      ipAddress: request.ipAddress,
      locale: request.locale,
      createdBy: auth.userId,
    });
    return { order: await readOwnOrder(environment, code), redirectUrl: started.redirectUrl };
  } catch (error) {
    await environment.database.withTenant(auth.tenantId, async (tx) => {
      const failedAt = environment.clock.now();
      await tx.update(orders).set({ status: 'FAILED', result: 'error', completedAt: failedAt, updatedAt: failedAt }).where(eq(orders.id, created.order.id));
      await releaseCoupon(tx, created.order, failedAt);
    });
    throw error;
  }
}

/** The caller's order as the app shows it (read through the caller's own rights). */
export function readOwnOrder(environment: OrderEnvironment, code: string) {
  return withCaller(environment.database, environment.auth, async (tx) => (await readOrder(tx, { code })).order);
}
