import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { ConsoleDriver, startTestServer } from './support/console.js';
import { DEMO_AREAS, firstDetailPage, navigationLinks, settle } from './support/console-pages.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * WCAG AA in the browser (axe-core): the public pages and, for every demo role, its home and the
 * pages of its navigation with a record of each list (patient profile, SOS case, ticket, device,
 * staff member, tenant) have no serious or critical violation: names and labels, contrast,
 * landmarks, headings. A page already checked for one role is not checked again for the next.
 */

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
/** Pages already checked, by their path inside an area (`patients`, `patients/:id`). */
const checked = new Set<string>();

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

async function check(page: Page, where: string, problems: string[]): Promise<void> {
  await settle(page);
  const violations = await axeViolations(page);
  if (violations.length > 0) problems.push(formatViolations(where, violations));
}

/** A path's place in its area, with record ids replaced, so each kind of page is checked once. */
function pageKind(path: string, area: string): string {
  return path
    .slice(area.length + 1)
    .split('/')
    .map((part) => (/\d|^[0-9a-f-]{20,}$/i.test(part) ? ':id' : part))
    .join('/');
}

it('the public pages have no serious or critical violation', async () => {
  const page = await driver.openPage();
  const problems: string[] = [];
  for (const path of ['/login', '/login?method=otp', '/forgot-password', '/register', '/trial-request', '/privacy', '/terms', '/no-such-page']) {
    await page.goto(path);
    await page
      .getByRole('heading', { level: 1 })
      .first()
      .waitFor()
      .catch((error: unknown) => {
        throw new Error(`${path}: no page heading`, { cause: error });
      });
    await check(page, path, problems);
  }
  // With the tenant typed and the form's errors showing.
  await page.goto('/login');
  await driver.enterDemoTenant(page);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await check(page, '/login with errors', problems);
  expect(problems, `\n${problems.join('\n')}`).toEqual([]);
});

it.each(DEMO_AREAS)('%s: home, navigation pages and records of /%s have no serious or critical violation', async (login, area) => {
  const page = await driver.openPage();
  const problems: string[] = [];
  await driver.signIn(page, login);
  await page.waitForURL(`**/${area}`);
  await expect.poll(() => page.getByRole('heading', { name: /^Welcome, / }).isVisible()).toBe(true);
  await check(page, `/${area}`, problems);

  for (const path of await navigationLinks(page, area)) {
    const kind = pageKind(path, area);
    if (path === `/${area}` || checked.has(kind)) continue;
    checked.add(kind);
    await page.goto(path);
    await check(page, path, problems);
    if (/^(account|privacy|terms|imports)$/.test(kind)) continue;
    const detail = await firstDetailPage(page, path);
    if (detail && !checked.has(pageKind(detail, area))) {
      checked.add(pageKind(detail, area));
      await page.goto(detail);
      await check(page, detail, problems);
    }
  }
  expect(problems, `\n${problems.join('\n')}`).toEqual([]);
}, 300_000);
