import {
  CURRENCY_DECIMALS,
  packageInputSchema,
  UNLIMITED,
  type Currency,
  type PackageFeature,
  type PackageInput,
  type PackageKind,
  type PackageLevel,
  type PackagePlan,
  type ServicePackage,
} from '@rpm/contracts';
import type { z } from 'zod';
import { messageForIssue, type FieldMessages } from '../../lib/form-errors';

/** A number the form may mark unlimited (-1 in the payload). */
export interface LimitValue {
  value: string;
  isUnlimited: boolean;
}

export interface PackageFormValues {
  code: string;
  kind: PackageKind;
  name: string;
  level: PackageLevel | null;
  plan: PackagePlan | null;
  /** In the currency's major unit, as typed ("9.99", "14000"). */
  price: string;
  currency: Currency;
  durationMonths: LimitValue;
  useLimit: LimitValue;
  storageCount: LimitValue;
  followerLimit: LimitValue;
  subUserLimit: LimitValue;
  userFeatures: PackageFeature[];
  relativeFeatures: PackageFeature[];
  icon: string;
  description: string;
}

export const LIMIT_FIELDS = ['durationMonths', 'useLimit', 'storageCount', 'followerLimit', 'subUserLimit'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

const unlimited = (): LimitValue => ({ value: '', isUnlimited: true });
function limitOf(value: number): LimitValue {
  return value === UNLIMITED ? { value: '', isUnlimited: true } : { value: String(value), isUnlimited: false };
}

export function emptyPackageValues(): PackageFormValues {
  return {
    code: '',
    kind: 'PACKAGE',
    name: '',
    level: null,
    plan: null,
    price: '',
    currency: 'VND',
    durationMonths: { value: '12', isUnlimited: false },
    useLimit: unlimited(),
    storageCount: unlimited(),
    followerLimit: unlimited(),
    subUserLimit: unlimited(),
    userFeatures: [],
    relativeFeatures: [],
    icon: '',
    description: '',
  };
}

/** The minor units in the major-unit text of a price ("9.99" USD: 999), or null when it is not one. */
export function toMinorUnits(text: string, currency: Currency): number | null {
  const decimals = CURRENCY_DECIMALS[currency];
  const match = /^(\d{1,13})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  const whole = Number(match[1]);
  const minor = Number(fraction.padEnd(decimals, '0') || '0');
  return Math.round(whole * 10 ** decimals + minor);
}

/** A price in minor units written in the major unit for the form ("999" USD: "9.99"). */
export function fromMinorUnits(priceMinor: number, currency: Currency): string {
  const decimals = CURRENCY_DECIMALS[currency];
  if (decimals === 0) return String(priceMinor);
  const text = String(priceMinor).padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

export function valuesOfPackage(item: ServicePackage): PackageFormValues {
  return {
    code: item.code,
    kind: item.kind,
    name: item.name,
    level: item.level,
    plan: item.plan,
    price: fromMinorUnits(item.priceMinor, item.currency),
    currency: item.currency,
    durationMonths: limitOf(item.durationMonths),
    useLimit: limitOf(item.useLimit),
    storageCount: limitOf(item.storageCount),
    followerLimit: limitOf(item.followerLimit),
    subUserLimit: limitOf(item.subUserLimit),
    userFeatures: [...item.userFeatures],
    relativeFeatures: [...item.relativeFeatures],
    icon: item.icon,
    description: item.description,
  };
}

function numberOfLimit(limit: LimitValue): number {
  if (limit.isUnlimited) return UNLIMITED;
  const text = limit.value.trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
}

const PROBLEM = 'packages:form.problems';

/** "Enter a price … with at most 2 decimals"; a whole price in a currency without decimals. */
function priceMessage(currency: Currency) {
  const decimals = CURRENCY_DECIMALS[currency];
  return decimals === 0 ? { key: `${PROBLEM}.priceWhole` } : { key: `${PROBLEM}.price`, values: { decimals: String(decimals) } };
}

/** The message for a contract rule broken by the form's values, in the console's words. */
function messageFor(issue: z.core.$ZodIssue, values: PackageFormValues) {
  const field = String(issue.path[0] ?? '');
  if (field === 'code' && issue.code === 'invalid_format') return { key: `${PROBLEM}.code` };
  if (field === 'durationMonths') return { key: `${PROBLEM}.duration` };
  if ((LIMIT_FIELDS as readonly string[]).includes(field)) return { key: `${PROBLEM}.limit` };
  if (field === 'level' && issue.code === 'custom') return { key: `${PROBLEM}.addonLevel` };
  if (field === 'plan' && issue.code === 'custom') return { key: `${PROBLEM}.zeroPlan` };
  if (field === 'userFeatures' && issue.code === 'custom') return { key: `${PROBLEM}.features` };
  if (field === 'priceMinor') return priceMessage(values.currency);
  return messageForIssue(issue);
}

/**
 * The payload for the API, checked with its own schema: the price in integer minor units of the
 * currency, unlimited numbers as -1. Either the input or the messages by form field.
 */
export function packageInputOf(
  values: PackageFormValues,
): { input: PackageInput; messages?: never } | { input?: never; messages: FieldMessages } {
  const priceMinor = toMinorUnits(values.price, values.currency);
  const isAddon = values.kind === 'ADDON';
  const parsed = packageInputSchema.safeParse({
    code: values.code,
    kind: values.kind,
    name: values.name,
    level: isAddon ? null : values.level,
    plan: isAddon ? null : values.plan,
    priceMinor: priceMinor ?? Number.NaN,
    currency: values.currency,
    durationMonths: numberOfLimit(values.durationMonths),
    useLimit: numberOfLimit(values.useLimit),
    storageCount: numberOfLimit(values.storageCount),
    followerLimit: numberOfLimit(values.followerLimit),
    subUserLimit: numberOfLimit(values.subUserLimit),
    userFeatures: values.userFeatures,
    relativeFeatures: values.relativeFeatures,
    icon: values.icon,
    description: values.description,
  });
  const messages: FieldMessages = {};
  if (priceMinor === null) {
    messages.price = priceMessage(values.currency);
  }
  // The schema's cross-field rules only run once every field is valid: say it at once here.
  const isPaid = values.price.trim() !== '' && priceMinor !== 0;
  if (isPaid && values.userFeatures.length + values.relativeFeatures.length === 0) {
    messages.userFeatures = { key: `${PROBLEM}.features` };
  }
  if (parsed.success && Object.keys(messages).length === 0) return { input: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const path = String(issue.path[0] ?? '');
    const field = path === 'priceMinor' ? 'price' : path;
    messages[field] ??= messageFor(issue, values);
  }
  return { messages };
}
