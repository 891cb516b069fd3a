import type { Page } from 'playwright-core';
import { poll } from './suite.js';

/** Demo logins that between them open every page of the console, each with its area. */
export const DEMO_AREAS: readonly (readonly [login: string, area: string])[] = [
  ['root@demo.example', 'root'],
  ['super-admin@demo.example', 'sadmin'],
  ['system-admin@demo.example', 'admin'],
  ['main-admin@demo.example', 'smadmin'],
  ['operator@demo.example', 'operator'],
  ['cskh@demo.example', 'cskh'],
  ['doctor@demo.example', 'doctor'],
  ['doctor-assistant@demo.example', 'doctor-assistant'],
  ['coach@demo.example', 'coach'],
  ['patient@demo.example', 'user'],
];

/** Every demo login (each default role, and the tenant-level admins), each with its area. */
export const DEMO_LOGINS: readonly (readonly [login: string, area: string])[] = [
  ['root@demo.example', 'root'],
  ['super-admin@demo.example', 'sadmin'],
  ['system-admin@demo.example', 'admin'],
  ['admin@demo.example', 'admin'],
  ['main-admin@demo.example', 'smadmin'],
  ['support-admin@demo.example', 'smadmin'],
  ['scope-admin@demo.example', 'smadmin'],
  ['mhsc-admin@demo.example', 'smadmin'],
  ['operator@demo.example', 'operator'],
  ['cskh@demo.example', 'cskh'],
  ['doctor@demo.example', 'doctor'],
  ['doctor-assistant@demo.example', 'doctor-assistant'],
  ['coach@demo.example', 'coach'],
  ['patient@demo.example', 'user'],
];

/** The links of the side navigation that stay inside the area. */
export async function navigationLinks(page: Page, area: string): Promise<string[]> {
  const hrefs = await page
    .getByRole('navigation')
    .getByRole('link')
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  return hrefs.filter((href) => href === `/${area}` || href.startsWith(`/${area}/`));
}

/** Waits until the page's calls are done and no loader spins. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .locator('.mantine-Loader-root, [data-loading="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

/** Calls a page has in flight, counted from its requests (a WebSocket is no request). */
const inFlight = new WeakMap<Page, Set<unknown>>();

/** Starts counting the page's calls in flight (settleInApp); call it before the page loads anything. */
export function trackRequests(page: Page): Set<unknown> {
  let requests = inFlight.get(page);
  if (requests) return requests;
  const tracked = new Set<unknown>();
  page.on('request', (request) => tracked.add(request));
  page.on('requestfinished', (request) => tracked.delete(request));
  page.on('requestfailed', (request) => tracked.delete(request));
  inFlight.set(page, tracked);
  requests = tracked;
  return requests;
}

/**
 * Opens an address of the signed-in console inside the running console, as its own links do
 * (the router's history, not a reload): the session, the startup sequence, the live connection and
 * the code already fetched stay, and only the page's own code and calls load. The page may go on
 * to another address (a record opens on its first tab), as it would from a link. Waits until the
 * page has settled (`settleInApp`).
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  trackRequests(page);
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settleInApp(page);
}

/**
 * Waits until no call has been in flight for half a second (Playwright's rule for `networkidle`,
 * counted here from the page's requests, as a navigation inside the console loads no document),
 * no page load is pending and no loader spins.
 */
export async function settleInApp(page: Page): Promise<void> {
  const requests = trackRequests(page);
  const quietFor = 500;
  const deadline = Date.now() + 30_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await page.waitForTimeout(50);
    if (requests.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietFor) break;
  }
  await page
    .waitForFunction(
      () =>
        document.querySelectorAll(
          '.mantine-Loader-root, [data-loading="true"], [data-testid="route-pending"]',
        ).length === 0,
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}

/**
 * The first record a list page opens (a link to a sub-page of the list, or a row that navigates
 * when clicked), as an address; null when the list is empty or its rows open nothing.
 */
export async function firstDetailPage(page: Page, listPath: string): Promise<string | null> {
  const link = await page
    .locator(`main a[href^="${listPath}/"]`)
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  const detail = link.find((href) => !href.endsWith('/new'));
  if (detail) return detail;
  const row = page.locator('main table tbody tr').first();
  if ((await row.count()) === 0) return null;
  const before = page.url();
  await row.click({ timeout: 5_000 }).catch(() => undefined);
  await page.waitForURL((url) => url.href !== before, { timeout: 3_000 }).catch(() => undefined);
  const after = new URL(page.url()).pathname;
  return after.startsWith(`${listPath}/`) ? after : null;
}

/** Opens a patient's profile from the area's patient list, found by the patient's code, on a tab. */
export async function openPatientTab(page: Page, area: string, code: string, tab: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
  await page.waitForURL(`**/${area}/patients`);
  await page.getByLabel('Search patients').fill(code);
  await poll(() => page.getByTestId('patient-row').count()).toBe(1);
  await page.getByTestId('patient-row').getByRole('link').click();
  await page.getByRole('tab', { name: tab }).click();
}
