import {
  CODE_ALPHABET,
  CODE_LENGTH,
  CURRENT_SUBSCRIPTION_STATUSES,
  type PatientSubscriptionsView,
  type RedeemCode,
} from '@rpm/contracts';

/** The scratch-card form as typed. */
export interface RedeemValues {
  series: string;
  code: string;
}

/** Only the characters printed on cards (the alphabet has no look-alikes). */
const CARD_CHARACTERS = new RegExp(`^[${CODE_ALPHABET}]+$`);

/** What is wrong with a field, as a message key of appProfiles' redeem section. */
export type RedeemProblems = Partial<Record<keyof RedeemValues, 'seriesRequired' | 'codeRequired' | 'codeLength' | 'codeCharacters'>>;

/** Letters as capitals while typing ("hp00 0001" stays where the caret is, only upper-cased). */
export const typedUpper = (text: string) => text.toUpperCase();

/** What the server compares: spaces and dashes dropped, capitals ("acde-fghj kmnp": "ACDEFGHJKMNP"). */
export const normalised = (text: string) => text.replace(/[\s-]/g, '').toUpperCase();

/**
 * The call's body, or what to fix first. The code must be the card's 12 characters (spaces and
 * dashes do not count) from its alphabet: a slip caught here does not count as a wrong code
 * against the day's attempts. Whether the series and code match is the server's to say.
 */
export function redeemInputOf(values: RedeemValues): { input: RedeemCode; problems?: never } | { input?: never; problems: RedeemProblems } {
  const series = normalised(values.series);
  const code = normalised(values.code);
  const problems: RedeemProblems = {};
  if (series === '') problems.series = 'seriesRequired';
  if (code === '') problems.code = 'codeRequired';
  else if (code.length !== CODE_LENGTH) problems.code = 'codeLength';
  else if (!CARD_CHARACTERS.test(code)) problems.code = 'codeCharacters';
  if (Object.keys(problems).length > 0) return { problems };
  return { input: { series, code } };
}

/**
 * What an accepted code gave, from the answer: the current subscription the code started (its
 * receipt is the card's series; a package or an add-on), else the package it extended (the
 * profile's current one). Null when the answer shows neither.
 */
export function redeemedPackage(view: PatientSubscriptionsView, series: string): { name: string; endsAt: string | null } | null {
  const started = view.history.find(
    (item) => item.source === 'CODE' && item.receiptId === series && CURRENT_SUBSCRIPTION_STATUSES.includes(item.status),
  );
  const subscription = started ?? view.entitlements.subscription;
  return subscription === null ? null : { name: subscription.package.name, endsAt: subscription.endsAt };
}
