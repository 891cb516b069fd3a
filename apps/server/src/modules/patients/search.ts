import { sql, type SQL } from 'drizzle-orm';
import { patients } from '../../db/schema.js';

/**
 * The patient list's search (migration 0063). A patient is found when every word typed is the
 * start of one of their terms (patient_search_terms, kept by triggers on patients): the words of
 * their names and patient id, the id's number, the email from its start, the phone's digits from
 * the start or from the end. The terms are looked up by range on their primary key; a range
 * comparison of text is leakproof, so row-level security lets the index serve it, which no
 * contains-search (ILIKE '%…%') could.
 */

/** One word of what is typed, and where it is looked for. */
export type SearchWord =
  | { kind: 'word'; text: string }
  | { kind: 'digits'; text: string }
  | { kind: 'email'; text: string };

/** More words narrow nothing that the first ones did not: a search reads at most this many. */
const MAX_WORDS = 8;

/** A phone number as people write one: digits, spaces, + - . ( ) /. */
const PHONE_LIKE = /^[\d\s+().\-/]+$/;
/** What a term is cut at (the migration cuts at [[:space:][:punct:]], the same classes). */
const SEPARATORS = /[\s\p{P}\p{S}]+/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The words of a search as the terms were cut. A phone number written with separators ("090 123
 * 4567") is one number; a word with an @ is an email from its start; any other word is cut at
 * punctuation, as names and ids are. What holds no letter or digit is no word.
 */
export function searchWordsOf(search: string): SearchWord[] {
  const text = search.trim();
  if (PHONE_LIKE.test(text) && /\d/.test(text)) return [{ kind: 'digits', text: text.replace(/\D/g, '') }];
  const words = text.split(/\s+/u).flatMap((piece): SearchWord[] =>
    piece.includes('@')
      ? [{ kind: 'email', text: piece }]
      : piece.split(SEPARATORS).map((part) => ({ kind: /^\d+$/.test(part) ? 'digits' : 'word', text: part })),
  );
  const seen = new Set<string>();
  return words
    .filter((word) => HAS_LETTER_OR_DIGIT.test(word.text))
    .filter((word) => {
      const key = `${word.kind}:${word.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_WORDS);
}

/** Terms that start with `prefix`: a range in byte order (the column's collation is "C"). */
const startingWith = (prefix: SQL) =>
  sql`(term.term >= ${prefix} AND term.term < ${prefix} || chr(1114111))`;

/** Digits backwards (ASCII only: one character a digit). */
const reversed = (digits: string) => digits.split('').reverse().join('');

/** The ranges of terms one word may start. Digits: the phone forwards and backwards ('~'). */
function rangesOf(word: SearchWord): SQL[] {
  switch (word.kind) {
    case 'word':
      return [startingWith(sql`patient_search_key(${word.text})`)];
    case 'email':
      return [startingWith(sql`'@' || patient_search_key(${word.text})`)];
    case 'digits':
      return [startingWith(sql`${word.text}`), startingWith(sql`${`~${reversed(word.text)}`}`)];
  }
}

/** The center filter on terms, when given. */
const inCenter = (centerId: string | undefined) =>
  centerId === undefined ? sql`` : sql` AND term.health_center_id = ${centerId}::uuid`;

/** The patients (ids, repeated) with a term one word starts, in `centerId` when given. */
function patientsOfWord(word: SearchWord, centerId: string | undefined): SQL {
  return sql.join(
    rangesOf(word).map(
      (range) => sql`SELECT term.patient_id FROM patient_search_terms term WHERE ${range}${inCenter(centerId)}`,
    ),
    sql` UNION ALL `,
  );
}

/**
 * The ids of the live patients every word finds (row-level security keeps those the caller sees):
 * one index range per word, intersected. One word's ids may repeat (a prefix may start several
 * terms of a patient: "ng" Nguyen and Ngoc); several words' are distinct. None without a word.
 */
export function searchMatches(words: readonly SearchWord[], centerId?: string): SQL {
  const [first, ...others] = words;
  if (first === undefined) return sql`SELECT NULL::uuid AS patient_id WHERE false`;
  if (others.length === 0) return patientsOfWord(first, centerId);
  return sql.join(
    words.map((word) => sql`(${patientsOfWord(word, centerId)})`),
    sql` INTERSECT `,
  );
}

/**
 * How many patients the rows of searchMatches (the CTE `found`) name. Several words' rows are
 * distinct already. One word's are counted from the index itself, so that a walk that needs no
 * matches (isFoundBy) never collects them: without sorting them when the word's range holds one
 * term (a patient has each term once; a whole family name such as "Nguyen", a third of a tenant),
 * which the range's first and last terms, two probes of the key, tell.
 */
export function foundCount(words: readonly SearchWord[], centerId?: string): SQL {
  const [first, ...others] = words;
  if (first === undefined || others.length > 0) return sql`(SELECT count(*) FROM found)`;
  const ofWord = patientsOfWord(first, centerId);
  const distinct = sql`(SELECT count(DISTINCT found.patient_id) FROM (${ofWord}) AS found)`;
  const [range, ...more] = rangesOf(first);
  if (range === undefined || more.length > 0) return distinct;
  return sql`CASE WHEN (SELECT min(term.term) = max(term.term) FROM patient_search_terms term WHERE ${range}${inCenter(centerId)})
                  THEN (SELECT count(*) FROM (${ofWord}) AS found) ELSE ${distinct} END`;
}

/**
 * Whether the patient row in scope has a term every word starts, computed from the row with the
 * triggers' own function (so it agrees with the stored terms): for walking a list where most rows
 * match, cheaper than collecting every match first.
 */
export function isFoundBy(words: readonly SearchWord[]): SQL {
  const terms = sql`(SELECT found COLLATE "C" AS term FROM unnest(patient_search_terms_of(${patients.patientCode},
    ${patients.firstName}, ${patients.middleName}, ${patients.lastName}, ${patients.phone}, ${patients.email})) AS found) AS term`;
  if (words.length === 0) return sql`false`;
  return sql.join(
    words.map((word) => sql`EXISTS (SELECT 1 FROM ${terms} WHERE ${sql.join(rangesOf(word), sql` OR `)})`),
    sql` AND `,
  );
}
