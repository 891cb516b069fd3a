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

/** A word's range starts: the folded word (an email's after an '@'; digits: the phone forwards, and backwards after a '~'). */
function lowsOf(word: SearchWord): SQL[] {
  switch (word.kind) {
    case 'word':
      return [sql`patient_search_key(${word.text})`];
    case 'email':
      return [sql`'@' || patient_search_key(${word.text})`];
    case 'digits':
      return [sql`${word.text}`, sql`${`~${reversed(word.text)}`}`];
  }
}

/** The ranges of terms one word may start. */
const rangesOf = (word: SearchWord): SQL[] => lowsOf(word).map(startingWith);

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
 * How a search of several words reads its matches, chosen from a first look at each word
 * (searchPlanQuery); `terms` are the distinct terms each word's ranges hold, index-aligned with the
 * words.
 * - `documents`: every word is a word of letters naming at most TERMS_LISTED terms. The patients
 *   having one of each word's terms are found in the inverted index of their terms
 *   (patient_search_documents, migration 0070), where the words' lists are intersected inside the
 *   index. The words are also ordered by how many patients have them, as the planner estimates
 *   it, for a walk's checks.
 * Otherwise (a word names more terms, such as "n" or "h"), each word's rows were counted too:
 * - `probe`: the rarest word (`driver`) has fewer than SIZE_COUNTED rows and every other word names
 *   at most TERMS_LISTED terms. The driver's range is read, and each of its patients is checked for
 *   the other words by one key probe per word.
 * Undefined: every range is read and intersected.
 */
export type SearchPlan = { terms: readonly (readonly string[])[] } & (
  | {
      kind: 'documents';
      /** The words (indexes), from the one the fewest patients have to the most, as estimated. */
      rarestFirst: readonly number[];
    }
  | { kind: 'probe'; driver: number }
);

/**
 * Whether every word is one the documents answer: a word of letters (the documents leave out the
 * phone's digits, the id's number and the email; migration 0070).
 */
const isDocumented = (words: readonly SearchWord[]) => words.every((word) => word.kind === 'word');

/** Up to this many rows of a word's ranges are counted, to tell the rarest word. */
const SIZE_COUNTED = 20_000;
/** A word is checked by its terms when its ranges hold at most this many distinct terms. */
const TERMS_LISTED = 16;

/** The distinct terms of one range, in order, up to `limit` (a walk that skips from term to term). */
function termsOf(low: SQL, limit: number): SQL {
  const within = (from: SQL) => sql`term.term >= ${from} AND term.term < ${low} || chr(1114111)`;
  return sql`(WITH RECURSIVE walked (term) AS (
      (SELECT term.term FROM patient_search_terms term WHERE ${within(low)} ORDER BY term.term LIMIT 1)
      UNION ALL
      SELECT (SELECT term.term FROM patient_search_terms term WHERE ${within(sql`walked.term`)} AND term.term > walked.term
               ORDER BY term.term LIMIT 1)
        FROM walked WHERE walked.term IS NOT NULL)
    SELECT walked.term FROM walked WHERE walked.term IS NOT NULL LIMIT ${limit})`;
}

/**
 * One row: per word, the distinct terms its ranges hold as the caller sees them (up to
 * TERMS_LISTED + 1: `terms_i`); when every word is a word of letters naming at most TERMS_LISTED of
 * them, the words from the rarest (`rarest_first`, patient_search_rarest_first), else how many rows
 * each word's ranges hold (up to SIZE_COUNTED: `size_i`). Listing the terms costs a key probe a term; counting a common
 * word's first rows a few milliseconds, against the hundreds of thousands of rows an intersection
 * of a common word reads. Made for whole-tenant searches only (searchSetupQuery): no center filter.
 */
export function searchPlanQuery(words: readonly SearchWord[]): SQL {
  const column = (name: string, index: number) => sql.raw(`${name}_${String(index)}`);
  const listed = words.map((word, index) => {
    const terms = sql.join(
      lowsOf(word).map((low) => sql`SELECT term FROM ${termsOf(low, TERMS_LISTED + 1)} AS listed`),
      sql` UNION `,
    );
    return sql`ARRAY(${terms}) AS ${column('terms', index)}`;
  });
  const isEveryWordListed = isDocumented(words)
    ? sql.join(
        words.map((_, index) => sql`cardinality(listed.${column('terms', index)}) <= ${TERMS_LISTED}`),
        sql` AND `,
      )
    : sql`false`;
  const everyWord = sql.join(
    words.map((_, index) => sql`to_jsonb(listed.${column('terms', index)})`),
    sql`, `,
  );
  // Counted only when needed: an uncorrelated subquery runs when its value is first asked for.
  const sizes = words.map(
    (word, index) => sql`CASE WHEN ${isEveryWordListed} THEN NULL
      ELSE (SELECT count(*) FROM (SELECT 1 FROM (${patientsOfWord(word, undefined)}) AS rows LIMIT ${SIZE_COUNTED}) AS counted)::int
      END AS ${column('size', index)}`,
  );
  // OFFSET 0: the terms are listed once, not once for each column that reads them.
  return sql`SELECT listed.*, ${sql.join(sizes, sql`, `)},
      CASE WHEN ${isEveryWordListed} THEN patient_search_rarest_first(jsonb_build_array(${everyWord})) END AS rarest_first
    FROM (SELECT ${sql.join(listed, sql`, `)} OFFSET 0) AS listed`;
}

/**
 * The plan searchPlanQuery's row tells (SearchPlan): `documents` when every word is a word of
 * letters naming at most TERMS_LISTED terms; else `probe` when the rarest word was counted below
 * SIZE_COUNTED and the others name few enough terms; otherwise none (the ranges intersected).
 */
export function searchPlanOf(words: readonly SearchWord[], row: Record<string, unknown>): SearchPlan | undefined {
  if (words.length < 2) return undefined;
  const terms = words.map((_, index) => (row[`terms_${String(index)}`] as string[] | null) ?? []);
  if (isDocumented(words) && terms.every((list) => list.length <= TERMS_LISTED)) {
    const ranked = ((row.rarest_first as number[] | null) ?? []).filter((index) => index >= 0 && index < words.length);
    const rarestFirst = ranked.length === words.length ? ranked : words.map((_, index) => index);
    return { kind: 'documents', terms, rarestFirst };
  }
  const sizes = words.map((_, index) => Number(row[`size_${String(index)}`] ?? SIZE_COUNTED));
  const driver = sizes.indexOf(Math.min(...sizes));
  const least = sizes[driver] ?? SIZE_COUNTED;
  const canProbe = least < SIZE_COUNTED && terms.every((list, index) => index === driver || list.length <= TERMS_LISTED);
  return canProbe ? { kind: 'probe', driver, terms } : undefined;
}

/** A key probe: whether the patient of `patientId` has one of `terms` (patient_search_terms' key). */
const hasTerm = (terms: readonly string[], tenantId: SQL, patientId: SQL) =>
  sql`(SELECT true FROM patient_search_terms probe WHERE probe.tenant_id = ${tenantId}
         AND probe.term = ANY (${sql.param(terms)}::text[]) AND probe.patient_id = ${patientId} LIMIT 1)`;

/**
 * The ids of the live patients every word finds (row-level security keeps those the caller sees):
 * one index range per word, intersected; or as the plan says (SearchPlan). One word's ids may repeat
 * (a prefix may start several terms of a patient: "ng" Nguyen and Ngoc); several words' are
 * distinct. None without a word. With `limit`, a plan's reading stops at that many ids (they are
 * then some of the matches, not all).
 */
export function searchMatches(
  words: readonly SearchWord[],
  centerId?: string,
  plan?: SearchPlan,
  limit?: number,
): SQL {
  const [first, ...others] = words;
  if (first === undefined) return sql`SELECT NULL::uuid AS patient_id WHERE false`;
  if (others.length === 0) return patientsOfWord(first, centerId);
  if (plan?.kind === 'documents')
    // Found with the owner's rights, which the function limits to what the caller sees (0070).
    return sql`SELECT matched.patient_id FROM patient_search_matching(${JSON.stringify(plan.terms)}::jsonb,
      ${centerId ?? null}::uuid, ${limit ?? null}::int) AS matched (patient_id)`;
  const driver = plan === undefined ? undefined : words[plan.driver];
  if (plan === undefined || driver === undefined)
    return sql.join(
      words.map((word) => sql`(${patientsOfWord(word, centerId)})`),
      sql` INTERSECT `,
    );
  // LIMIT 1 keeps each probe a lookup per row (a join would read the other word's whole range).
  const probes = plan.terms.flatMap((terms, index) =>
    index === plan.driver ? [] : [hasTerm(terms, sql`term.tenant_id`, sql`term.patient_id`)],
  );
  // A driver of one term lists each patient once: read in the key's order, it can stop at the limit.
  const isOneTerm = plan.terms[plan.driver]?.length === 1;
  const limited = limit === undefined ? sql`` : sql` LIMIT ${limit}`;
  return sql`SELECT ${isOneTerm ? sql`` : sql`DISTINCT `}term.patient_id FROM patient_search_terms term
    WHERE (${sql.join(rangesOf(driver), sql` OR `)})${inCenter(centerId)} AND ${sql.join(probes, sql` AND `)}${limited}`;
}

/**
 * How many patients the rows of searchMatches (the CTE `found`) name, up to `limit` when given.
 * Several words' rows are distinct already. One word's are counted from the index itself, so that
 * a walk that needs no matches (isFoundBy) never collects them: without sorting them when the
 * word's range holds one term (a patient has each term once; a whole family name such as "Nguyen",
 * a third of a tenant), which the range's first and last terms, two probes of the key, tell; and
 * then only up to the limit, where reading stops.
 */
export function foundCount(words: readonly SearchWord[], centerId?: string, limit?: number): SQL {
  const [first, ...others] = words;
  const upTo = (counted: SQL) => (limit === undefined ? counted : sql`LEAST(${counted}, ${limit})`);
  if (first === undefined || others.length > 0) return sql`(SELECT count(*) FROM found)`;
  const ofWord = patientsOfWord(first, centerId);
  const distinct = upTo(sql`(SELECT count(DISTINCT found.patient_id) FROM (${ofWord}) AS found)`);
  const [range, ...more] = rangesOf(first);
  if (range === undefined || more.length > 0) return distinct;
  const limited = limit === undefined ? sql`` : sql` LIMIT ${limit}`;
  return sql`CASE WHEN (SELECT min(term.term) = max(term.term) FROM patient_search_terms term WHERE ${range}${inCenter(centerId)})
                  THEN (SELECT count(*) FROM (SELECT 1 FROM (${ofWord}) AS found${limited}) AS counted) ELSE ${distinct} END`;
}

/**
 * Whether the patient row in scope has, for every word, one of the terms the plan lists for it:
 * one key probe a word (a few microseconds), for walking a list where a row's terms computed
 * (isFoundBy) cost about twenty. The probes are written rarest word first, but the planner orders
 * a scan's conditions by their estimated cost, so a word of fewer terms (fewer key descents) may
 * be probed first. Undefined when a word names more terms than were listed.
 */
export function hasTermsOf(plan: SearchPlan): SQL | undefined {
  if (plan.terms.some((terms) => terms.length > TERMS_LISTED)) return undefined;
  // A probe plan's driver is the word counted rarest.
  const order =
    plan.kind === 'documents'
      ? plan.rarestFirst
      : [plan.driver, ...plan.terms.map((_, index) => index).filter((index) => index !== plan.driver)];
  return sql.join(
    order.map((index) => hasTerm(plan.terms[index] ?? [], sql`${patients.tenantId}`, sql`${patients.id}`)),
    sql` AND `,
  );
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
