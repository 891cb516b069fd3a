import type { PatientListQuery, PatientListScope, PatientStatus } from '@rpm/contracts';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CenterVisibility, TenantTransaction } from '../../db/database.js';
import { healthCenters, patientCounts, patients, type StoredVital } from '../../db/schema.js';
import { holderColumn, type PatientWithCenter } from './patient-rows.js';
import {
  foundCount,
  hasTermsOf,
  isFoundBy,
  type SearchPlan,
  searchMatches,
  searchPlanOf,
  searchPlanQuery,
  searchWordsOf,
} from './search.js';

/**
 * The patient list's reads: its filters as conditions, its order, a page with its triage columns,
 * its total (kept or counted), the search's page, and the dashboard counts by status that add up
 * to the list's totals.
 */

/** A listed patient: the record and what triage needs (open case and ticket, what crossed, silence). */
export interface ListedPatient extends PatientWithCenter {
  openSosCaseId: string | null;
  openTicketId: string | null;
  missedDoses: number;
  noData: boolean;
  crossed: {
    id: string;
    type: string;
    level: string;
    readings: StoredVital[];
    createdAt: string;
  } | null;
}

/**
 * The list's filters and who asks (the `mine` scope is the caller's care team). `visibility` is
 * the caller's (withCaller sets the same on the transaction, where row-level security applies
 * it): stated in the query too, so the planner can use the center indexes, and the totals of
 * staff can be read from patient_counts.
 */
export type PatientFilter = Omit<PatientListQuery, 'page' | 'size'> & {
  callerId: string;
  visibility?: CenterVisibility | undefined;
};

/** Patients of these doctors (the care-team links), as a condition. */
const ofDoctors = (doctorIds: SQL) =>
  sql`${patients.id} IN (SELECT link.patient_id FROM patient_doctors link WHERE link.doctor_id IN (${doctorIds}))`;

/**
 * The caller's care team: patients linked to them (a doctor) or to a doctor they assist (an
 * assistant). One rule for every role, so the list and the counts of `mine` cannot differ.
 */
const careTeamOf = (userId: string) =>
  ofDoctors(
    sql`SELECT ${userId}::uuid UNION ALL SELECT assist.doctor_id FROM doctor_assistants assist WHERE assist.assistant_id = ${userId}::uuid`,
  );

/**
 * The caller's centers as a condition (what row-level security already applies, stated so an
 * index on the center can serve it): one center as an equality, which keeps an index's order
 * after it usable. Nothing for callers who see every center or only their own records.
 */
function visibleCenters(visibility: CenterVisibility | undefined): SQL | undefined {
  if (visibility === undefined || !('centerIds' in visibility)) return undefined;
  const [only, ...others] = visibility.centerIds;
  if (only === undefined) return sql`false`;
  return others.length === 0
    ? eq(patients.healthCenterId, only)
    : inArray(patients.healthCenterId, [...visibility.centerIds]);
}

/** The list's conditions; deleted accounts (waiting for the purge) are never listed. */
export function conditionsOf(
  filter: Partial<Omit<PatientFilter, 'callerId'>> & { callerId?: string | undefined },
  extra: SQL[] = [],
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    eq(patients.accountState, 'ACTIVE'),
    visibleCenters(filter.visibility),
    ...extra,
  ];
  if (filter.scope === 'mine') {
    if (filter.callerId === undefined) throw new Error('the mine scope needs the caller');
    conditions.push(careTeamOf(filter.callerId));
  }
  if (filter.status !== undefined) conditions.push(eq(patients.status, filter.status));
  if (filter.centerId !== undefined) conditions.push(eq(patients.healthCenterId, filter.centerId));
  if (filter.packageCode !== undefined && filter.packageCode !== '')
    conditions.push(eq(patients.packageCode, filter.packageCode));
  if (filter.doctorId !== undefined) conditions.push(ofDoctors(sql`${filter.doctorId}::uuid`));
  // Word prefixes looked up in patient_search_terms (search.ts): an index under row-level security.
  if (filter.search)
    conditions.push(
      sql`${patients.id} IN (${searchMatches(searchWordsOf(filter.search), filter.centerId)})`,
    );
  return and(...conditions);
}

// Triage columns: probed for the rows of one page only (pageQuery), each by its index: the open
// case by sos_cases_one_open (one open case per patient), the open ticket by tickets_by_patient,
// what crossed by alerts_by_patient, missed doses by medication_intakes_by_patient_day. Whether a
// watch is silent is the patient row's no_data (kept by the devices trigger, migration 0062).
const openCase = sql`open_case`;
const openTicket = sql`open_ticket`;
const crossed = sql`crossed`;
const missed = sql`missed`;

/** `now`: the instant "the last 24 hours" of missed doses ends at (the service's clock). */
function selectListed(tx: TenantTransaction, now: Date = new Date()) {
  return (
    tx
      .select({
        patient: patients,
        centerName: healthCenters.name,
        holder: holderColumn,
        openSosCaseId: sql<string | null>`open_case.id`,
        openTicketId: sql<string | null>`open_ticket.id`,
        missedDoses: sql<number>`missed.doses`,
        noData: sql<boolean>`${patients.noData}`,
        crossed: sql<ListedPatient['crossed']>`CASE WHEN crossed.id IS NULL THEN NULL ELSE
        json_build_object('id', crossed.id, 'type', crossed.type, 'level', crossed.level,
                          'readings', crossed.measure_values, 'createdAt', crossed.created_at) END`,
      })
      .from(patients)
      .leftJoin(
        healthCenters,
        and(eq(healthCenters.tenantId, patients.tenantId), eq(healthCenters.id, patients.healthCenterId)),
      )
      .leftJoinLateral(
        sql`(SELECT sos_case.id FROM sos_cases sos_case
            WHERE sos_case.tenant_id = ${patients.tenantId} AND sos_case.patient_id = ${patients.id}
              AND sos_case.status <> 'CLOSED'
            LIMIT 1) ${openCase}`,
        sql`true`,
      )
      .leftJoinLateral(
        sql`(SELECT ticket.id FROM tickets ticket
            WHERE ticket.tenant_id = ${patients.tenantId} AND ticket.patient_id = ${patients.id}
              AND ticket.status NOT IN ('SUCCESS', 'CANCELED')
            ORDER BY ticket.created_at DESC, ticket.id DESC LIMIT 1) ${openTicket}`,
        sql`true`,
      )
      .leftJoinLateral(
        sql`(SELECT alert.id, alert.type, alert.level, alert.measure_values, alert.created_at FROM alerts alert
            WHERE alert.tenant_id = ${patients.tenantId} AND alert.patient_id = ${patients.id}
              AND alert.status <> 'RESOLVED'
            ORDER BY alert.created_at DESC LIMIT 1) ${crossed}`,
        sql`true`,
      )
      // Doses missed in the last day: a probe of medication_intakes_by_patient_day (two local days).
      .leftJoinLateral(
        sql`(SELECT count(*)::int AS doses FROM medication_intakes intake
            WHERE intake.tenant_id = ${patients.tenantId} AND intake.patient_id = ${patients.id}
              AND intake.local_date >= (${now.toISOString()}::timestamptz - interval '2 days')::date
              AND intake.state = 'UNCONFIRMED'
              AND intake.due_at >= ${now.toISOString()}::timestamptz - interval '24 hours') ${missed}`,
        sql`true`,
      )
  );
}

function orderOf(filter: Pick<PatientFilter, 'sortField' | 'sortType'>): SQL[] {
  const direction = filter.sortType === 'desc' ? desc : asc;
  switch (filter.sortField) {
    case 'severity':
      // Worst first (triage_rank: open SOS case 5, SOS 4, HIGH_RISK 3, AT_RISK 2, NORMAL with a
      // silent watch 1, NORMAL 0); at the same severity the newest open case (the emergency just
      // raised is the one nobody has looked at yet), then the freshest reading (no reading last);
      // asc is the exact reverse. Index patients_by_severity holds this order.
      return filter.sortType === 'desc'
        ? [
            sql`${patients.triageRank} DESC`,
            sql`${patients.openSosOpenedAt} DESC NULLS LAST`,
            sql`${patients.lastReadingAt} DESC NULLS LAST`,
            asc(patients.id),
          ]
        : [
            sql`${patients.triageRank} ASC`,
            sql`${patients.openSosOpenedAt} ASC NULLS FIRST`,
            sql`${patients.lastReadingAt} ASC NULLS FIRST`,
            desc(patients.id),
          ];
    case 'name':
      return [
        direction(sql`lower(${patients.firstName})`),
        direction(sql`lower(${patients.lastName})`),
        direction(patients.id),
      ];
    case 'code':
      return [direction(patients.patientCode), direction(patients.id)];
    case 'status':
      // By severity (SOS worst), not alphabetically.
      return [
        direction(
          sql`CASE ${patients.status} WHEN 'NORMAL' THEN 0 WHEN 'AT_RISK' THEN 1 WHEN 'HIGH_RISK' THEN 2 ELSE 3 END`,
        ),
        asc(sql`lower(${patients.firstName})`),
        asc(patients.id),
      ];
    case 'created':
      return [direction(patients.createdAt), direction(patients.id)];
    case 'birthday':
      return [direction(patients.birthday), direction(patients.id)];
  }
}

/**
 * Rows [offset, offset + limit) in the list's order, with their triage columns. Two steps: the
 * page's ids first (the conditions and the order, which indexes serve), then the triage probes
 * for those rows only, in the same order (every order ends with the id, so it is total).
 */
function rowsQuery(tx: TenantTransaction, filter: PatientFilter, offset: number, limit: number, now?: Date) {
  const ids = tx
    .select({ id: patients.id })
    .from(patients)
    .where(conditionsOf(filter))
    .orderBy(...orderOf(filter))
    .limit(limit)
    .offset(offset);
  return selectListed(tx, now)
    .where(inArray(patients.id, ids))
    .orderBy(...orderOf(filter));
}

/** The statement of one page (exported for EXPLAIN in tools). */
export function pageQuery(
  tx: TenantTransaction,
  filter: PatientFilter,
  page: { page: number; size: number },
  now?: Date,
) {
  return rowsQuery(tx, filter, page.page * page.size, page.size, now);
}

/**
 * Whether the total is kept (patient_counts, migration 0062): staff asking for all they see, by
 * center and status at most. Otherwise (care team, search, doctor, package, a patient account)
 * the matching rows are counted (exported for EXPLAIN in tools).
 */
export function isTotalKept(
  filter: Pick<PatientFilter, 'scope' | 'search' | 'doctorId' | 'packageCode' | 'visibility'>,
): boolean {
  return (
    filter.scope !== 'mine' &&
    !filter.search &&
    filter.doctorId === undefined &&
    (filter.packageCode === undefined || filter.packageCode === '') &&
    filter.visibility !== undefined &&
    !('ownRecordsOf' in filter.visibility)
  );
}

/** patient_counts' rows for a status and center (row-level security keeps the caller's centers). */
function countedWhere(filter: { status?: string | undefined; centerId?: string | undefined }) {
  return and(
    filter.status === undefined ? undefined : eq(patientCounts.status, filter.status),
    filter.centerId === undefined ? undefined : eq(patientCounts.healthCenterId, filter.centerId),
  );
}

/** The statement of the list's total (exported for EXPLAIN in tools). */
export function totalQuery(tx: TenantTransaction, filter: PatientFilter) {
  if (isTotalKept(filter))
    return tx
      .select({ total: sql<number>`coalesce(sum(${patientCounts.patients}), 0)::int` })
      .from(patientCounts)
      .where(countedWhere(filter));
  return tx.select({ total: count() }).from(patients).where(conditionsOf(filter));
}

/** The columns the list's orders read, for statements that sort matches found apart. */
const orderedColumns = sql`${patients.id}, ${patients.createdAt}, ${patients.firstName}, ${patients.lastName},
  ${patients.patientCode}, ${patients.birthday}, ${patients.status}, ${patients.triageRank}, ${patients.openSosOpenedAt},
  ${patients.lastReadingAt}`;

/**
 * A page (ids) and the total in one statement, for a list whose total is counted (exported for
 * EXPLAIN in tools): the matching rows are read once (in parallel when they are many), counted and
 * sorted, where a page and a count would read them twice. OFFSET 0 keeps the planner from walking
 * an index in the list's order instead, which for rare matches visits every row in random order.
 * The outer query calls the matches "patients", so the list's order expressions apply to them.
 */
export function matchesQuery(filter: PatientFilter, page: { page: number; size: number }) {
  return sql`
    SELECT patients.id, count(*) OVER () AS total
      FROM (SELECT ${orderedColumns} FROM ${patients} WHERE ${conditionsOf(filter)} OFFSET 0) AS patients
     ORDER BY ${sql.join(orderOf(filter), sql`, `)}
     LIMIT ${page.size} OFFSET ${page.page * page.size}`;
}

/**
 * Whether a search's total is the number of patients its words find (patient_search_terms holds
 * live patients only, read by center like the patients): staff, by center at most. A status,
 * doctor, package or care-team filter is checked on the patient rows.
 */
function isSearchCountedByTerms(
  filter: Pick<PatientFilter, 'scope' | 'status' | 'doctorId' | 'packageCode' | 'visibility'>,
): boolean {
  return isTotalKept({ ...filter, search: undefined }) && filter.status === undefined;
}

/**
 * How a search's page is read, by the number of matches per row up to the page's end (measured at
 * a million patients, where a key lookup under row-level security costs about four rows walked in
 * an index, and a walk for 20 rows among n matches visits about 20 × patients / n rows): up to
 * LOOKED_UP, each match is looked up by its key and they are sorted; up to WALKED_WITH_MATCHES, the
 * list is walked in its order (an index) until the page is full, each row checked against the
 * matches kept in a hash table; past it (a word that starts a tenth of all names), each row walked
 * is checked by its terms (probed when the plan lists them, else computed from the row), which
 * costs more per row than the hash table but spares building it from hundreds of thousands of
 * matches.
 */
const LOOKED_UP = 100;
const WALKED_WITH_MATCHES = 1_500;

/**
 * Words found in the documents' inverted index (plan `documents`) read up to this many matches per
 * row up to the page's end before the list is walked by probes: a match costs 1.4–2 µs there
 * (its document's row), where a probe walk of n matches visits 20 × patients / n rows at about
 * 7 µs each (the row, its visibility and one key probe a word). At a million patients, "Nguyen Huy"
 * (4,896 matches) read 2,001 and then walked 4,400 rows by probes (42 ms); reading them all and
 * walking with the hash of them takes 16 ms (EXPLAIN ANALYZE), and its total is exact
 * (decisions.md).
 */
const READ_FROM_DOCUMENTS = 500;

/** Up to this many matches, a filtered search's total looks them up; past it, it reads the filter's rows. */
const COUNTED_BY_LOOKUP = 20_000;

/**
 * How many matches a search reads at most, where reading can stop (decisions.md, "A search's total
 * past a bound"): staff searching all they see, by center at most, whose total is the number of
 * matches. One word, whose rows are counted from the index: enough to choose the page's way
 * (WALKED_WITH_MATCHES × the page's end). Several words read by a plan: enough to look the page's
 * rows up (LOOKED_UP × the page's end); past it, the list is walked; from the documents, enough to
 * walk with the matches' hash (READ_FROM_DOCUMENTS × the page's end). One more than that tells
 * that there are more. Undefined: every match is read and the total is exact.
 */
export function searchLimitOf(
  filter: PatientFilter,
  page: { page: number; size: number },
  plan: SearchPlan | undefined,
): number | undefined {
  if (!isSearchCountedByTerms(filter)) return undefined;
  const end = (page.page + 1) * page.size;
  const words = searchWordsOf(filter.search ?? '');
  if (words.length === 1) return WALKED_WITH_MATCHES * end + 1;
  if (plan?.kind === 'documents') return READ_FROM_DOCUMENTS * end + 1;
  return plan === undefined ? undefined : LOOKED_UP * end + 1;
}

/**
 * A search's page (ids, in the list's order) and total in one statement (exported for EXPLAIN in
 * tools). The words' matches are read from patient_search_terms once (search.ts), up to the limit
 * (searchLimitOf), and counted; the count then chooses how the page is read (LOOKED_UP), as the
 * planner cannot tell whether a CTE holds 10 matches or 400,000. `OR false` keeps the matches a
 * hashed filter of the walk: the planner would otherwise join them, and a join loses the order's
 * index. `exact` is false when the limit was reached: the total is then the limit less one, and
 * there are more. Always one row, past the end too.
 */
export function searchQuery(filter: PatientFilter, page: { page: number; size: number }, plan?: SearchPlan) {
  const words = searchWordsOf(filter.search ?? '');
  const offset = page.page * page.size;
  const end = offset + page.size;
  const limit = searchLimitOf(filter, page, plan);
  const rest = conditionsOf({ ...filter, search: undefined }) ?? sql`true`;
  const order = sql.join(orderOf(filter), sql`, `);
  // Each match looked up by its key (OFFSET 0 keeps the planner from joining them instead).
  const lookedUp = (columns: SQL) => sql`(SELECT DISTINCT patient_id FROM found) AS matched CROSS JOIN LATERAL (
      SELECT ${columns} FROM ${patients} WHERE ${patients.id} = matched.patient_id AND ${rest} OFFSET 0) AS patients`;
  const withMatches = sql`(${patients.id} IN (SELECT patient_id FROM found) OR false)`;
  const walked = (check: SQL) => sql`SELECT ${orderedColumns} FROM ${patients} WHERE ${rest} AND ${check}`;
  const matchesUpTo = (most: number) => sql`((SELECT matches FROM counted) <= ${most})`;
  // Every match is in `found` (the limit not reached), so a hash table of them can check a walk.
  const isEveryMatchFound = limit === undefined ? sql`true` : sql`((SELECT matches FROM counted) < ${limit})`;
  const total = isSearchCountedByTerms(filter)
    ? sql`(SELECT LEAST(matches, ${limit ?? null}::int - 1) FROM counted)`
    : sql`CASE WHEN ${matchesUpTo(COUNTED_BY_LOOKUP)}
               THEN (SELECT count(*) FROM ${lookedUp(sql`1`)})
               ELSE (SELECT count(*) FROM ${patients} WHERE ${rest} AND ${withMatches}) END`;
  const pageOf = (rows: SQL) => sql`(${rows} ORDER BY ${order} LIMIT ${page.size} OFFSET ${offset})`;
  const isWalkedWithMatches = sql`NOT ${matchesUpTo(LOOKED_UP * end)} AND ${matchesUpTo(WALKED_WITH_MATCHES * end)} AND ${isEveryMatchFound}`;
  const checkedByTerms = (plan === undefined ? undefined : hasTermsOf(plan)) ?? isFoundBy(words);
  return sql`
    WITH found AS MATERIALIZED (${searchMatches(words, filter.centerId, plan, limit)}),
         counted AS MATERIALIZED (SELECT ${foundCount(words, filter.centerId, limit)}::int AS matches)
    SELECT ${total}::int AS total, ${isEveryMatchFound} AS exact, ARRAY(
      SELECT patients.id FROM (
        ${pageOf(sql`SELECT patients.* FROM ${lookedUp(orderedColumns)} WHERE ${matchesUpTo(LOOKED_UP * end)}`)}
        UNION ALL
        ${pageOf(walked(sql`${withMatches} AND ${isWalkedWithMatches}`))}
        UNION ALL
        ${pageOf(walked(sql`NOT ${matchesUpTo(LOOKED_UP * end)} AND NOT (${isWalkedWithMatches}) AND ${checkedByTerms}`))}
      ) AS patients ORDER BY ${order}) AS ids`;
}

/**
 * Memory for a search's statement: the walk keeps the matches in a hash table, which the planner
 * builds only when it expects the table to fit (else it would test every match for each row
 * walked). 64 MB holds the ids of about two million matches.
 */
export const SEARCH_WORK_MEM = '64MB';

/**
 * What a page read at random costs a search's statements, against 1 for one read in order: the
 * terms' key is read in memory (a tenant's terms are a few hundred bytes a patient), where a probe
 * of it costs about what reading a few of its rows in order does. At the server's default (4), the
 * planner reads a common word's whole range in order rather than probe it for a rare word's rows:
 * "Nguyen Dao" at a million patients read 151,000 rows (38 ms) where 5,300 probes took 19 ms.
 */
const SEARCH_RANDOM_PAGE_COST = '1.1';

/**
 * The work memory a search's statements get, and, for several words searched tenant-wide, the
 * first look at each (searchPlanQuery) that picks how their matches are read: one statement. A
 * caller narrowed to centers (or filtering one) gets no look: the terms carry the center beside the
 * key, not in it, so counting a common word's rows a center sees reads its whole range, as the
 * intersection does anyway.
 */
export function searchSetupQuery(filter: Pick<PatientFilter, 'search' | 'centerId' | 'visibility'>): SQL {
  const words = searchWordsOf(filter.search ?? '');
  const isTenantWide = (filter.visibility === undefined || 'all' in filter.visibility) && filter.centerId === undefined;
  const look = words.length < 2 || !isTenantWide ? sql`` : sql`, plan.* FROM (${searchPlanQuery(words)}) AS plan`;
  // Planned for its words each time: a search's statement has one text for every search of its
  // shape, and a connection prepares texts it sends often (PreparingClient); a generic plan, made
  // without the words' terms or the limit, reads whole ranges that the words' own plan would not.
  return sql`SELECT set_config('work_mem', ${SEARCH_WORK_MEM}, true) AS work_mem,
    set_config('plan_cache_mode', 'force_custom_plan', true) AS plan_cache_mode,
    set_config('random_page_cost', ${SEARCH_RANDOM_PAGE_COST}, true) AS random_page_cost${look}`;
}

/** The plan a search's setup row tells (searchPlanOf): none for a single word. */
export const searchPlanOfSetup = (filter: Pick<PatientFilter, 'search'>, row: Record<string, unknown> | undefined) =>
  row === undefined || !('size_0' in row) ? undefined : searchPlanOf(searchWordsOf(filter.search ?? ''), row);

/** What the search's statements set for themselves (searchSetupQuery), back as it was. */
const SEARCH_DONE = sql.raw('SET LOCAL plan_cache_mode TO DEFAULT; SET LOCAL random_page_cost TO DEFAULT');

/** A search's page of ids and its total (searchQuery). */
async function searchedPage(tx: TenantTransaction, filter: PatientFilter, page: { page: number; size: number }) {
  const [setup] = (await tx.execute(searchSetupQuery(filter))).rows;
  const plan = searchPlanOfSetup(filter, setup);
  const [found] = (await tx.execute<{ total: number; exact: boolean; ids: string[] }>(searchQuery(filter, page, plan))).rows;
  await tx.execute(SEARCH_DONE);
  return { ids: found?.ids ?? [], total: found?.total ?? 0, isTotalExact: found?.exact ?? true };
}

/** A page of ids and the total of a list whose total is counted (matchesQuery). */
async function matchedPage(tx: TenantTransaction, filter: PatientFilter, page: { page: number; size: number }) {
  const found = (await tx.execute<{ id: string; total: number }>(matchesQuery(filter, page))).rows;
  const first = found[0];
  // Nothing on the first page: nothing at all. A page past the end has no row to carry the
  // total: counted on its own.
  if (first === undefined)
    return {
      ids: [],
      total: page.page === 0 ? 0 : ((await totalQuery(tx, filter))[0]?.total ?? 0),
      isTotalExact: true,
    };
  return { ids: found.map((row) => row.id), total: first.total, isTotalExact: true };
}

/**
 * One page of patients and the total, within what the transaction may see. `isTotalExact` is false
 * when a search stopped counting (searchLimitOf): there are more than `total`.
 */
export async function listPatients(
  tx: TenantTransaction,
  filter: PatientFilter,
  page: { page: number; size: number },
  now?: Date,
): Promise<{ items: ListedPatient[]; total: number; isTotalExact: boolean }> {
  // One after the other: a transaction is one connection, which runs one query at a time.
  if (isTotalKept(filter)) {
    const items: ListedPatient[] = await pageQuery(tx, filter, page, now);
    const totals = await totalQuery(tx, filter);
    return { items, total: totals[0]?.total ?? 0, isTotalExact: true };
  }
  const { ids, total, isTotalExact } = filter.search
    ? await searchedPage(tx, filter, page)
    : await matchedPage(tx, filter, page);
  if (ids.length === 0) return { items: [], total, isTotalExact };
  const items: ListedPatient[] = await selectListed(tx, now)
    .where(inArray(patients.id, ids))
    .orderBy(...orderOf(filter));
  return { items, total, isTotalExact };
}

/** One batch of the export, in the list's order. */
export async function patientBatch(
  tx: TenantTransaction,
  filter: PatientFilter,
  offset: number,
  limit: number,
): Promise<PatientWithCenter[]> {
  return rowsQuery(tx, filter, offset, limit);
}

/** The ids of every patient the export writes, in its order (the export's audit row names them). */
export async function patientIdsOf(tx: TenantTransaction, filter: PatientFilter): Promise<string[]> {
  const rows = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(conditionsOf(filter))
    .orderBy(...orderOf(filter));
  return rows.map((row) => row.id);
}

// Dashboard counts ----------------------------------------------------------------------------------

export type StatusCounts = Record<PatientStatus, number>;

/**
 * Live patients by status, within what the transaction sees: the list's conditions for the same
 * scope and center, so the counts always add up to the list's totals.
 */
export async function countByStatus(
  tx: TenantTransaction,
  filter: {
    scope: PatientListScope;
    centerId?: string | undefined;
    callerId: string;
    visibility?: CenterVisibility | undefined;
  },
): Promise<StatusCounts> {
  const rows = isTotalKept(filter)
    ? await tx
        .select({ status: patientCounts.status, total: sql<number>`sum(${patientCounts.patients})::int` })
        .from(patientCounts)
        .where(countedWhere(filter))
        .groupBy(patientCounts.status)
    : await tx
        .select({ status: patients.status, total: count() })
        .from(patients)
        .where(conditionsOf(filter))
        .groupBy(patients.status);
  const counts: StatusCounts = { NORMAL: 0, AT_RISK: 0, HIGH_RISK: 0, SOS: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as PatientStatus] = row.total;
  return counts;
}
