import pg from 'pg';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startTestServer } from './console.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, type RunningServer } from './harness.js';
import { startMailCatcher, type MailCatcher } from './mail.js';

export { screenshot } from './console.js';

/** The patient app's browser tests: a phone at 390×844 with touch, the demo patient, their set-up. */
export const PHONE = { width: 390, height: 844 } as const;

/** The demo tenant's patient (seeded with every server). */
export const DEMO_PATIENT = 'patient@demo.example';

/** A phone's browser context (own cookies and storage): 390×844, touch, British English. */
export function newPhoneContext(browser: Browser, baseUrl: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: baseUrl, locale: 'en-GB', ...options });
}

/**
 * Opens the app, which sends a visitor to its login page, and logs in by password with the demo
 * tenant's code, as a person would; does not wait for the outcome (a refusal stays on the page).
 */
export async function submitPatientLogin(page: Page, username = DEMO_PATIENT, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/app/');
  await page.waitForURL('**/app/login');
  await page.getByLabel('Tenant code').fill(DEMO_TENANT_CODE);
  await page.getByLabel('Email or phone number').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).tap();
}

/** Logs the demo patient (or `username`) in and waits for the app's home page. */
export async function logInPatient(page: Page, username = DEMO_PATIENT): Promise<void> {
  await submitPatientLogin(page, username);
  await page.waitForURL(/\/app\/?$/);
}

/** The page's full width: at most the phone's when nothing overflows sideways. */
export function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Rows from the server's own database, as the superuser: for preparing and checking what was stored. */
export async function queryDatabase<T extends pg.QueryResultRow>(server: RunningServer, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** What a patient-app test file works with; read its fields inside tests and hooks, not at load time. */
export interface PhoneSuite {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The server's SMTP server; only when the suite was started `withMail`. */
  readonly mail: MailCatcher;
  /** A fresh phone, closed after the test that opened it. */
  openPhone(options?: BrowserContextOptions): Promise<Page>;
  /** A phone kept for the whole file (open it in `beforeAll`), closed after the file. */
  keepPhone(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * The set-up the patient app's browser tests share: one real server (sending its mail to a catcher
 * when `withMail`) and one headless Chromium (with any extra flags) for the file; phones opened in a
 * test are closed after it, everything else after the file. Call it at the top of a file, before
 * the file's own hooks (they then run after the server and browser are up).
 */
export function usePhoneSuite(options: { withMail?: boolean; browserArgs?: readonly string[] } = {}): PhoneSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let mail: MailCatcher | undefined;
  const testPhones: BrowserContext[] = [];
  const filePhones: BrowserContext[] = [];

  beforeAll(async () => {
    if (options.withMail) mail = await startMailCatcher();
    server = await startTestServer(mail ? { SMTP_URL: mail.url } : {});
    browser = await launchBrowser(options.browserArgs);
  });
  afterEach(async () => {
    for (const context of testPhones.splice(0)) await context.close();
  });
  afterAll(async () => {
    for (const context of filePhones.splice(0)) await context.close();
    await browser?.close();
    await server?.stop();
    await mail?.stop();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the suite has no ${what}: read it inside a test or hook`);
    return value;
  };
  const open = async (into: BrowserContext[], contextOptions: BrowserContextOptions = {}) => {
    const context = await newPhoneContext(started(browser, 'browser'), started(server, 'server').baseUrl, contextOptions);
    into.push(context);
    return context.newPage();
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
    get mail() {
      return started(mail, 'mail catcher (start it withMail)');
    },
    openPhone: (contextOptions) => open(testPhones, contextOptions),
    keepPhone: (contextOptions) => open(filePhones, contextOptions),
  };
}
