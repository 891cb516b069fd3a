import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CODE_ALPHABET,
  CODE_ATTEMPTS_PER_DAY,
  CODE_LENGTH,
  type ActivationCode,
  type ActivationCodeListQuery,
  type CodePackage,
  type CodePackageInput,
  type CodePackageListQuery,
  type CodeState,
  type PatientSubscriptionsView,
  type RedeemCode,
} from '@rpm/contracts';
import { and, asc, count, desc, eq, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { activationAttempts, activationCodes, codePackages, servicePackages, users, type CodePackageRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { DAY } from '../../lib/clock.js';
import { xlsxStream, type XlsxValue } from '../../lib/xlsx.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import { findPackage, type PackageEnvironment } from './catalogue.js';
import { entitlementsOf, startSubscription, subscriptionHistory } from './subscriptions.js';
import { containsPattern } from '../../lib/like.js';

/**
 * Activation-code packages (spec §2 code package management, code list with export; §3 Code
 * package; §4 not paid → paid → used, locked; §8 wrong-code message) and the app's scratch-card
 * entry. The secret codes are random (crypto.randomInt over an alphabet without look-alikes),
 * stored only as an HMAC keyed by the server's secrets key and the tenant, and shown once: in the
 * spreadsheet answered when the batch is generated.
 */
export interface CodeEnvironment extends PackageEnvironment {
  secretsKey: Buffer;
}


export function newSecretCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length))).join('');
}

/** What people type: spaces and dashes dropped, upper case. */
export const normaliseCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

export function hashCode(secretsKey: Buffer, tenantId: string, code: string): string {
  return createHmac('sha256', secretsKey).update(`activation-code\0${tenantId}\0${normaliseCode(code)}`).digest('hex');
}

/** The printed form: groups of four, "ACDE-FGHJ-KMNP". */
export const printedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

const seriesOf = (prefix: string, number: number) => `${prefix}${String(number).padStart(6, '0')}`;

async function countsOf(tx: TenantTransaction, ids: string[]) {
  const empty = () => ({ NOT_PAID: 0, PAID: 0, USED: 0, LOCKED: 0 });
  const counts = new Map<string, Record<CodeState, number>>();
  if (ids.length === 0) return { get: (id: string) => counts.get(id) ?? empty() };
  const rows = await tx
    .select({ id: activationCodes.codePackageId, state: activationCodes.state, total: count() })
    .from(activationCodes)
    .where(inArray(activationCodes.codePackageId, ids))
    .groupBy(activationCodes.codePackageId, activationCodes.state);
  for (const row of rows) {
    const entry = counts.get(row.id) ?? empty();
    entry[row.state as CodeState] = row.total;
    counts.set(row.id, entry);
  }
  return { get: (id: string) => counts.get(id) ?? empty() };
}

async function toCodePackages(tx: TenantTransaction, rows: CodePackageRow[]): Promise<CodePackage[]> {
  const ids = rows.map((row) => row.id);
  const counts = await countsOf(tx, ids);
  const offers =
    rows.length === 0
      ? []
      : await tx
          .select()
          .from(servicePackages)
          .where(
            inArray(
              servicePackages.id,
              rows.map((row) => row.packageId),
            ),
          );
  return rows.map((row) => {
    const offer = offers.find((candidate) => candidate.id === row.packageId);
    if (offer === undefined) throw new Error('code package without its package');
    return {
      id: row.id,
      name: row.name,
      type: row.type as CodePackage['type'],
      prefix: row.prefix,
      totalCodes: row.totalCodes,
      availableFrom: row.availableFrom,
      expiresOn: row.expiresOn,
      purpose: row.purpose,
      benefit: row.benefit,
      package: {
        id: offer.id,
        code: offer.code,
        name: offer.name,
        level: offer.level as CodePackage['package']['level'],
        priceMinor: offer.priceMinor,
        currency: offer.currency as CodePackage['package']['currency'],
      },
      recipientOrganization: row.recipientOrganization,
      counts: counts.get(row.id),
      createdAt: row.createdAt.toISOString(),
    };
  });
}

/** GET /account/code-packages: paged, searchable (name, organisation, prefix), sortable. */
export function listCodePackages(environment: CodeEnvironment, query: CodePackageListQuery) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const where =
      query.search === undefined || query.search === ''
        ? undefined
        : or(
            ilike(codePackages.name, containsPattern(query.search)),
            ilike(codePackages.recipientOrganization, containsPattern(query.search)),
            ilike(codePackages.prefix, containsPattern(query.search)),
          );
    const direction = query.sortType === 'asc' ? asc : desc;
    const order: SQL[] =
      query.sortField === 'name'
        ? [direction(sql`lower(${codePackages.name})`)]
        : query.sortField === 'expires'
          ? [direction(codePackages.expiresOn)]
          : [direction(codePackages.createdAt)];
    const rows = await tx
      .select()
      .from(codePackages)
      .where(where)
      .orderBy(...order, asc(codePackages.id))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(codePackages).where(where);
    return { items: await toCodePackages(tx, rows), page: query.page, size: query.size, total: total?.total ?? 0 };
  });
}

/**
 * POST /account/code-packages: stores the batch and its codes (NOT_PAID), each with its series and
 * the HMAC of its random secret, and answers the spreadsheet of series and secrets: the only time
 * the secrets exist outside the printing. The package must match the type (a package or an
 * add-on). Audited (CODE_PACKAGE_CREATED, never a secret).
 */
export async function generateCodePackage(
  environment: CodeEnvironment,
  input: CodePackageInput,
): Promise<{ codePackage: CodePackage; fileName: string; file: NodeJS.ReadableStream }> {
  const { auth } = environment;
  const secrets: { series: string; code: string }[] = [];
  const codePackage = await withCaller(environment.database, auth, async (tx) => {
    const offer = await findPackage(tx, input.packageId);
    if (offer.kind !== input.type)
      throw new AppError('common.invalidParameter', { fieldErrors: [{ field: 'body.packageId', code: 'invalid_value', message: 'common.invalidParameter' }] });
    if (!offer.enabled) throw new AppError('package.disabled');
    const [taken] = await tx.select({ id: codePackages.id }).from(codePackages).where(eq(codePackages.prefix, input.prefix)).limit(1);
    if (taken !== undefined)
      throw new AppError('codePackage.prefixExists', { fieldErrors: [{ field: 'body.prefix', code: 'duplicate', message: 'codePackage.prefixExists' }] });
    const now = environment.clock.now();
    const id = uuidv7();
    const [row] = await tx
      .insert(codePackages)
      .values({ tenantId: auth.tenantId, id, ...input, createdBy: auth.userId, createdAt: now })
      .returning();
    if (row === undefined) throw new Error('code package not stored');
    const values = [];
    for (let number = 1; number <= input.totalCodes; number++) {
      const code = newSecretCode();
      const series = seriesOf(input.prefix, number);
      secrets.push({ series, code });
      values.push({ tenantId: auth.tenantId, id: uuidv7(), codePackageId: id, series, codeHash: hashCode(environment.secretsKey, auth.tenantId, code) });
    }
    for (let start = 0; start < values.length; start += 1000) await tx.insert(activationCodes).values(values.slice(start, start + 1000));
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'CODE_PACKAGE_CREATED',
      targetType: 'code_package',
      targetId: id,
      details: { name: input.name, prefix: input.prefix, totalCodes: input.totalCodes, packageId: offer.id, recipientOrganization: input.recipientOrganization },
      at: now,
    });
    const [created] = await toCodePackages(tx, [row]);
    if (created === undefined) throw new Error('code package not read back');
    return created;
  });
  const rows: XlsxValue[][] = secrets.map((entry) => [entry.series, printedCode(entry.code), codePackage.package.name, input.expiresOn]);
  return {
    codePackage,
    fileName: `codes-${input.prefix}.xlsx`,
    file: xlsxStream('Codes', [{ header: 'Series' }, { header: 'Code', width: 18 }, { header: 'Package', width: 24 }, { header: 'Expires' }], rows),
  };
}

async function existingPackage(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}): Promise<CodePackageRow> {
  const query = tx.select().from(codePackages).where(eq(codePackages.id, id)).limit(1);
  const [row] = options.lock === true ? await query.for('update') : await query;
  if (row === undefined) throw new AppError('codePackage.notFound');
  return row;
}

/** GET /account/code-packages/:id: one batch with its codes counted per state (never a secret). */
export function readCodePackage(environment: CodeEnvironment, id: string): Promise<CodePackage> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const [view] = await toCodePackages(tx, [await existingPackage(tx, id)]);
    if (view === undefined) throw new AppError('codePackage.notFound');
    return view;
  });
}

/** GET /account/code-packages/:id/codes: the batch's codes (series, state, dates; never a secret). */
export function listCodes(environment: CodeEnvironment, id: string, query: ActivationCodeListQuery) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    await existingPackage(tx, id);
    const where = and(
      eq(activationCodes.codePackageId, id),
      query.state === undefined ? undefined : eq(activationCodes.state, query.state),
      query.search === undefined || query.search === '' ? undefined : ilike(activationCodes.series, containsPattern(query.search.toUpperCase())),
    );
    const rows = await tx
      .select({ code: activationCodes, name: sql<string | null>`nullif(btrim(concat_ws(' ', ${users.firstName}, ${users.lastName})), '')` })
      .from(activationCodes)
      .leftJoin(users, and(eq(users.tenantId, activationCodes.tenantId), eq(users.id, activationCodes.activatedBy)))
      .where(where)
      .orderBy(asc(activationCodes.series))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(activationCodes).where(where);
    // The list names the accounts that used codes: a read of those patients.
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'ACTIVATION_CODES_LISTED',
      targetType: 'code_package',
      targetId: id,
      patientIds: rows.map(({ code }) => code.activatedFor),
    });
    const items: ActivationCode[] = rows.map(({ code, name }) => ({
      id: code.id,
      series: code.series,
      state: code.state as CodeState,
      purchasedAt: code.purchasedAt?.toISOString() ?? null,
      activatedAt: code.activatedAt?.toISOString() ?? null,
      activatedBy: code.activatedBy === null ? null : { id: code.activatedBy, fullName: name ?? '' },
    }));
    return { items, page: query.page, size: query.size, total: total?.total ?? 0 };
  });
}

/** GET /account/code-packages/:id/export: the code list as .xlsx (no secrets). Audited. */
export function exportCodes(environment: CodeEnvironment, id: string): Promise<{ fileName: string; file: NodeJS.ReadableStream }> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const batch = await existingPackage(tx, id);
    const rows = await tx
      .select()
      .from(activationCodes)
      .where(eq(activationCodes.codePackageId, id))
      .orderBy(asc(activationCodes.series));
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'CODE_PACKAGE_EXPORTED',
      targetType: 'code_package',
      targetId: id,
      details: { rows: rows.length },
    });
    const values: XlsxValue[][] = rows.map((row) => [row.series, row.state, row.purchasedAt, row.activatedAt, batch.recipientOrganization, batch.expiresOn]);
    return {
      fileName: `code-list-${batch.prefix}.xlsx`,
      file: xlsxStream(
        'Codes',
        [{ header: 'Series' }, { header: 'State' }, { header: 'Purchase date', width: 20 }, { header: 'Activated date', width: 20 }, { header: 'Recipient organization', width: 28 }, { header: 'Expires' }],
        values,
      ),
    };
  });
}

/**
 * PUT /account/code-packages/:id/state {action: markPaid}: every unpaid code of the batch becomes
 * PAID with its purchase date (the organisation paid). PUT /account/activation-codes/:id/state
 * {lock|unlock}: one code is locked (refused when entered) or returns to what it was. A used code
 * stays used. Audited.
 */
export function changeCodeState(
  environment: CodeEnvironment,
  target: { codePackageId: string } | { codeId: string },
  action: 'markPaid' | 'lock' | 'unlock',
): Promise<CodePackage> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    if ('codePackageId' in target) {
      const batch = await existingPackage(tx, target.codePackageId, { lock: true });
      if (action !== 'markPaid') throw new AppError('common.invalidParameter');
      const paid = await tx
        .update(activationCodes)
        .set({ state: 'PAID', purchasedAt: now })
        .where(and(eq(activationCodes.codePackageId, batch.id), eq(activationCodes.state, 'NOT_PAID')))
        .returning({ id: activationCodes.id });
      await recordAudit(tx, auth.tenantId, environment.audit, { action: 'CODE_PACKAGE_PAID', targetType: 'code_package', targetId: batch.id, details: { codes: paid.length }, at: now });
      const [view] = await toCodePackages(tx, [batch]);
      if (view === undefined) throw new AppError('codePackage.notFound');
      return view;
    }
    const [code] = await tx.select().from(activationCodes).where(eq(activationCodes.id, target.codeId)).limit(1).for('update');
    if (code === undefined) throw new AppError('codePackage.notFound');
    if (action === 'lock' && (code.state === 'NOT_PAID' || code.state === 'PAID'))
      await tx.update(activationCodes).set({ state: 'LOCKED', lockedFrom: code.state }).where(eq(activationCodes.id, code.id));
    else if (action === 'unlock' && code.state === 'LOCKED')
      await tx.update(activationCodes).set({ state: code.lockedFrom ?? 'NOT_PAID', lockedFrom: null }).where(eq(activationCodes.id, code.id));
    else if (action === 'markPaid' || code.state === 'USED') throw new AppError('activationCode.unavailable');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: action === 'lock' ? 'ACTIVATION_CODE_LOCKED' : 'ACTIVATION_CODE_UNLOCKED',
      targetType: 'activation_code',
      targetId: code.id,
      details: { series: code.series },
      at: now,
    });
    const [view] = await toCodePackages(tx, [await existingPackage(tx, code.codePackageId)]);
    if (view === undefined) throw new AppError('codePackage.notFound');
    return view;
  });
}

async function refuse(
  environment: CodeEnvironment,
  series: string,
  code: 'activationCode.wrong' | 'activationCode.unavailable' | 'activationCode.used',
): Promise<never> {
  const { auth } = environment;
  const now = environment.clock.now();
  await environment.database.withTenant(auth.tenantId, async (tx) => {
    await tx.insert(activationAttempts).values({ tenantId: auth.tenantId, id: uuidv7(), userId: auth.userId, series: series.slice(0, 32), succeeded: false, attemptedAt: now });
    await recordAudit(tx, auth.tenantId, environment.audit, { action: 'ACTIVATION_CODE_REFUSED', targetType: 'activation_code', targetId: series.slice(0, 32), details: { reason: code }, at: now });
  });
  throw new AppError(code);
}

/**
 * POST /health/me/codes/redeem: the app's scratch-card entry. The series and the code must match
 * (activationCode.wrong, "scratch card code or security code incorrect", for an unknown series or a
 * wrong code alike); the code must be PAID and within its dates (activationCode.unavailable), not
 * used (activationCode.used). Each refusal counts; CODE_ATTEMPTS_PER_DAY within a day refuse every
 * code, even a right one, until a day has passed (activationCode.tooManyAttempts). A right code
 * becomes USED and starts the batch's package for the profile (own record or a sub-user held), in
 * one transaction, audited.
 */
export async function redeemCode(environment: CodeEnvironment, input: RedeemCode): Promise<PatientSubscriptionsView> {
  const { auth } = environment;
  if (auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  const patientId = await withCaller(environment.database, auth, async (tx) => {
    const profile = await requireProfile(tx, auth);
    assertProfileWritable(profile);
    return profile.patientId;
  });
  const now = environment.clock.now();
  const series = normaliseCode(input.series);
  const outcome = await environment.database.withTenant(auth.tenantId, async (tx) => {
    const [wrong] = await tx
      .select({ total: count() })
      .from(activationAttempts)
      .where(
        and(
          eq(activationAttempts.userId, auth.userId),
          eq(activationAttempts.succeeded, false),
          gte(activationAttempts.attemptedAt, new Date(now.getTime() - DAY)),
        ),
      );
    if ((wrong?.total ?? 0) >= CODE_ATTEMPTS_PER_DAY) return { refused: 'activationCode.tooManyAttempts' as const };
    const [row] = await tx
      .select({ code: activationCodes, batch: codePackages })
      .from(activationCodes)
      .innerJoin(codePackages, and(eq(codePackages.tenantId, activationCodes.tenantId), eq(codePackages.id, activationCodes.codePackageId)))
      .where(eq(activationCodes.series, series))
      .limit(1)
      .for('update', { of: activationCodes });
    const expected = Buffer.from(row?.code.codeHash ?? '0'.repeat(64), 'hex');
    const given = Buffer.from(hashCode(environment.secretsKey, auth.tenantId, input.code), 'hex');
    if (row === undefined || !timingSafeEqual(expected, given)) return { refused: 'activationCode.wrong' as const };
    if (row.code.state === 'USED') return { refused: 'activationCode.used' as const };
    const today = now.toISOString().slice(0, 10);
    if (row.code.state !== 'PAID' || today < row.batch.availableFrom || today > row.batch.expiresOn)
      return { refused: 'activationCode.unavailable' as const };
    await tx
      .update(activationCodes)
      .set({ state: 'USED', activatedAt: now, activatedFor: patientId, activatedBy: auth.userId })
      .where(eq(activationCodes.id, row.code.id));
    await tx.insert(activationAttempts).values({ tenantId: auth.tenantId, id: uuidv7(), userId: auth.userId, series, succeeded: true, attemptedAt: now });
    await startSubscription(tx, {
      tenantId: auth.tenantId,
      patientId,
      packageId: row.batch.packageId,
      source: 'CODE',
      receiptId: series,
      actorId: auth.userId,
      audit: environment.audit,
      now,
    });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'ACTIVATION_CODE_USED',
      targetType: 'activation_code',
      targetId: row.code.id,
      details: { series, patientId, codePackageId: row.batch.id },
      at: now,
    });
    return { refused: null };
  });
  if (outcome.refused === 'activationCode.tooManyAttempts') throw new AppError(outcome.refused);
  if (outcome.refused !== null) return refuse(environment, series, outcome.refused);
  return withCaller(environment.database, auth, async (tx) => ({
    entitlements: await entitlementsOf(tx, patientId),
    history: await subscriptionHistory(tx, patientId),
  }));
}
