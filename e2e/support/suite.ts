import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ConsoleDriver, startTestServer } from './console.js';
import { launchBrowser, type RunningServer } from './harness.js';
import { startMailCatcher, type MailCatcher } from './mail.js';

/** What a browser-test file works with; read its fields inside tests and hooks, not at load time. */
export interface ConsoleSuite {
  readonly server: RunningServer;
  readonly driver: ConsoleDriver;
  /** The server's SMTP server; only when the suite was started `withMail`. */
  readonly mail: MailCatcher;
  /** Signs in through the login form in a fresh browser context and waits for the area home. */
  signIn(username: string, area: string): Promise<Page>;
}

/**
 * The setup the console's browser tests share: one real server (sending its mail to a catcher
 * when `withMail`), one headless Chromium and a driver for the file; every browser context is
 * closed after each test and everything is stopped after the file. Call it at the top of a file.
 */
export function useConsoleSuite(options: { withMail?: boolean } = {}): ConsoleSuite {
  let server: RunningServer | undefined;
  let driver: ConsoleDriver | undefined;
  let mail: MailCatcher | undefined;
  let closeBrowser: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    if (options.withMail) mail = await startMailCatcher();
    server = await startTestServer(mail ? { SMTP_URL: mail.url } : {});
    const browser = await launchBrowser();
    closeBrowser = () => browser.close();
    driver = new ConsoleDriver(browser, server.baseUrl);
  });
  afterEach(async () => {
    await driver?.closeAll();
  });
  afterAll(async () => {
    await closeBrowser();
    await server?.stop();
    await mail?.stop();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the suite has no ${what}: read it inside a test or hook`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get driver() {
      return started(driver, 'driver');
    },
    get mail() {
      return started(mail, 'mail catcher (start it withMail)');
    },
    async signIn(username, area) {
      const page = await started(driver, 'driver').openPage();
      await started(driver, 'driver').signIn(page, username);
      await page.waitForURL(`**/${area}`);
      return page;
    },
  };
}

/** `expect.poll` with the longer wait a page that fetches and re-renders may need. */
export function poll<T>(read: () => T | Promise<T>): ReturnType<typeof expect.poll<T | Promise<T>>> {
  return expect.poll(read, { timeout: 15_000 });
}

/** Waits until the page's live connection to the server is up. */
export async function waitForLive(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('live-status').getAttribute('data-status'), { timeout: 15_000 })
    .toBe('live');
}
