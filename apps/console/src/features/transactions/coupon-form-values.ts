import {
  COUPON_CODE_PATTERN,
  couponInputSchema,
  CURRENCY_DECIMALS,
  UNLIMITED,
  type Coupon,
  type CouponInput,
  type CouponKind,
  type Currency,
} from '@rpm/contracts';
import { messagesForIssues, type FieldMessage, type FieldMessages } from '../../lib/form-errors';
import { parseDisplayDate } from '../../lib/format';
import { zonedDayStart } from '../appointments/appointment-time';
import { toMinorUnits } from '../packages/package-form-values';
import { addDays, zonedPlace } from '../schedules/calendar-days';

/**
 * The coupon form (spec §3 Transaction "coupon"): what people type, and the API's integers it
 * becomes. A percentage is typed as a percentage ("12.5") and sent in basis points (1250); an
 * amount in the currency's major unit ("9.99" USD) and sent in minor units (999). The validity is
 * whole days in the user's time zone: from the start of the first day to the end of the last one.
 */
export interface CouponFormValues {
  code: string;
  kind: CouponKind;
  /** A percentage as typed ("15", "12.5"). */
  percent: string;
  /** An amount in the currency's major unit, as typed. */
  amount: string;
  currency: Currency;
  /** Days as typed (dd/MM/yyyy). */
  validFrom: string;
  validTo: string;
  maxUses: string;
  isUnlimited: boolean;
}

export function emptyCouponValues(): CouponFormValues {
  return {
    code: '',
    kind: 'PERCENT',
    percent: '',
    amount: '',
    currency: 'VND',
    validFrom: '',
    validTo: '',
    maxUses: '',
    isUnlimited: true,
  };
}

const BASIS_POINTS_PER_PERCENT = 100;

/** "12.5" % -> 1250 basis points; at most 2 decimals ("," as the separator too); null otherwise. */
export function percentToBasisPoints(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * BASIS_POINTS_PER_PERCENT + fraction;
}

/** 1250 basis points -> "12.5" (no trailing zeros). */
export function basisPointsToPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / BASIS_POINTS_PER_PERCENT);
  const fraction = String(basisPoints % BASIS_POINTS_PER_PERCENT)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${String(whole)}.${fraction}`;
}

const PROBLEM = 'payments:transactions.coupons.form.problems';
const MAX_USES = 1_000_000;

function amountMessage(currency: Currency): FieldMessage {
  const decimals = CURRENCY_DECIMALS[currency];
  return decimals === 0
    ? { key: `${PROBLEM}.amountWhole` }
    : { key: `${PROBLEM}.amount`, values: { decimals } };
}

function dayOf(text: string): { day: string } | { message: FieldMessage } {
  if (text.trim() === '') return { message: { key: `${PROBLEM}.date` } };
  const day = parseDisplayDate(text);
  return day === null ? { message: { key: `${PROBLEM}.dateInvalid` } } : { day };
}

/** The value the API takes: basis points or minor units, null when the text is not one. */
function valueOf(values: CouponFormValues): number | null {
  if (values.kind === 'PERCENT') {
    const basisPoints = percentToBasisPoints(values.percent);
    return basisPoints !== null && basisPoints > 0 && basisPoints <= 100 * BASIS_POINTS_PER_PERCENT
      ? basisPoints
      : null;
  }
  const minor = toMinorUnits(values.amount, values.currency);
  return minor !== null && minor > 0 ? minor : null;
}

/**
 * The payload for the API, checked first in the form's words and then with the contract's own
 * schema: either the input or the messages by form field.
 */
export function couponInputOf(
  values: CouponFormValues,
  timeZone: string,
): { input: CouponInput; messages?: never } | { input?: never; messages: FieldMessages } {
  const messages: FieldMessages = {};
  const code = values.code.trim().toUpperCase();
  if (!COUPON_CODE_PATTERN.test(code)) messages.code = { key: `${PROBLEM}.code` };
  const value = valueOf(values);
  if (value === null)
    messages[values.kind === 'PERCENT' ? 'percent' : 'amount'] =
      values.kind === 'PERCENT' ? { key: `${PROBLEM}.percent` } : amountMessage(values.currency);
  const from = dayOf(values.validFrom);
  const to = dayOf(values.validTo);
  if ('message' in from) messages.validFrom = from.message;
  if ('message' in to) messages.validTo = to.message;
  if ('day' in from && 'day' in to && to.day < from.day) messages.validTo = { key: `${PROBLEM}.order` };
  const maxUsesText = values.maxUses.trim();
  const maxUses = values.isUnlimited
    ? UNLIMITED
    : /^\d{1,7}$/.test(maxUsesText)
      ? Number(maxUsesText)
      : Number.NaN;
  if (!values.isUnlimited && !(maxUses >= 1 && maxUses <= MAX_USES))
    messages.maxUses = { key: `${PROBLEM}.maxUses` };
  if (Object.keys(messages).length > 0 || value === null || !('day' in from) || !('day' in to))
    return { messages };
  const parsed = couponInputSchema.safeParse({
    code,
    kind: values.kind,
    value,
    currency: values.kind === 'AMOUNT' ? values.currency : null,
    validFrom: zonedDayStart(from.day, timeZone),
    validTo: zonedDayStart(addDays(to.day, 1), timeZone),
    maxUses,
    enabled: true,
  });
  if (!parsed.success) return { messages: messagesForIssues(parsed.error.issues) };
  return { input: parsed.data };
}

/** The whole days (yyyy-MM-dd) a coupon is valid in a time zone: its first day and its last. */
export function couponDays(
  coupon: Pick<Coupon, 'validFrom' | 'validTo'>,
  timeZone: string,
): { first: string; last: string } {
  return {
    first: zonedPlace(coupon.validFrom, timeZone).day,
    // validTo is the first instant it no longer works: the last day holds the instant before it.
    last: zonedPlace(new Date(Date.parse(coupon.validTo) - 1), timeZone).day,
  };
}
