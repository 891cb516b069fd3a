import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { safeName, safeNote } from './text.js';

/**
 * Service packages, add-on services and subscriptions (spec §1, §3 Package, Add-on service,
 * Subscription, §4, §5 packages rules, §6 paid features, §9 prices).
 *
 * Money is an integer count of the currency's minor unit (VND has none, USD and CAD cents), never a
 * float; -1 means unlimited for durations and limits.
 */
export const CURRENCIES = ['VND', 'USD', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** Digits after the decimal point of each currency (ISO 4217). */
export const CURRENCY_DECIMALS: Record<Currency, number> = { VND: 0, USD: 2, CAD: 2 };
export const UNLIMITED = -1;

export const PACKAGE_KINDS = ['PACKAGE', 'ADDON'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];
export const PACKAGE_LEVELS = ['STANDARD', 'SILVER', 'GOLD'] as const;
export type PackageLevel = (typeof PACKAGE_LEVELS)[number];
export const PACKAGE_PLANS = ['ZERO', '12MCARE', '24MCARE'] as const;
export type PackagePlan = (typeof PACKAGE_PLANS)[number];

/**
 * The features a package may give, to the patient ("user") or to its followers and sub-users
 * ("relative"). SOS, alerts and the patient's own vitals are never among them: they are never
 * behind a package (docs/decisions.md).
 */
export const PACKAGE_FEATURES = [
  /** Online appointments with a video call. */
  'VIDEO_CONSULTATION',
  /** Entering readings from a photo of a device's screen (OCR). */
  'PHOTO_ENTRY',
  /** Medical records with attached files. */
  'MEDICAL_RECORDS',
  /** Followers beyond the first of each type, and sub-users. */
  'FAMILY_SHARING',
  /** Care reminders and prescriptions in the app. */
  'CARE_PLAN',
  /** Exports of the patient's own data. */
  'DATA_EXPORT',
] as const;
export type PackageFeature = (typeof PACKAGE_FEATURES)[number];

/** Package IDs: letters, digits, - and _ (spec §5: no special characters in ids). */
export const PACKAGE_CODE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const limitSchema = z.number().int().min(UNLIMITED).max(1_000_000);

/** Writes a package or add-on (spec §5: unique id and name, numbers, at least one option). */
export const packageInputSchema = z
  .object({
    code: z.string().trim().regex(PACKAGE_CODE_PATTERN, { error: 'letters, digits, - and _ only (at most 32)' }),
    kind: z.enum(PACKAGE_KINDS),
    name: safeName(120),
    level: z.enum(PACKAGE_LEVELS).nullable().default(null),
    plan: z.enum(PACKAGE_PLANS).nullable().default(null),
    priceMinor: z.number().int().min(0).max(1_000_000_000_000),
    currency: z.enum(CURRENCIES),
    /** Months the package lasts; -1: unlimited. */
    durationMonths: z.number().int().refine((value) => value === UNLIMITED || (value >= 1 && value <= 120), {
      error: '1 to 120 months, or -1 for unlimited',
    }),
    /** Use times (add-ons) or turns (packages); -1: unlimited. */
    useLimit: limitSchema.default(UNLIMITED),
    /** Files the patient may keep; -1: unlimited. */
    storageCount: limitSchema.default(UNLIMITED),
    /** Followers of each type; -1: unlimited (the spec's own limit of 5 still applies). */
    followerLimit: limitSchema.default(UNLIMITED),
    subUserLimit: limitSchema.default(UNLIMITED),
    userFeatures: z.array(z.enum(PACKAGE_FEATURES)).max(PACKAGE_FEATURES.length).default([]),
    relativeFeatures: z.array(z.enum(PACKAGE_FEATURES)).max(PACKAGE_FEATURES.length).default([]),
    icon: z.string().trim().max(64).default(''),
    description: safeNote(2000).default(''),
  })
  .refine((value) => value.kind === 'PACKAGE' || (value.level === null && value.plan === null), {
    error: 'an add-on has no level or plan',
    path: ['level'],
  })
  .refine((value) => value.plan !== 'ZERO' || (value.kind === 'PACKAGE' && value.priceMinor === 0), {
    error: 'the ZERO plan is the free default package',
    path: ['plan'],
  })
  .refine((value) => value.priceMinor === 0 || value.userFeatures.length + value.relativeFeatures.length > 0, {
    error: 'choose at least one option',
    path: ['userFeatures'],
  });
export type PackageInput = z.infer<typeof packageInputSchema>;

export const servicePackageSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: z.enum(PACKAGE_KINDS),
  name: z.string(),
  level: z.enum(PACKAGE_LEVELS).nullable(),
  plan: z.enum(PACKAGE_PLANS).nullable(),
  priceMinor: z.number().int(),
  currency: z.enum(CURRENCIES),
  durationMonths: z.number().int(),
  useLimit: z.number().int(),
  storageCount: z.number().int(),
  followerLimit: z.number().int(),
  subUserLimit: z.number().int(),
  userFeatures: z.array(z.enum(PACKAGE_FEATURES)),
  relativeFeatures: z.array(z.enum(PACKAGE_FEATURES)),
  icon: z.string(),
  description: z.string(),
  isDefault: z.boolean(),
  enabled: z.boolean(),
  /** Patients whose current subscription is this package (add-ons: current add-on subscriptions). */
  subscribers: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ServicePackage = z.infer<typeof servicePackageSchema>;

export const PACKAGE_SORT_FIELDS = ['name', 'code', 'price', 'created'] as const;
const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');
export const packageListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  kind: z.enum(PACKAGE_KINDS).optional(),
  enabled: booleanQuery.optional(),
  sortField: z.enum(PACKAGE_SORT_FIELDS).default('price'),
  sortType: z.enum(['asc', 'desc']).default('asc'),
});
export type PackageListQuery = z.infer<typeof packageListQuerySchema>;

export const packageStateSchema = z.object({ enabled: z.boolean() });

// Subscriptions -------------------------------------------------------------------------------------

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'ABOUT_TO_EXPIRE', 'EXPIRED', 'CANCELED', 'REPLACED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const CURRENT_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['ACTIVE', 'ABOUT_TO_EXPIRE'];
export const SUBSCRIPTION_SOURCES = ['ORDER', 'CODE', 'STAFF'] as const;
/** Days before the end when a subscription is about to expire (and the patient is told). */
export const ABOUT_TO_EXPIRE_DAYS = 7;

export const packageRefSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  level: z.enum(PACKAGE_LEVELS).nullable(),
  priceMinor: z.number().int(),
  currency: z.enum(CURRENCIES),
});

export const subscriptionSchema = z.object({
  id: z.uuid(),
  package: packageRefSchema,
  kind: z.enum(PACKAGE_KINDS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  source: z.enum(SUBSCRIPTION_SOURCES),
  startsAt: z.iso.datetime(),
  /** The expiry date; null: unlimited. */
  endsAt: z.iso.datetime().nullable(),
  nextExtendAt: z.iso.datetime().nullable(),
  /** null: unlimited. */
  remainingTurns: z.number().int().nullable(),
  receiptId: z.string().nullable(),
  endedAt: z.iso.datetime().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** What a patient may use now: its package (the default when none is current), add-ons and limits. */
export const entitlementsSchema = z.object({
  /** False when the tenant sells no packages: then nothing is limited by a package. */
  packagesEnabled: z.boolean(),
  package: packageRefSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
  addons: z.array(subscriptionSchema),
  features: z.array(z.enum(PACKAGE_FEATURES)),
  relativeFeatures: z.array(z.enum(PACKAGE_FEATURES)),
  /** -1: unlimited. */
  followerLimit: z.number().int(),
  subUserLimit: z.number().int(),
  storageCount: z.number().int(),
  /** Whether the patient has a bound wearable (paid packages need one: spec §6). */
  hasWearable: z.boolean(),
});
export type Entitlements = z.infer<typeof entitlementsSchema>;

/** A patient's package: what it may use now and the subscriptions it had, newest first. */
export const patientSubscriptionsSchema = z.object({
  entitlements: entitlementsSchema,
  history: z.array(subscriptionSchema),
});
export type PatientSubscriptionsView = z.infer<typeof patientSubscriptionsSchema>;

/** Staff (or the patient's own free choice) put a patient on a package. */
export const subscribeSchema = z.object({
  packageId: z.uuid(),
  receiptId: z.string().trim().max(64).optional(),
});
export type SubscribeInput = z.infer<typeof subscribeSchema>;

/** A price as people read it: "14.000 ₫", "$9.99", in the reader's language. */
export function formatMoney(priceMinor: number, currency: Currency, locale: string): string {
  const decimals = CURRENCY_DECIMALS[currency];
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(priceMinor / 10 ** decimals);
}

/** Adds the tenant's tax (basis points, 1000 = 10%) to a price, rounding half up to the minor unit. */
export function withTax(priceMinor: number, taxBasisPoints: number): { taxMinor: number; totalMinor: number } {
  const taxMinor = Math.floor((priceMinor * taxBasisPoints + 5_000) / 10_000);
  return { taxMinor, totalMinor: priceMinor + taxMinor };
}

// Activation-code packages ------------------------------------------------------------------------

export const CODE_PACKAGE_TYPES = ['PACKAGE', 'ADDON'] as const;
export const CODE_STATES = ['NOT_PAID', 'PAID', 'USED', 'LOCKED'] as const;
export type CodeState = (typeof CODE_STATES)[number];
/** The secret's alphabet: no 0/O, 1/I/L, 2/Z, 5/S, 8/B look-alikes. */
export const CODE_ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';
export const CODE_LENGTH = 12;
/** Wrong codes an account may enter in a day before it must wait (spec §8 wrong-code messages). */
export const CODE_ATTEMPTS_PER_DAY = 5;
export const CODE_PACKAGE_MAX_CODES = 10_000;

const isoDate = z.iso.date();
/** Spec §5: every field of a code package is required; the end date after the start date. */
export const codePackageInputSchema = z
  .object({
    name: safeName(120),
    type: z.enum(CODE_PACKAGE_TYPES),
    prefix: z.string().trim().toUpperCase().regex(/^[A-Z0-9]{2,8}$/, { error: '2 to 8 letters or digits' }),
    totalCodes: z.number().int().min(1).max(CODE_PACKAGE_MAX_CODES),
    availableFrom: isoDate,
    expiresOn: isoDate,
    purpose: safeName(500),
    benefit: safeName(500),
    packageId: z.uuid(),
    recipientOrganization: safeName(200),
  })
  .refine((value) => value.expiresOn > value.availableFrom, { error: 'the end date must be after the start date', path: ['expiresOn'] });
export type CodePackageInput = z.infer<typeof codePackageInputSchema>;

export const codePackageSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.enum(CODE_PACKAGE_TYPES),
  prefix: z.string(),
  totalCodes: z.number().int(),
  availableFrom: z.iso.date(),
  expiresOn: z.iso.date(),
  purpose: z.string(),
  benefit: z.string(),
  package: packageRefSchema,
  recipientOrganization: z.string(),
  counts: z.object({ NOT_PAID: z.number().int(), PAID: z.number().int(), USED: z.number().int(), LOCKED: z.number().int() }),
  createdAt: z.iso.datetime(),
});
export type CodePackage = z.infer<typeof codePackageSchema>;

export const codePackageListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  sortField: z.enum(['created', 'name', 'expires']).default('created'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type CodePackageListQuery = z.infer<typeof codePackageListQuerySchema>;

export const activationCodeSchema = z.object({
  id: z.uuid(),
  series: z.string(),
  state: z.enum(CODE_STATES),
  purchasedAt: z.iso.datetime().nullable(),
  activatedAt: z.iso.datetime().nullable(),
  /** The account that entered the code. */
  activatedBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
});
export type ActivationCode = z.infer<typeof activationCodeSchema>;

export const activationCodeListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(32).optional(),
  state: z.enum(CODE_STATES).optional(),
});
export type ActivationCodeListQuery = z.infer<typeof activationCodeListQuerySchema>;

/** Marks a batch's unpaid codes paid (the organisation paid), or locks / unlocks one code. */
export const codeStateChangeSchema = z.object({ action: z.enum(['markPaid', 'lock', 'unlock']) });

/** The patient app's scratch-card entry: the series printed on the card and the scratched code. */
export const redeemCodeSchema = z.object({
  series: z.string().trim().toUpperCase().max(32),
  code: z.string().trim().toUpperCase().max(32),
});
export type RedeemCode = z.infer<typeof redeemCodeSchema>;
