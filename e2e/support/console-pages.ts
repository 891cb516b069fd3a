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
