import { IDENTIFIER_REQUIRED_MESSAGE, patientCreateSchema, type PatientCreate } from '@rpm/contracts';
import { resources, type SupportedLanguage } from '@rpm/i18n';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import type { z } from 'zod';
import type { TenantTransaction } from '../../db/database.js';
import { type patients } from '../../db/schema.js';
import type {
  ImportCell,
  ImportContext,
  ImportKind,
  NumberedRow,
  ParsedRow,
  RowFailure,
} from '../imports/kind.js';
import * as store from './store.js';
import { flushSearchTerms } from './search-backlog.js';

/** The template's columns, in order (never translated: an uploaded file must match them exactly). */
export const PATIENT_IMPORT_HEADERS = [
  'Patient ID',
  'First name',
  'Last name',
  'Birthday (dd/MM/yyyy)',
  'Gender',
  'Phone',
  'Email',
  'Height (cm)',
  'Weight (kg)',
  'Blood type',
  'Address',
  'Health center',
  'Contract ID',
] as const;

/** Which input field each column fills (for the reasons, which name the column). */
const FIELD_COLUMNS: Record<string, string> = {
  patientCode: 'Patient ID',
  firstName: 'First name',
  lastName: 'Last name',
  birthday: 'Birthday (dd/MM/yyyy)',
  gender: 'Gender',
  phone: 'Phone',
  email: 'Email',
  heightCm: 'Height (cm)',
  weightKg: 'Weight (kg)',
  bloodType: 'Blood type',
  address: 'Address',
  healthCenterId: 'Health center',
  contractId: 'Contract ID',
};

/** A valid row: the create input (without a center id) and the health center's name. */
export interface PatientImportRow {
  input: PatientCreate;
  centerName: string | null;
}

type Reasons = (typeof resources)['en']['patients']['import']['reasons'];

function reasonText(
  language: SupportedLanguage,
  key: keyof Reasons,
  values: Record<string, string | number> = {},
): string {
  const template = resources[language].patients.import.reasons[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

const text = (cell: ImportCell | undefined): string | null => {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  const value = String(cell).trim();
  return value === '' ? null : value;
};

/** A date typed as dd/MM/yyyy (one or two digits for day and month). */
const DAY_MONTH_YEAR = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A sheet date (a Date cell, or dd/MM/yyyy text) as yyyy-MM-dd; an unreadable one is kept for the schema to refuse. */
export function isoDateOf(cell: ImportCell | undefined): string | null {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return 'invalid';
    return cell.toISOString().slice(0, 10);
  }
  const value = text(cell);
  if (value === null) return null;
  const match = DAY_MONTH_YEAR.exec(value);
  if (match === null) return value;
  const [, day = '', month = '', year = ''] = match;
  // 31/02/2000 is not a date, even though Date would roll it over. Checked with the calendar's
  // rules rather than by a round trip through Date, which cost more than the rest of the row.
  return isCalendarDay(Number(year), Number(month), Number(day))
    ? `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`
    : value;
}

/** Whether year-month-day names a day of the (proleptic) Gregorian calendar. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const isLeap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days =
    month === 2 ? (isLeap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

/** Text in the dd/MM/yyyy shape that names no day of the calendar (31/02/1980, 12/13/2000). */
function isImpossibleDate(cell: ImportCell | undefined, iso: string | null): boolean {
  if (cell instanceof Date) return Number.isNaN(cell.getTime());
  const value = text(cell);
  return value !== null && DAY_MONTH_YEAR.test(value) && iso === value;
}

const GENDER_WORDS: Record<string, 'MALE' | 'FEMALE' | 'OTHER'> = {
  male: 'MALE',
  m: 'MALE',
  nam: 'MALE',
  female: 'FEMALE',
  f: 'FEMALE',
  nữ: 'FEMALE',
  nu: 'FEMALE',
  other: 'OTHER',
  khác: 'OTHER',
  khac: 'OTHER',
};

function numberOf(cell: ImportCell | undefined): number | string | null {
  if (typeof cell === 'number') return cell;
  const value = text(cell);
  if (value === null) return null;
  const parsed = Number(value.replace(',', '.'));
  return Number.isFinite(parsed) ? parsed : value;
}

function reasonOf(issue: z.core.$ZodIssue, language: SupportedLanguage): string {
  const field = FIELD_COLUMNS[String(issue.path[0] ?? '')] ?? String(issue.path[0] ?? '');
  const say = (key: keyof Reasons) => reasonText(language, key, { field });
  switch (issue.message) {
    case IDENTIFIER_REQUIRED_MESSAGE:
      return say('identifierRequired');
    case 'must not contain digits':
      return say('nameDigits');
    case 'must not be in the future':
      return say('dateFuture');
    case 'must be at least 18 years ago':
      return say('underage');
    case 'must be 3 to 16 digits':
      return say('phoneInvalid');
    default:
      break;
  }
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? say('required') : say('invalid');
    case 'invalid_format':
      if (issue.format === 'email') return say('emailInvalid');
      if (issue.format === 'date') return say('dateInvalid');
      return say('invalid');
    case 'too_small':
      return issue.origin === 'string' ? say('required') : say('range');
    case 'too_big':
      return issue.origin === 'string' ? say('tooLong') : say('range');
    case 'invalid_value':
      return say('chooseOne');
    default:
      return say('invalid');
  }
}

/**
 * One row, checked with exactly the create rules (patientCreateSchema): every reason it is refused
 * for, in the importing user's language. The health center is resolved later, by name.
 */
export function parsePatientRow(
  cells: readonly ImportCell[],
  language: SupportedLanguage,
): ParsedRow<PatientImportRow> {
  const [
    code,
    firstName,
    lastName,
    birthday,
    gender,
    phone,
    email,
    height,
    weight,
    bloodType,
    address,
    center,
    contractId,
  ] = cells;
  const genderText = text(gender);
  const birthdayIso = isoDateOf(birthday);
  const candidate = {
    patientCode: text(code),
    firstName: text(firstName) ?? undefined,
    lastName: text(lastName) ?? undefined,
    birthday: birthdayIso ?? undefined,
    gender:
      genderText === null ? undefined : (GENDER_WORDS[genderText.toLowerCase()] ?? genderText.toUpperCase()),
    phone: text(phone),
    email: text(email),
    heightCm: numberOf(height),
    weightKg: numberOf(weight),
    bloodType: text(bloodType)?.toUpperCase() ?? null,
    address: { line: text(address) ?? '' },
    contractId: text(contractId),
  };
  const parsed = patientCreateSchema.safeParse(candidate);
  // One reason per cell, the most specific: a date that does not exist is only that, not also
  // "in the future" and "under 18" (which the schema adds for a value it cannot read as a date).
  const reasonsByCell = new Map<string, string>();
  if (isImpossibleDate(birthday, birthdayIso))
    reasonsByCell.set(
      'birthday',
      reasonText(language, 'dateNotReal', { field: FIELD_COLUMNS.birthday ?? '' }),
    );
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const cell = String(issue.path[0] ?? '');
    if (!reasonsByCell.has(cell)) reasonsByCell.set(cell, reasonOf(issue, language));
  }
  if (!parsed.success || reasonsByCell.size > 0) {
    return { ok: false, reasons: [...new Set(reasonsByCell.values())] };
  }
  return { ok: true, value: { input: parsed.data, centerName: text(center) } };
}

/** The caller's centers by lower-case name (only those the import's transaction sees). */
async function centersByName(tx: TenantTransaction, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await tx.execute<{ id: string; name: string }>(
    sql`SELECT id, lower(name) AS name FROM health_centers WHERE lower(name) = ANY (${sql.param(names)}::text[])`,
  );
  return new Map(rows.rows.map((row) => [row.name, row.id]));
}

const INSERT_CHUNK = 1000;

const IDENTIFIERS = [
  { kind: 'code', field: 'patientCode', reason: 'codeExists' },
  { kind: 'phone', field: 'phone', reason: 'phoneExists' },
  { kind: 'email', field: 'email', reason: 'emailExists' },
  { kind: 'contract', field: 'contractId', reason: 'contractIdExists' },
] as const;

/** How an identifier is compared: emails without regard to case. */
const identifierKey = (kind: (typeof IDENTIFIERS)[number]['kind'], raw: string) =>
  `${kind}:${kind === 'email' ? raw.toLowerCase() : raw}`;

interface AcceptedRow {
  rowNumber: number;
  input: PatientCreate;
  centerId: string | null;
}

interface Judgement {
  /** Refused rows and their reasons, in row order. */
  failures: Map<number, string[]>;
  accepted: AcceptedRow[];
}

/**
 * The checks of a batch that need no more than its rows: the health center (by name, else the
 * upload's default), identifiers `taken` by patients the caller sees, and identifiers repeated
 * from an earlier accepted row of the batch; every reason of a row, per field.
 */
function judgeBatch(
  rows: readonly NumberedRow<PatientImportRow>[],
  centers: Map<string, string>,
  context: ImportContext,
  taken: ReadonlySet<string>,
): Judgement {
  const { language } = context;
  const failures = new Map<number, string[]>();
  const fail = (rowNumber: number, reason: string) =>
    failures.set(rowNumber, [...(failures.get(rowNumber) ?? []), reason]);
  // A row without a health center goes to the one chosen with the upload, else it is refused: a
  // patient stored without a center would be seen by nobody but the tenant's admins.
  const defaultCenter = context.defaultHealthCenterId;
  const seen = new Map<string, number>();
  const accepted: AcceptedRow[] = [];
  for (const { rowNumber, value } of rows) {
    let centerId: string | null = null;
    if (value.centerName !== null) {
      const found = centers.get(value.centerName.toLowerCase());
      if (found === undefined)
        fail(rowNumber, reasonText(language, 'centerNotFound', { name: value.centerName }));
      else centerId = found;
    } else if (defaultCenter === null) {
      fail(rowNumber, reasonText(language, 'centerRequired'));
    } else {
      centerId = defaultCenter;
    }
    for (const identifier of IDENTIFIERS) {
      const raw = value.input[identifier.field];
      if (raw === null || raw === undefined) continue;
      const key = identifierKey(identifier.kind, raw);
      if (taken.has(key)) {
        fail(rowNumber, reasonText(language, identifier.reason, { value: raw }));
        continue;
      }
      const earlier = seen.get(key);
      if (earlier !== undefined)
        fail(
          rowNumber,
          reasonText(language, 'duplicateInFile', {
            field: FIELD_COLUMNS[identifier.field] ?? identifier.field,
            row: earlier,
          }),
        );
    }
    if (!failures.has(rowNumber)) {
      for (const identifier of IDENTIFIERS) {
        const raw = value.input[identifier.field];
        if (raw !== null && raw !== undefined) seen.set(identifierKey(identifier.kind, raw), rowNumber);
      }
      accepted.push({ rowNumber, input: value.input, centerId });
    }
  }
  return { failures, accepted };
}

/** The identifiers of these rows that belong to a patient the caller sees, as identifierKey keys. */
async function takenIdentifiers(
  tx: TenantTransaction,
  rows: readonly { input: PatientCreate }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const existing = await store.existingIdentifiers(tx, {
    codes: rows.map((row) => row.input.patientCode).filter((value) => value !== null && value !== undefined),
    phones: rows.map((row) => row.input.phone).filter((value) => value !== null && value !== undefined),
    emails: rows.map((row) => row.input.email?.toLowerCase()).filter((value) => value !== undefined),
    contractIds: rows
      .map((row) => row.input.contractId)
      .filter((value) => value !== null && value !== undefined),
  });
  return new Set(existing.map((row) => `${row.kind}:${row.value}`));
}

/**
 * Gives codes (one sequence update) and inserts the accepted rows with multi-row INSERTs. A row
 * the unique indexes refuse is not stored and returned ('skip'), or fails the insert ('fail').
 */
async function storeAccepted(
  tx: TenantTransaction,
  accepted: readonly AcceptedRow[],
  context: ImportContext,
  onClash: 'skip' | 'fail',
): Promise<{ rowNumber: number; row: Omit<typeof patients.$inferInsert, 'tenantId'> }[]> {
  const { tenantId } = context;
  const givenCodes = accepted
    .map((row) => row.input.patientCode)
    .filter((code) => code !== null && code !== undefined);
  await store.advancePatientCodesPast(tx, tenantId, givenCodes);
  const generated = await store.allocatePatientCodes(tx, tenantId, accepted.length - givenCodes.length);
  let nextGenerated = 0;
  const now = context.clock.now();
  const values = accepted.map(({ rowNumber, input, centerId }) => {
    const patientCode = input.patientCode ?? generated[nextGenerated++] ?? '';
    return {
      rowNumber,
      row: {
        id: uuidv7(),
        patientCode,
        firstName: input.firstName,
        middleName: input.middleName,
        lastName: input.lastName,
        birthday: input.birthday,
        gender: input.gender,
        phone: input.phone ?? null,
        email: input.email ?? null,
        heightCm: input.heightCm ?? null,
        weightKg: input.weightKg ?? null,
        bloodType: input.bloodType ?? null,
        addressLine: input.address.line,
        healthCenterId: centerId,
        contractId: input.contractId ?? null,
      } satisfies Omit<typeof patients.$inferInsert, 'tenantId'>,
    };
  });
  const refused: typeof values = [];
  for (let start = 0; start < values.length; start += INSERT_CHUNK) {
    const chunk = values.slice(start, start + INSERT_CHUNK);
    const stored = await store.insertImportedPatients(
      tx,
      { tenantId, createdAt: now },
      chunk.map((entry) => entry.row),
      onClash,
    );
    for (const entry of chunk) if (!stored.has(entry.row.id)) refused.push(entry);
  }
  return refused;
}

/** A unique index refused a row (PostgreSQL 23505), possibly wrapped by the query layer. */
function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause)
    if (current instanceof pg.DatabaseError && current.code === '23505') return true;
  return false;
}

/**
 * Stores a batch: resolves health centers by name (an empty cell: the upload's default center),
 * refuses duplicates (in the tenant as far as the caller sees, and earlier in the same batch, per
 * row and field), gives generated codes from one sequence update, and inserts the rest with
 * multi-row INSERTs. A clash with a record outside the caller's centers is still caught by the
 * unique indexes (ON CONFLICT DO NOTHING) and reported.
 *
 * Most batches clash with nothing stored, so the batch is first judged as if no identifier were
 * taken, and only the identifiers of the rows refused anyway (a center, a repeat) are looked up.
 * When none of the accepted rows' identifiers is among those and the unique indexes then refuse
 * none of them (the indexes cover code, phone, email and contract id over the whole tenant), no
 * identifier of an accepted row is taken, and the judgement is exactly the one a lookup of every
 * identifier first would give (the same rows accepted in the same order, the refused rows with
 * their reasons). That insert has no ON CONFLICT: a clash fails it (cheaper for PostgreSQL when
 * nothing clashes), the insert is undone (savepoint) and the batch is judged the full way: every
 * identifier looked up, then stored with ON CONFLICT DO NOTHING, a row clashing with a record the
 * caller does not see reported as already existing.
 */
export async function insertPatientBatch(
  tx: TenantTransaction,
  rows: readonly NumberedRow<PatientImportRow>[],
  context: ImportContext,
): Promise<RowFailure[]> {
  const names = [
    ...new Set(rows.map((row) => row.value.centerName?.toLowerCase()).filter((name) => name !== undefined)),
  ];
  // The batch's search terms are written when the import ends, in one sorted pass (migration 0065).
  await tx.execute(sql`SELECT set_config('app.search_terms', 'deferred', true)`);
  const centers = await centersByName(tx, names);
  const failuresOf = (judgement: Judgement) =>
    [...judgement.failures].map(([rowNumber, reasons]) => ({ rowNumber, reasons }));

  const guess = judgeBatch(rows, centers, context, new Set());
  const refusedAnyway = rows.filter((row) => guess.failures.has(row.rowNumber)).map((row) => row.value);
  const takenByRefused = await takenIdentifiers(tx, refusedAnyway);
  const acceptedClash = guess.accepted.some((row) =>
    IDENTIFIERS.some((identifier) => {
      const raw = row.input[identifier.field];
      return raw !== null && raw !== undefined && takenByRefused.has(identifierKey(identifier.kind, raw));
    }),
  );
  if (!acceptedClash) {
    await tx.execute(sql`SAVEPOINT patient_import_batch`);
    try {
      await storeAccepted(tx, guess.accepted, context, 'fail');
      await tx.execute(sql`RELEASE SAVEPOINT patient_import_batch`);
      return failuresOf(
        takenByRefused.size === 0 ? guess : judgeBatch(rows, centers, context, takenByRefused),
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await tx.execute(sql`ROLLBACK TO SAVEPOINT patient_import_batch`);
      await tx.execute(sql`RELEASE SAVEPOINT patient_import_batch`);
    }
  }

  const judgement = judgeBatch(
    rows,
    centers,
    context,
    await takenIdentifiers(
      tx,
      rows.map((row) => row.value),
    ),
  );
  for (const entry of await storeAccepted(tx, judgement.accepted, context, 'skip')) {
    const reason = reasonText(context.language, 'alreadyExists', {
      value: [entry.row.patientCode, entry.row.phone, entry.row.email, entry.row.contractId]
        .filter(Boolean)
        .join(' / '),
    });
    judgement.failures.set(entry.rowNumber, [...(judgement.failures.get(entry.rowNumber) ?? []), reason]);
  }
  return failuresOf(judgement);
}

/** Bulk patient import: the template's columns and the §5 rules for one row. */
export const patientImportKind: ImportKind<PatientImportRow> = {
  kind: 'PATIENT',
  headers: PATIENT_IMPORT_HEADERS,
  exampleRows: [
    [
      '',
      'An',
      'Nguyen',
      '15/04/1960',
      'MALE',
      '0981234567',
      'an.nguyen@example.com',
      168,
      62.5,
      'O+',
      '12 Le Loi, District 1, Ho Chi Minh City',
      '',
      '',
    ],
  ],
  parseRow: (cells, context) => parsePatientRow(cells, context.language),
  insertBatch: insertPatientBatch,
  finish: flushSearchTerms,
  // A flush of 100,000 patients' terms takes a few seconds, while the batches go on.
  finishEveryRows: 100_000,
};
