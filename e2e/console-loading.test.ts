import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * The console loads each page's code when the page is first opened: the login page fetches no
 * staff page, a page whose code cannot be fetched (a deploy replaced it, the network dropped)
 * says so and offers a reload, in the user's language, and the reload brings the page.
 */

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});
afterEach(async () => {
  await driver.closeAll();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** The console's script files the page fetched, by name without the content hash. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const match = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
    if (match?.[1]) scripts.push(match[1]);
  });
  return scripts;
}

describe('console loading', () => {
  it('the login page fetches its own code, not the staff pages', async () => {
    const page = await driver.openPage();
    const scripts = recordScripts(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(scripts).toContain('login-page');
    for (const staffPage of [
      'app-layout',
      'area-home-page',
      'patients-page',
      'patient-profile-page',
      'devices-page',
    ]) {
      expect(scripts).not.toContain(staffPage);
    }
  });

  it('keeps the current page with a loading notice while the code of the next page is on its way', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'main-admin@demo.example');
    await page.waitForURL('**/smadmin');
    const devicesLink = page.getByRole('navigation').getByRole('link', { name: 'Devices' });
    await devicesLink.waitFor();
    const homeHeading = page.getByRole('heading', { level: 1 }).first();
    const homeTitle = await homeHeading.textContent();

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/devices-page-[\w-]{8}\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await devicesLink.click();
    const notice = page.getByTestId('route-pending');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.getAttribute('role')).toBe('status');
    expect(await notice.textContent()).toBe('Loading the page…');
    // The page being left stays in place until the next one can be drawn.
    expect(await homeHeading.textContent()).toBe(homeTitle);

    release();
    await page.waitForURL('**/smadmin/devices');
    await expect.poll(() => page.getByRole('heading', { name: 'Devices', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => notice.count()).toBe(0);
  });

  it('a page whose code does not arrive offers a reload inside the shell, and the reload brings it', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'main-admin@demo.example');
    await page.waitForURL('**/smadmin');
    await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).waitFor();

    const blocked = /\/assets\/devices-page-[\w-]{8}\.js$/;
    await page.route(blocked, (route) => route.abort('failed'));
    await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).click();
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.getByRole('heading', { name: 'This page could not be loaded' }).isVisible())
      .toBe(true);
    expect(await alert.textContent()).toContain('Reload the page to continue.');
    // The shell stays: the navigation is still there to go elsewhere.
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).isVisible()).toBe(true);
    expect(await page.title()).toBe('Error · RPM Console');
    await screenshot(page, 'route-chunk-failed');

    await page.unroute(blocked);
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await page.waitForURL('**/smadmin/devices');
    await expect.poll(() => page.getByRole('heading', { name: 'Devices', level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'This page could not be loaded' }).count()).toBe(0);
  });

  it('signs in and opens a page without any Content-Security-Policy violation (zod is set up before its first schema)', async () => {
    const page = await driver.openPage();
    await page.addInitScript(() => {
      const violations: string[] = [];
      Object.assign(globalThis, { cspViolations: violations });
      document.addEventListener('securitypolicyviolation', (event) => {
        violations.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const violations = () =>
      page.evaluate(() => (globalThis as unknown as { cspViolations: string[] }).cspViolations);
    await driver.signIn(page, 'main-admin@demo.example');
    await page.waitForURL('**/smadmin');
    await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Devices', level: 1 }).isVisible()).toBe(true);
    expect(await violations()).toEqual([]);
  });

  it('a public page whose code does not arrive says so in Vietnamese on a whole page', async () => {
    const page = await driver.openPage();
    await page.addInitScript(() => {
      localStorage.setItem('rpm.console.language', 'vi');
    });
    await page.route(/\/assets\/login-page-[\w-]{8}\.js$/, (route) => route.abort('failed'));
    await page.goto('/login');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Không tải được trang này' }).isVisible())
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Tải lại trang' }).isVisible()).toBe(true);
  });
});
