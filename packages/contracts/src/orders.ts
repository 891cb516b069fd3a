import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { CURRENCIES, CURRENCY_DECIMALS, type Currency } from './packages.js';
import { PAYMENT_METHODS, PAYMENT_RESULTS } from './payments.js';

/**
 * Orders and transactions (spec §1 "transactions and exports"; §2 checkout, payment result,
 * transaction control and order history with export (CDR and Excel); §3 "Transaction or order";
 * §4 "web statuses 0 failed, 1 pending, 2 success, 3 refund; other statuses include timeout"; §5
 * "Excel export needs at least one attribute, a payment method and a date").
 *
 * Money is an integer amount of the currency's minor unit with its currency, never a float: every
 * figure of an order (items, discount, tax, total) is computed here once, by `priceCart`, and
 * stored as computed.
 */

/**
 * An order's state. TIMEOUT: the payer did not finish within ORDER_PAYMENT_WAIT_MINUTES; it is not
 * final, because a provider that took the money late still says so and the order is then paid.
 */
export const ORDER_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'REFUNDED', 'TIMEOUT'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The web status number of each state (spec §4): a timed-out order is not paid (0). */
export const WEB_STATUS: Record<OrderStatus, 0 | 1 | 2 | 3> = { FAILED: 0, PENDING: 1, SUCCESS: 2, REFUNDED: 3, TIMEOUT: 0 };

/** How long a payer has to pay before the order times out (VNPay's payment page lasts 15 minutes). */
export const ORDER_PAYMENT_WAIT_MINUTES = 15;
/** How long after its creation a timed-out order is still asked about (a late payment still counts). */
export const ORDER_RECONCILE_HOURS = 24;

/** Spec §3 types: an order paid through a provider, or one a coupon paid in full. */
export const ORDER_TYPES = ['SERVICE_PACKAGE', 'COUPON'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** Where the order was placed (purchase channel) and through whom it was sold (retail channel). */
export const PURCHASE_CHANNELS = ['APP', 'WEB'] as const;
export type PurchaseChannel = (typeof PURCHASE_CHANNELS)[number];
export const RETAIL_CHANNELS = ['DIRECT', 'PARTNER'] as const;
export type RetailChannel = (typeof RETAIL_CHANNELS)[number];

/** An item's category: a service package or an add-on service. */
export const ORDER_ITEM_CATEGORIES = ['PACKAGE', 'ADDON'] as const;

/** After a paid order: its packages started (DONE), or not (FAILED: a refund is due), or not yet. */
export const FULFILMENT_STATES = ['PENDING', 'DONE', 'FAILED'] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

/** At most this many items in one order (one package and add-ons). */
export const ORDER_MAX_ITEMS = 5;

// Coupons ------------------------------------------------------------------------------------------

/** PERCENT: value in basis points (1000 = 10 %); AMOUNT: value in minor units of the coupon's currency. */
export const COUPON_KINDS = ['PERCENT', 'AMOUNT'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];
export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

const couponCodeField = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(COUPON_CODE_PATTERN, { error: 'capital letters, digits, - and _ only (3 to 32)' }));

export const couponInputSchema = z
  .object({
    code: couponCodeField,
    kind: z.enum(COUPON_KINDS),
    value: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    currency: z.enum(CURRENCIES).nullable().default(null),
    validFrom: z.iso.datetime({ offset: true }),
    validTo: z.iso.datetime({ offset: true }),
    /** -1: unlimited. */
    maxUses: z.number().int().min(-1).max(1_000_000),
    enabled: z.boolean().default(true),
  })
  .superRefine((value, context) => {
    if (value.kind === 'PERCENT' && value.value > 10_000) context.addIssue({ code: 'custom', path: ['value'], message: 'at most 100 % (10000 basis points)' });
    if (value.kind === 'AMOUNT' && value.currency === null) context.addIssue({ code: 'custom', path: ['currency'], message: 'an amount coupon needs its currency' });
    if (Date.parse(value.validTo) <= Date.parse(value.validFrom)) context.addIssue({ code: 'custom', path: ['validTo'], message: 'the end must be after the start' });
    if (value.maxUses === 0) context.addIssue({ code: 'custom', path: ['maxUses'], message: 'at least one use, or -1 for unlimited' });
  });
export type CouponInput = z.input<typeof couponInputSchema>;

export const couponSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  value: z.number().int(),
  currency: z.enum(CURRENCIES).nullable(),
  validFrom: z.string(),
  validTo: z.string(),
  maxUses: z.number().int(),
  usedCount: z.number().int(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type Coupon = z.infer<typeof couponSchema>;

export const couponListQuerySchema = pageQuerySchema.extend({ search: z.string().trim().max(100).optional() });
export const couponStateSchema = z.object({ enabled: z.boolean() });

// Pricing ------------------------------------------------------------------------------------------

export interface CartLine {
  unitMinor: number;
  quantity: number;
}

export interface CartCoupon {
  kind: CouponKind;
  value: number;
}

export interface PricedLine {
  /** unitMinor × quantity. */
  grossMinor: number;
  /** This line's share of the coupon. */
  discountMinor: number;
  /** grossMinor − discountMinor. */
  amountMinor: number;
}

export interface PricedCart {
  lines: PricedLine[];
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  totalMinor: number;
}

/** round(numerator / denominator), halves away from zero, on non-negative integers. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/**
 * The one price computation of an order, in integer minor units (products in BigInt, so exact at
 * any size a safe integer holds):
 * - subtotal: the lines' unit × quantity;
 * - discount: a PERCENT coupon's share of the subtotal rounded to the minor unit, an AMOUNT coupon's
 *   value; never more than the subtotal;
 * - the discount is split over the lines in proportion to their amounts, remainders to the largest
 *   fractions (so the lines' discounts add up to it exactly);
 * - tax: the tenant's rate (basis points) on what is left, rounded to the minor unit;
 * - total: subtotal − discount + tax.
 */
export function priceCart(lines: readonly CartLine[], coupon: CartCoupon | null, taxBasisPoints: number): PricedCart {
  const gross = lines.map((line) => BigInt(line.unitMinor) * BigInt(line.quantity));
  const subtotal = gross.reduce((sum, value) => sum + value, 0n);
  let discount = 0n;
  if (coupon !== null) discount = coupon.kind === 'PERCENT' ? divideRounded(subtotal * BigInt(coupon.value), 10_000n) : BigInt(coupon.value);
  if (discount > subtotal) discount = subtotal;
  const shares = gross.map((value) => (subtotal === 0n ? 0n : (value * discount) / subtotal));
  let left = discount - shares.reduce((sum, value) => sum + value, 0n);
  const byFraction = gross
    .map((value, index) => ({ index, fraction: subtotal === 0n ? 0n : (value * discount) % subtotal }))
    .sort((a, b) => (a.fraction === b.fraction ? a.index - b.index : a.fraction > b.fraction ? -1 : 1));
  for (const { index } of byFraction) {
    if (left === 0n) break;
    const share = shares[index] ?? 0n;
    if (share < (gross[index] ?? 0n)) {
      shares[index] = share + 1n;
      left -= 1n;
    }
  }
  const taxable = subtotal - discount;
  const tax = divideRounded(taxable * BigInt(taxBasisPoints), 10_000n);
  return {
    lines: gross.map((value, index) => {
      const share = shares[index] ?? 0n;
      return { grossMinor: Number(value), discountMinor: Number(share), amountMinor: Number(value - share) };
    }),
    subtotalMinor: Number(subtotal),
    discountMinor: Number(discount),
    taxMinor: Number(tax),
    totalMinor: Number(taxable + tax),
  };
}

/** Minor units of a currency as a decimal string for files (84000 VND → "84000", 999 USD → "9.99"). */
export function minorToDecimal(amountMinor: number, currency: Currency): string {
  const decimals = CURRENCY_DECIMALS[currency];
  if (decimals === 0) return String(amountMinor);
  const sign = amountMinor < 0 ? '-' : '';
  const digits = String(Math.abs(amountMinor)).padStart(decimals + 1, '0');
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

// Checkout -----------------------------------------------------------------------------------------

export const checkoutSchema = z.object({
  packageIds: z.array(z.uuid()).min(1).max(ORDER_MAX_ITEMS),
  couponCode: z
    .string()
    .trim()
    .max(32)
    .transform((value) => (value === '' ? undefined : value.toUpperCase()))
    .optional(),
});
export type CheckoutInput = z.input<typeof checkoutSchema>;

/** What the app shows before paying: the same figures the order will hold. */
export const quoteSchema = z.object({
  currency: z.enum(CURRENCIES),
  items: z.array(z.object({ packageId: z.uuid(), name: z.string(), category: z.enum(ORDER_ITEM_CATEGORIES), unitMinor: z.number().int(), quantity: z.number().int(), discountMinor: z.number().int(), amountMinor: z.number().int() })),
  couponCode: z.string().nullable(),
  subtotalMinor: z.number().int(),
  discountMinor: z.number().int(),
  taxRate: z.number().int(),
  taxMinor: z.number().int(),
  totalMinor: z.number().int(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const orderItemSchema = z.object({
  line: z.number().int(),
  packageId: z.uuid().nullable(),
  productId: z.string(),
  name: z.string(),
  category: z.enum(ORDER_ITEM_CATEGORIES),
  unitMinor: z.number().int(),
  quantity: z.number().int(),
  discountMinor: z.number().int(),
  amountMinor: z.number().int(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const orderSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  patientId: z.uuid(),
  customerName: z.string(),
  customerPhone: z.string(),
  packageName: z.string(),
  type: z.enum(ORDER_TYPES),
  status: z.enum(ORDER_STATUSES),
  webStatus: z.number().int().min(0).max(3),
  currency: z.enum(CURRENCIES),
  subtotalMinor: z.number().int(),
  discountMinor: z.number().int(),
  taxRate: z.number().int(),
  taxMinor: z.number().int(),
  totalMinor: z.number().int(),
  couponCode: z.string().nullable(),
  method: z.enum(PAYMENT_METHODS).nullable(),
  purchaseChannel: z.enum(PURCHASE_CHANNELS),
  retailChannel: z.enum(RETAIL_CHANNELS),
  /** The provider's reference of the payment (spec: reference id). */
  referenceId: z.string().nullable(),
  /** Spec §8 provider result; the response message is its translation. */
  result: z.enum(PAYMENT_RESULTS).nullable(),
  fulfilment: z.enum(FULFILMENT_STATES),
  fulfilmentError: z.string().nullable(),
  refundedMinor: z.number().int(),
  refundReason: z.string().nullable(),
  refundedAt: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  items: z.array(orderItemSchema),
});
export type Order = z.infer<typeof orderSchema>;

export const checkoutResultSchema = z.object({ order: orderSchema, redirectUrl: z.string().nullable() });
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

// Transaction control and order history --------------------------------------------------------------

export const ORDER_SORT_FIELDS = ['created', 'total', 'status', 'code'] as const;

export const orderListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  type: z.enum(ORDER_TYPES).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  sortField: z.enum(ORDER_SORT_FIELDS).default('created'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const refundSchema = z.object({ reason: z.string().trim().min(1).max(500) });

/** Columns an order-history export may hold (spec §5: at least one). */
export const ORDER_EXPORT_ATTRIBUTES = [
  'code',
  'createdAt',
  'customerName',
  'customerPhone',
  'packageName',
  'items',
  'type',
  'status',
  'webStatus',
  'currency',
  'subtotal',
  'discount',
  'tax',
  'total',
  'coupon',
  'method',
  'referenceId',
  'responseMessage',
  'purchaseChannel',
  'retailChannel',
  'completedAt',
  'refunded',
] as const;
export type OrderExportAttribute = (typeof ORDER_EXPORT_ATTRIBUTES)[number];

/** Spec §5: "Excel export needs at least one attribute, a payment method and a date". */
export const orderExportSchema = z
  .object({
    attributes: z.array(z.enum(ORDER_EXPORT_ATTRIBUTES)).min(1, { error: 'choose at least one attribute' }),
    methods: z.array(z.enum(PAYMENT_METHODS)).min(1, { error: 'choose a payment method' }),
    from: z.iso.date({ error: 'choose a date' }),
    to: z.iso.date({ error: 'choose a date' }),
    status: z.enum(ORDER_STATUSES).optional(),
  })
  .superRefine((value, context) => {
    if (value.to < value.from) context.addIssue({ code: 'custom', path: ['to'], message: 'the end must be after the start' });
  });
export type OrderExportInput = z.input<typeof orderExportSchema>;

/** A CDR file: the day's orders as the providers settled them, written by the daily job. */
export const cdrFileSchema = z.object({
  id: z.uuid(),
  day: z.string(),
  fileName: z.string(),
  rows: z.number().int(),
  createdAt: z.string(),
});
export type CdrFile = z.infer<typeof cdrFileSchema>;
