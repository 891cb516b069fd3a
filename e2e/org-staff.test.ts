import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Staff management (spec §2, §4, §6): the admin adds a doctor at another health center, the
 * support admin of "Saigon Heart Center" sees only that center's people (and not the new doctor,
 * even by address), and a temporary disable shows with its end.
 */

/**
 * Waits for what the page shows after a server round trip. Longer than expect.poll's one second:
 * on a loaded machine (two e2e files at once) an answer can take longer, and that is not a failure.
 */
function poll<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 15_000 });
}

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
/** The doctor the admin adds at Ben Thanh Family Clinic, shared by the tests that follow. */
let benThanhDoctorPath = '';

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

async function signIn(username: string, area: string): Promise<Page> {
  const page = await driver.openPage();
  await driver.signIn(page, username);
  await page.waitForURL(`**/${area}`);
  return page;
}

/** Dialogs fade in; a screenshot taken during the fade shows them half transparent. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

const rows = (page: Page) => page.getByTestId('staff-table').locator('tbody tr');

/** The text of one column for every row of the open list. */
async function column(page: Page, index: number): Promise<string[]> {
  return rows(page).evaluateAll(
    (elements, cell) => elements.map((row) => row.querySelectorAll('td')[cell]?.textContent ?? ''),
    index,
  );
}

describe('staff', () => {
  it('adds a doctor at another health center, with the rules of the role', async () => {
    const page = await signIn('admin@demo.example', 'admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
    await page.waitForURL('**/admin/staff');
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'MHSC doctors' }).click();
    await page.waitForURL('**/admin/staff?list=mhscDoctor');
    // The demo's six doctors across the three centers, by first name.
    await poll(() => column(page, 0)).toEqual([
      'Bao Tran',
      'Cuc Le',
      'Linh Nguyen',
      'Quang Vo',
      'Thu Pham',
      'Vinh Hoang',
    ]);
    await screenshot(page, 'org-staff-tabs');

    // The create button of the doctors' list starts with the doctor role.
    await page.getByRole('link', { name: 'Add staff member' }).click();
    const form = page.getByRole('form', { name: 'Staff member' });
    expect(await form.getByRole('combobox', { name: /^Role/ }).inputValue()).toBe('Doctor');
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await poll(() => form.getByText('Enter an email or a phone number').isVisible()).toBe(true);
    expect(await form.getByText('Please choose a health center for this role').isVisible()).toBe(true);
    expect(await form.getByText('This field is required').count()).toBe(2);

    await form.getByLabel(/^First name/).fill('Khoa');
    await form.getByLabel(/^Last name/).fill('Vo');
    await form.getByLabel(/^Email/).fill('khoa.vo@demo.example');
    await form.getByRole('combobox', { name: /^Health center/ }).click();
    await page.getByRole('option', { name: 'Ben Thanh Family Clinic' }).click();
    // The optional initial password shows the tenant's rule as it is typed.
    await form.getByLabel(/^Initial password/).fill('short');
    await poll(() => form.getByTestId('password-checklist').isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await poll(() => form.getByText('The password does not meet the requirements below').isVisible()).toBe(
      true,
    );
    await form.getByLabel(/^Initial password/).fill('Clinic@2026x');
    await form.getByLabel(/^Confirm/).fill('Clinic@2026x');
    await screenshot(page, 'org-staff-form');
    await form.getByRole('button', { name: 'Add staff member' }).click();

    await poll(() => page.getByRole('heading', { name: 'Khoa Vo' }).isVisible()).toBe(true);
    benThanhDoctorPath = new URL(page.url()).pathname.replace(/^\/admin/, '');
    expect(benThanhDoctorPath).toMatch(/^\/staff\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('link', { name: 'Ben Thanh Family Clinic' }).isVisible()).toBe(true);
    expect(await page.getByTestId('staff-status').textContent()).toBe('Active');

    // The same email again is the server's answer, under the email field.
    await dismissToasts(page);
    await page.goto('/admin/staff/new?role=OPERATOR');
    const again = page.getByRole('form', { name: 'Staff member' });
    await again.getByLabel(/^First name/).fill('Khoa');
    await again.getByLabel(/^Last name/).fill('Vo');
    await again.getByLabel(/^Email/).fill('khoa.vo@demo.example');
    await again.getByRole('button', { name: 'Add staff member' }).click();
    await poll(() => again.getByText('Email already exists').isVisible()).toBe(true);
  });

  it('shows an MHSC admin only their own center’s people', async () => {
    expect(benThanhDoctorPath).not.toBe('');
    const page = await signIn('mhsc-admin@demo.example', 'smadmin');
    await page.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
    await page.waitForURL('**/smadmin/staff');
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    // Employees: everyone listed works at Saigon Heart Center.
    expect(new Set(await column(page, 3))).toEqual(new Set(['Saigon Heart Center']));
    await page.getByRole('tab', { name: 'MHSC doctors' }).click();
    // Only the four doctors of Saigon Heart Center.
    await poll(() => column(page, 0)).toEqual(['Bao Tran', 'Cuc Le', 'Linh Nguyen', 'Quang Vo']);
    expect(new Set(await column(page, 3))).toEqual(new Set(['Saigon Heart Center']));
    await screenshot(page, 'org-staff-mhsc-doctors');
    // Searching for the Ben Thanh doctor finds nobody.
    await page.getByRole('textbox', { name: 'Search' }).fill('Khoa');
    await poll(() => page.getByText('Nobody found').isVisible()).toBe(true);

    // And the address of their page says not found.
    await page.goto(`/smadmin${benThanhDoctorPath}`);
    await poll(() => page.getByTestId('staff-not-found').isVisible()).toBe(true);
    expect(await page.getByText('Staff member not found').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Khoa Vo' }).count()).toBe(0);
    await screenshot(page, 'org-staff-not-found');
  });

  it('disables a staff member for 3 days and enables them again', async () => {
    expect(benThanhDoctorPath).not.toBe('');
    const page = await signIn('admin@demo.example', 'admin');
    await page.goto(`/admin${benThanhDoctorPath}`);
    await poll(() => page.getByRole('heading', { name: 'Khoa Vo' }).isVisible()).toBe(true);
    await screenshot(page, 'org-staff-detail');

    await page.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable account' });
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await poll(() => dialog.getByText('Choose one of the options').isVisible()).toBe(true);
    await dialog.getByRole('combobox', { name: /^For how long/ }).click();
    await page.getByRole('option', { name: '3 days' }).click();
    await dialog.getByLabel(/^Reason/).fill('On leave until the clinic reopens');
    await settle(page);
    await screenshot(page, 'org-staff-disable-dialog');
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // "Disabled until" three days from now, in dd/MM/yyyy HH:mm in the viewer's zone (the default one).
    const until = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Ho_Chi_Minh', day: '2-digit', month: '2-digit', year: 'numeric' }).format(until);
    await expect
      .poll(() => page.getByTestId('staff-status').textContent())
      .toMatch(new RegExp(`^Disabled until ${day.replaceAll('/', '\\/')} \\d{2}:\\d{2}$`));
    await dismissToasts(page);
    await screenshot(page, 'org-staff-detail-disabled');

    // The list shows it too.
    await page.goto('/admin/staff?list=mhscDoctor');
    await page.getByRole('textbox', { name: 'Search' }).fill('Khoa');
    await poll(() => column(page, 4)).toEqual([
      expect.stringMatching(/^Disabled until /) as unknown as string,
    ]);

    await page.getByRole('link', { name: 'Khoa Vo' }).click();
    await page.getByRole('button', { name: 'Enable' }).click();
    await poll(() => page.getByTestId('staff-status').textContent()).toBe('Active');
  });

  it('refuses to disable a health center’s main admin, saying where to change it', async () => {
    const page = await signIn('admin@demo.example', 'admin');
    await page.goto('/admin/staff');
    await page.getByRole('textbox', { name: 'Search' }).fill('main-admin');
    await poll(() => column(page, 0)).toEqual(['Main admin Demo']);
    await page.getByRole('link', { name: 'Main admin Demo' }).click();
    await poll(() => page.getByTestId('main-admin-note').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable account' });
    await dialog.getByRole('combobox', { name: /^For how long/ }).click();
    await page.getByRole('option', { name: 'Indefinitely' }).click();
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await expect
      .poll(() => dialog.getByTestId('staff-disable-error').textContent())
      .toBe(
        'This account is the main admin of a health center. Change the main admin on the health center detail first',
      );
  });
});
