import type { CollectorBatch } from './health.js';

/**
 * The normalized text of a collector batch (contracts health.ts, POST /collector/readings): what
 * the server hashes to tell a retried delivery of a batch id from another content under the same
 * id. The stored hashes of earlier deliveries were made from this text, so it must stay byte for
 * byte the same (the property test in health.test.ts keeps the first writer as its oracle).
 */

/** Keys whose values are instants: normalized to UTC milliseconds ISO text. */
const INSTANT_KEYS = new Set(['measuredAt', 'startAt', 'endAt', 'at', 'from', 'to']);

/** An instant written as toISOString writes one: four-digit year, milliseconds, UTC. */
const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Two ASCII digits at `at` as a number. */
const twoDigits = (value: string, at: number) => (value.charCodeAt(at) - 48) * 10 + value.charCodeAt(at + 1) - 48;

/**
 * Whether a text of the canonical form names a time that needs no moving: month 1–12, day 1–28
 * (every month has them), hour 0–23, minute and second 0–59. Then it is its own toISOString text,
 * found without parsing the date.
 */
function isPlainCanonical(value: string): boolean {
  if (value.length !== 24 || !CANONICAL_INSTANT.test(value)) return false;
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 28 && twoDigits(value, 11) <= 23 && twoDigits(value, 14) <= 59 && twoDigits(value, 17) <= 59;
}

/**
 * The instant `value` names as toISOString writes it (undefined: it names none). Watches send that
 * form already, and then the text is its own answer, without writing the date again — unless the
 * parse moved the date: hour 24 is the next day's midnight and a day past the month's end rolls
 * into the next month, so those go the long way.
 */
function instantText(value: string): string | undefined {
  if (isPlainCanonical(value)) return value;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  const isCanonical =
    CANONICAL_INSTANT.test(value) &&
    value.slice(11, 13) !== '24' &&
    (value.slice(8, 10) <= '28' || new Date(time).getUTCDate() === Number(value.slice(8, 10)));
  return isCanonical ? value : new Date(time).toISOString();
}

/** A key JSON.stringify puts first, in ascending order, whatever the insertion order: an array index. */
const isArrayIndex = (key: string) => {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
};

/** An object's own keys in the order JSON.stringify of a sorted copy writes them, each with its JSON text and colon. */
interface Shape {
  keys: readonly string[];
  ordered: readonly { key: string; text: string }[];
}

/**
 * The shapes met in one batch (its thousand readings have a handful): an object whose keys come in
 * the same order as a shape's is written in that shape's order, without sorting its keys again.
 * Property names of parsed JSON are internalized, so comparing them is cheap. Bounded: a batch of
 * objects of ever new shapes is still written, sorting each.
 */
class Shapes {
  private readonly known: Shape[] = [];
  of(keys: readonly string[]): Shape {
    for (const shape of this.known) if (isSameKeys(shape.keys, keys)) return shape;
    // The default sort compares UTF-16 code units, as `<` does on strings.
    const sorted = [...keys].sort();
    const ordered = keys.some(isArrayIndex)
      ? [...sorted.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b)), ...sorted.filter((candidate) => !isArrayIndex(candidate))]
      : sorted;
    const shape = { keys, ordered: ordered.map((key) => ({ key, text: `${JSON.stringify(key)}:` })) };
    if (this.known.length < 32) this.known.push(shape);
    return shape;
  }
}

function isSameKeys(known: readonly string[], keys: readonly string[]): boolean {
  if (known.length !== keys.length) return false;
  for (let index = 0; index < keys.length; index += 1) if (known[index] !== keys[index]) return false;
  return true;
}

/**
 * JSON text of `value` with instants as UTC ISO text, object keys sorted and absent or null members
 * left out, written in one pass (a batch of a thousand readings is hashed on every delivery).
 * Byte for byte what JSON.stringify gives for the same normalized copy, as the stored content
 * hashes of earlier deliveries were made that way (the test keeps that copy as its oracle).
 */
function normalizedJson(key: string, value: unknown, shapes: Shapes): string | undefined {
  if (typeof value === 'string') {
    if (!INSTANT_KEYS.has(key)) return JSON.stringify(value);
    const instant = instantText(value);
    // An ISO instant has nothing JSON escapes.
    return instant === undefined ? JSON.stringify(value) : `"${instant}"`;
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      text += normalizedJson('', value[index], shapes) ?? 'null';
    }
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let text = '{';
    let first = true;
    // Sorting first and leaving out absent members after gives the order sorting the present ones would.
    for (const { key: inner, text: keyText } of shapes.of(Object.keys(record)).ordered) {
      const innerValue = record[inner];
      if (innerValue === undefined || innerValue === null) continue;
      const member = normalizedJson(inner, innerValue, shapes);
      if (member === undefined) continue;
      text += first ? keyText : `,${keyText}`;
      text += member;
      first = false;
    }
    return `${text}}`;
  }
  // A number, a boolean, or undefined, a function or a symbol: no text, as JSON.stringify leaves such members out.
  const text: string | undefined = JSON.stringify(value);
  return text;
}

/**
 * The batch's content as one text, to compare two deliveries of a batch id: the parsed batch
 * (defaults applied) without its id and patient, keys sorted, absent and null alike, instants as
 * UTC ISO text (so "+07:00" and "Z" spellings of one instant are the same content).
 */
export function normalizedBatchText(batch: CollectorBatch): string {
  const { batchId: _batchId, patientId: _patientId, ...content } = batch;
  return normalizedJson('', content, new Shapes()) ?? '';
}
