import { couponInputSchema, type Coupon, type CouponInput } from '@rpm/contracts';
import { asc, count, eq, ilike } from 'drizzle-orm';
import type { z } from 'zod';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import { coupons, type CouponRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import type { OrderEnvironment } from './checkout.js';
import { containsPattern } from '../../lib/like.js';

/** Discount codes (spec §3 Transaction "coupon"): staff create them, the checkout applies them. */
export function toCoupon(row: CouponRow): Coupon {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    currency: row.currency,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo.toISOString(),
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}


/** GET /account/coupons. */
export function listCoupons(environment: OrderEnvironment, query: { page: number; size: number; search?: string | undefined }) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const where = query.search === undefined || query.search === '' ? undefined : ilike(coupons.code, containsPattern(query.search.toUpperCase()));
    const rows = await tx.select().from(coupons).where(where).orderBy(asc(coupons.code)).limit(query.size).offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(coupons).where(where);
    return { items: rows.map(toCoupon), page: query.page, size: query.size, total: total?.total ?? 0 };
  });
}

/** POST /account/coupons: a new code (unique per tenant: coupon.codeExists). Audited. */
export function createCoupon(environment: OrderEnvironment, input: z.output<typeof couponInputSchema> | CouponInput): Promise<Coupon> {
  const value = couponInputSchema.parse(input);
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    const [existing] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, value.code)).limit(1);
    if (existing !== undefined) throw new AppError('coupon.codeExists');
    const [row] = await tx
      .insert(coupons)
      .values({
        tenantId: auth.tenantId,
        id: uuidv7(),
        code: value.code,
        kind: value.kind,
        value: value.value,
        currency: value.kind === 'AMOUNT' ? value.currency : null,
        validFrom: new Date(value.validFrom),
        validTo: new Date(value.validTo),
        maxUses: value.maxUses,
        enabled: value.enabled,
        createdBy: auth.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (row === undefined) throw new Error('coupon not stored');
    await recordAudit(tx, auth.tenantId, environment.audit, { action: 'COUPON_CREATED', targetType: 'coupon', targetId: row.id, details: { code: row.code, kind: row.kind, value: row.value }, at: now });
    return toCoupon(row);
  });
}

/** PUT /account/coupons/:id/state: enabled or disabled (orders holding it keep it). Audited. */
export function setCouponEnabled(environment: OrderEnvironment, id: string, enabled: boolean): Promise<Coupon> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    const [row] = await tx.update(coupons).set({ enabled, updatedAt: now }).where(eq(coupons.id, id)).returning();
    if (row === undefined) throw new AppError('coupon.notFound');
    await recordAudit(tx, auth.tenantId, environment.audit, { action: enabled ? 'COUPON_ENABLED' : 'COUPON_DISABLED', targetType: 'coupon', targetId: id, details: { code: row.code }, at: now });
    return toCoupon(row);
  });
}
