import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { DEMO_LOGINS, openInApp, trackRequests } from './support/console-pages.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE } from './support/harness.js';
import { useConsoleSuite } from './support/suite.js';

/**
 * The console in Vietnamese, walked as every demo role: sign in through the Vietnamese login page,
 * open every page of the role's navigation, and find on each page no raw message key (a text such
 * as "monitoring.sos.title": a string missing from the catalogue) and no English word that the
 * English catalogue uses and the Vietnamese one does not (a string left untranslated, a unit, an
 * enum shown as stored).
 */

const LOCALES = path.resolve(import.meta.dirname, '../packages/i18n/locales');

type Catalogue = Record<string, unknown>;

function readCatalogues(language: 'en' | 'vi'): Record<string, Catalogue> {
  const directory = path.join(LOCALES, language);
  return Object.fromEntries(
    readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as Catalogue]),
  );
}

function textsOf(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(textsOf);
  if (typeof node === 'object' && node !== null) return Object.values(node).flatMap(textsOf);
  return [];
}

function keysOf(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => keysOf(value, prefix ? `${prefix}.${key}` : key));
}

/** Words as people read them: letters only, interpolations ({{name}}) and markup left out. */
function wordsOf(text: string): string[] {
  return text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .split(/[^\p{L}]+/u)
    .filter((word) => word !== '');
}

const en = readCatalogues('en');
const vi = readCatalogues('vi');
const viWords = new Set(Object.values(vi).flatMap(textsOf).flatMap(wordsOf).map((word) => word.toLowerCase()));

/**
 * English words that may appear on a Vietnamese page, each with its reason. Short on purpose:
 * anything else English on a Vietnamese page is a string to translate.
 */
const ALLOWED_ENGLISH: Record<string, string> = {
  demo: 'the demo tenant, its centers and its people are named "Demo …" in the seeded data',
  example: 'demo logins and addresses are at demo.example',
  google: 'brand name (sign-in and maps)',
  zalo: 'brand name (messaging channel)',
  apple: 'brand name',
  android: 'brand name',
  excel: 'brand name (export format)',
  vietnam: 'country name as stored',
  canada: 'country name as stored',
};

/** Distinctive English: words of the English catalogue (three letters or more) the Vietnamese one never uses. */
const englishWords = new Set(
  Object.values(en)
    .flatMap(textsOf)
    .flatMap(wordsOf)
    .map((word) => word.toLowerCase())
    .filter((word) => word.length >= 3 && !viWords.has(word) && !(word in ALLOWED_ENGLISH)),
);

const messageKeys = new Set(
  Object.entries(en).flatMap(([namespace, catalogue]) =>
    keysOf(catalogue).flatMap((key) => [key, `${namespace}:${key}`, `${namespace}.${key}`]),
  ),
);
/** A key i18next shows when it finds no message: camelCase segments joined by dots. */
const KEY_SHAPE = /(?<![@\w.])[a-z][a-zA-Z0-9]*(?::[a-z][a-zA-Z0-9]*)?(?:\.[a-zA-Z][a-zA-Z0-9_]*)+(?![\w@])/g;
/** Dotted words that are not message keys: host names and file names. */
const NOT_A_KEY = /\.(example|com|vn|org|net|local|xlsx|xls|csv|png|jpe?g|gif|webp|pdf|json|txt)$/i;

function rawKeysIn(text: string): string[] {
  return [...text.matchAll(KEY_SHAPE)]
    .map((match) => match[0])
    .filter((token) => messageKeys.has(token) || (!NOT_A_KEY.test(token) && token.split(/[.:]/).every((segment) => segment.length >= 2)));
}

/**
 * What people typed is shown as typed: the demo data (names of organisations, centers and people,
 * ticket subjects, request messages) is in English. Every stored text with a lowercase letter is
 * taken out of the page before it is read; codes (upper case, such as ALERT_NO_DATA) stay in, as
 * a code on the page is an enum left untranslated. The cost: a default name kept in a table and
 * shown untranslated is not seen here. Identifiers people choose (a package's code, such as
 * SILVER1) are taken out whatever their case: they are names, not enums. Longest first, so that a
 * longer text is taken out whole.
 */
const IDENTIFIER_COLUMNS: readonly (readonly [table: string, column: string])[] = [['service_packages', 'code']];

async function storedTexts(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columns = await client.query<{ tableName: string; columnName: string }>(
      `SELECT c.relname AS "tableName", a.attname AS "columnName"
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND a.attnum > 0 AND NOT a.attisdropped AND a.atttypid IN ('text'::regtype, 'varchar'::regtype)`,
    );
    const values = new Set<string>();
    for (const { tableName, columnName } of columns.rows) {
      const identifier = IDENTIFIER_COLUMNS.some(([table, column]) => table === tableName && column === columnName);
      const rows = await client.query<{ value: string }>(
        `SELECT DISTINCT ${pg.escapeIdentifier(columnName)} AS value FROM ${pg.escapeIdentifier(tableName)}
          WHERE (${identifier ? 'true' : `${pg.escapeIdentifier(columnName)} ~ '[a-z]'`})
            AND length(${pg.escapeIdentifier(columnName)}) BETWEEN 2 AND 300 LIMIT 20000`,
      );
      for (const { value } of rows.rows) values.add(value.trim());
    }
    return [...values].filter((value) => value !== '').sort((first, second) => second.length - first.length);
  } finally {
    await client.end();
  }
}

/**
 * The page's text without the stored texts in it, each as a whole word or phrase. Only the stored
 * texts found in the page go into the pattern (one that is not in the text cannot match), so the
 * pattern is a handful of alternatives rather than every text in the database.
 */
function withoutStoredTexts(text: string, values: readonly string[]): string {
  const present = values.filter((value) => text.includes(value));
  if (present.length === 0) return text;
  const escaped = present.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'gu'), ' ');
}

/** What a person reads on the page: its visible text, plus placeholders, labels for assistive tech and titles. */
function readablePage(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = Array.from(document.querySelectorAll('[placeholder], [aria-label], [title]'))
      // Hidden helpers (a textarea's autosize twin) are not read by anyone.
      .filter((element) => element.closest('[aria-hidden="true"]') === null)
      .flatMap((element) => ['placeholder', 'aria-label', 'title'].map((name) => element.getAttribute(name) ?? ''));
    return [document.title, document.body.innerText, ...attributes].join('\n');
  });
}

let storedData: readonly string[];

function findProblems(pageText: string, where: string): string[] {
  const text = withoutStoredTexts(pageText.replace(/\S+@\S+/g, ' '), storedData);
  const problems = rawKeysIn(text).map((key) => `${where}: raw message key "${key}"`);
  const english = new Set(wordsOf(text).filter((word) => englishWords.has(word.toLowerCase())));
  for (const word of english) {
    const line = text.split('\n').find((candidate) => new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'u').test(candidate)) ?? '';
    problems.push(`${where}: English "${word}" in "${line.trim().slice(0, 120)}"`);
  }
  return problems;
}

const viCommon = vi.common as { login: Record<'tenantCode' | 'username' | 'password' | 'submit', string>; home: Record<'welcome', string> };

const suite = useConsoleSuite();

const visited = new Set<string>();
let roles = 0;

afterAll(() => {
  console.log(`Vietnamese walk: ${String(roles)} roles signed in, ${String(visited.size)} distinct routes visited`);
});

it.each(DEMO_LOGINS)('%s reads its whole console in Vietnamese: no raw message key, no untranslated English', { timeout: 300_000, retry: 0 }, async (login, area) => {
  expect(englishWords.size).toBeGreaterThan(200);
  const problems: string[] = [];
  // Read again for each role: the jobs keep writing (no-data alerts and their messages). Read while
  // the browser opens the login page; needed from the first page read on.
  const storedRead = storedTexts(suite.server.databaseUrl);
  storedRead.catch(() => undefined);
  const page = await suite.driver.openPage({ locale: 'vi-VN' });
  trackRequests(page);
  await page.addInitScript(() => {
    localStorage.setItem('rpm.console.language', 'vi');
  });
  await page.goto('/login');
  await page.getByRole('textbox', { name: viCommon.login.tenantCode }).fill(DEMO_TENANT_CODE);
  await page.getByTestId('tenant-name').filter({ hasText: await suite.driver.demoTenantName() }).waitFor();
  storedData = await storedRead;
  problems.push(...findProblems(await readablePage(page), '/login'));
  await page.getByLabel(viCommon.login.username).fill(login);
  await page.getByLabel(new RegExp(`^${viCommon.login.password}`)).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: viCommon.login.submit }).click();
  await page.waitForURL(`**/${area}`);
  const welcome = viCommon.home.welcome.replace('{{name}}', '');
  await page.getByRole('heading', { name: new RegExp(`^${welcome}`) }).waitFor();
  roles++;

  const links = await page
    .getByRole('navigation')
    .getByRole('link')
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  const routes = [...new Set([`/${area}`, ...links.filter((link) => link.startsWith(`/${area}`))])];
  expect(routes.length).toBeGreaterThan(1);
  // Each page is opened as the navigation opens it, inside the running console (the startup
  // sequence ran once, at sign-in), and read once its calls are done and no loader spins; the
  // server is asked for the address too, as a reload would.
  for (const route of routes) {
    const response = await page.request.get(route);
    if (response.status() >= 500) {
      problems.push(`${route}: the page answered ${String(response.status())}`);
      continue;
    }
    await openInApp(page, route);
    visited.add(route);
    problems.push(...findProblems(await readablePage(page), route));
  }
  expect([...new Set(problems)]).toEqual([]);
});
