import { z } from 'zod';

/**
 * Human-readable names (people, tenants, centers, scopes, roles, devices, contacts, file names)
 * are shown to other people, so they must read as what they are. A bidi control can make
 * "e\u202Egnp.exe" show as "eexe.png", and a name of zero-width characters shows as nothing; both
 * are refused. Everything else is stored in one form (NFC), so "e\u0301" and "é" are one name for
 * uniqueness checks and searches.
 */

/** The Unicode bidi controls: embeddings, overrides, isolates and the direction marks. */
export const BIDI_CONTROL_PATTERN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

/** Format characters (general category Cf, which includes every bidi control) and control characters. */
const HIDDEN_CHARACTER_PATTERN = /[\p{Cf}\p{Cc}]/u;

/** White space, separators, format and control characters: nothing on screen. */
const SHOWS_NOTHING_PATTERN = /^[\s\p{Z}\p{Cf}\p{Cc}]$/u;

/**
 * Default-ignorable letters and marks that render blank too (code point ranges): the combining
 * grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and other variation
 * selectors, the blank Braille pattern.
 */
const BLANK_RANGES: readonly (readonly [number, number])[] = [
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];

function isInvisibleCharacter(character: string): boolean {
  if (SHOWS_NOTHING_PATTERN.test(character)) return true;
  const codePoint = character.codePointAt(0) ?? 0;
  return BLANK_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** Why a text is refused; the field error's code. */
export type TextProblem = 'invisibleCharacters' | 'blank';

/**
 * The contracts' English messages for each problem (also the OpenAPI text). The server turns them
 * into the field error code and the catalogue message `validation.<code>`; the console into its own
 * message. Matching on the text is safe: all three live in this repository.
 */
export const TEXT_PROBLEM_MESSAGES = {
  invisibleCharacters: 'must not contain invisible or text-direction characters',
  blank: 'must contain visible characters',
} as const satisfies Record<TextProblem, string>;

/** The problem of one contract message, if the message is one of TEXT_PROBLEM_MESSAGES. */
export function textProblemOfMessage(message: string): TextProblem | undefined {
  for (const [problem, text] of Object.entries(TEXT_PROBLEM_MESSAGES)) if (text === message) return problem as TextProblem;
  return undefined;
}

export const toNfc = (value: string): string => value.normalize('NFC');

export function hasHiddenCharacters(value: string): boolean {
  return HIDDEN_CHARACTER_PATTERN.test(value);
}

/** Not empty, yet nothing would show: only spaces and invisible characters. */
export function isInvisibleOnly(value: string): boolean {
  if (value === '') return false;
  for (const character of value) if (!isInvisibleCharacter(character)) return false;
  return true;
}

/**
 * What is wrong with a name as given, or null. Format, bidi and control characters come first
 * (they are refused wherever they are); then a value that is all invisible. An empty value is no
 * problem here: whether a name is required is the field's own rule.
 */
export function textProblem(value: string): TextProblem | null {
  if (hasHiddenCharacters(value)) return 'invisibleCharacters';
  if (isInvisibleOnly(value)) return 'blank';
  return null;
}

/**
 * A single-line human-readable text: NFC, trimmed, without format, bidi or control characters,
 * and never made of invisible characters only (empty stays allowed: add `.min(1)` to require it).
 * A zod string, so `.min`, `.max`, `.regex` and `.describe` chain as usual.
 */
export const safeText = () =>
  z
    .string()
    .overwrite(toNfc)
    .trim()
    .refine((value) => !hasHiddenCharacters(value), { error: TEXT_PROBLEM_MESSAGES.invisibleCharacters })
    // One problem per value: a value with hidden characters is already refused for them.
    .refine((value) => hasHiddenCharacters(value) || !isInvisibleOnly(value), { error: TEXT_PROBLEM_MESSAGES.blank });

/** A required name of at most `max` characters (after NFC and trimming). */
export const safeName = (max: number) => safeText().min(1).max(max);

/**
 * A multi-line text (a note, instructions): as `safeText`, except that line breaks and tabs are
 * kept. Empty stays allowed.
 */
export const safeNote = (max: number) =>
  z
    .string()
    .overwrite(toNfc)
    .trim()
    .max(max)
    .refine((value) => !hasHiddenCharacters(value.replace(/[\n\r\t]/g, ' ')), {
      error: TEXT_PROBLEM_MESSAGES.invisibleCharacters,
    });
