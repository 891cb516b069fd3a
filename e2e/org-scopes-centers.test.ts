import { deflateSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Scope management and health centers (spec §2, §3, §5, §8), driven as the tenant's admin: a new
 * three-level scope tree (and the level-5 limit), a health center in it with its main admin and
 * logo, and the "in use" refusals for a scope and a center.
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

/** A real 48×48 PNG (two-colour diagonal), built here so the server's content check sees a true image. */
function logoPng(): Buffer {
  const size = 48;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const isMark = x + y < size;
      row.set(isMark ? [14, 116, 144] : [236, 254, 255], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

async function signInAsAdmin(): Promise<Page> {
  const page = await driver.openPage();
  await driver.signIn(page, 'admin@demo.example');
  await page.waitForURL('**/admin');
  return page;
}

/** Picks an option of a Mantine select by its label, as a person does: open, click the option. */
async function choose(page: Page, scope: Page | Locator, label: string | RegExp, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

/**
 * Picks a person in an admin picker (a Mantine Select or MultiSelect searching the staff lists):
 * types, waits for the server's answer to that search, then clicks the option until `isPicked`.
 * The list re-renders when the answer lands and the dropdown may move or close under a click on a
 * loaded machine; a person would look again and click again, and so does this.
 */
async function pickPerson(
  page: Page,
  field: Locator,
  typed: string,
  option: RegExp,
  isPicked: () => Promise<boolean>,
) {
  const searched = page.waitForResponse(
    (response) => new URL(response.url()).searchParams.get('search') === typed,
  );
  await field.fill(typed);
  await searched;
  const choice = page.getByRole('option', { name: option });
  await poll(async () => {
    if (await isPicked()) return true;
    if (await choice.isVisible()) await choice.click({ timeout: 2_000 }).catch(() => undefined);
    else await field.click();
    return isPicked();
  }).toBe(true);
}

async function createScopeInDialog(page: Page, name: string, type: string, expectedLevel: number) {
  const dialog = page.getByRole('dialog', { name: 'New scope' });
  await dialog.getByLabel(/^Name/).fill(name);
  await dialog.getByLabel(/^Type/).fill(type);
  await expect
    .poll(() => dialog.getByTestId('scope-level-note').textContent())
    .toBe(`The new scope will be at level ${String(expectedLevel)}.`);
  await dialog.getByRole('button', { name: 'Create scope' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await poll(() => page.getByText(`Scope “${name}” created.`).isVisible()).toBe(true);
  await dismissToasts(page);
}

/** Dialogs fade in; a screenshot taken during the fade shows them half transparent. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Scope hierarchy' });

describe('scopes', () => {
  it('builds a three-level tree, and stops at level 5', async () => {
    const page = await signInAsAdmin();
    await page.getByRole('navigation').getByRole('link', { name: 'Scopes' }).click();
    await page.waitForURL('**/admin/scopes');
    await poll(() => tree(page).getByRole('treeitem', { name: 'Vietnam' }).isVisible()).toBe(true);
    // Children load when a scope is opened.
    await tree(page).getByRole('button', { name: 'Expand Vietnam' }).click();
    await poll(() => tree(page).getByRole('treeitem', { name: 'Ho Chi Minh City' }).isVisible()).toBe(true);
    await tree(page).getByRole('button', { name: 'Expand Ho Chi Minh City' }).click();
    await poll(() => tree(page).getByRole('treeitem', { name: 'District 1' }).isVisible()).toBe(true);
    await poll(() => page.getByTestId('scopes-table').locator('tbody tr').count()).toBe(5);
    await screenshot(page, 'org-scope-tree');

    // A root: the name is required, the level is 1.
    await page.getByRole('button', { name: 'New root scope' }).click();
    const dialog = page.getByRole('dialog', { name: 'New scope' });
    await dialog.getByRole('button', { name: 'Create scope' }).click();
    await poll(() => dialog.getByText('This field is required').isVisible()).toBe(true);
    await dialog.getByLabel(/^Name/).fill('Vietnam');
    await dialog.getByRole('button', { name: 'Create scope' }).click();
    // Unique within a level: the server's message, under the name.
    await poll(() => dialog.getByText('Scope name already exists at this level').isVisible()).toBe(true);
    await settle(page);
    await screenshot(page, 'org-scope-form');
    await dialog.getByLabel(/^Name/).fill('');
    await createScopeInDialog(page, 'Mekong Region', 'REGION', 1);

    // A child of the scope chosen in the tree, then a grandchild.
    await tree(page).getByRole('button', { name: 'Mekong Region', exact: true }).click();
    await page.waitForURL(/parent=/);
    await page.getByRole('button', { name: 'New sub-scope here' }).click();
    await createScopeInDialog(page, 'Can Tho', 'CITY', 2);
    await tree(page).getByRole('button', { name: 'Expand Mekong Region' }).click();
    await tree(page).getByRole('button', { name: 'Can Tho', exact: true }).click();
    await page.getByRole('button', { name: 'New sub-scope here' }).click();
    await createScopeInDialog(page, 'Ninh Kieu', 'DISTRICT', 3);
    await tree(page).getByRole('button', { name: 'Expand Can Tho' }).click();
    const grandchild = tree(page).getByRole('treeitem', { name: 'Ninh Kieu' });
    await poll(() => grandchild.getAttribute('aria-level')).toBe('3');

    // Levels 4 and 5 from the table's row menu; a level-5 scope offers no sub-scope.
    await tree(page).getByRole('button', { name: 'Ninh Kieu', exact: true }).click();
    await poll(() => page.getByText('No scopes found').isVisible()).toBe(true);
    await tree(page).getByRole('button', { name: 'Can Tho', exact: true }).click();
    await page.getByRole('button', { name: 'Actions for Ninh Kieu' }).click();
    await page.getByRole('menuitem', { name: 'Add sub-scope' }).click();
    await createScopeInDialog(page, 'Ward 1', 'WARD', 4);
    await tree(page).getByRole('button', { name: 'Ninh Kieu', exact: true }).click();
    await page.getByRole('button', { name: 'Actions for Ward 1' }).click();
    await page.getByRole('menuitem', { name: 'Add sub-scope' }).click();
    await createScopeInDialog(page, 'Block A', 'BLOCK', 5);
    await tree(page).getByRole('button', { name: 'Expand Ninh Kieu' }).click();
    await tree(page).getByRole('button', { name: 'Ward 1', exact: true }).click();
    await page.getByRole('button', { name: 'Actions for Block A' }).click();
    const deepest = page.getByRole('menuitem', { name: 'Add sub-scope (not possible at level 5)' });
    expect(await deepest.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    // The dialog's parent list does not let a level-5 scope be chosen either.
    await tree(page).getByRole('button', { name: 'Expand Ward 1' }).click();
    await tree(page).getByRole('button', { name: 'Block A', exact: true }).click();
    await page.getByRole('button', { name: 'New sub-scope here' }).click();
    const tooDeep = page.getByRole('dialog', { name: 'New scope' });
    await expect
      .poll(() => tooDeep.getByTestId('scope-level-note').textContent())
      .toBe('Scopes go down to level 5 only: a level-5 scope cannot have sub-scopes.');
    expect(await tooDeep.getByRole('button', { name: 'Create scope' }).isDisabled()).toBe(true);
    await tooDeep.getByRole('button', { name: 'Cancel' }).click();

    // The detail of the new root: level, children, no centers yet.
    await page.goto('/admin/scopes');
    await page.getByRole('textbox', { name: 'Search' }).fill('Mekong');
    await poll(() => page.getByTestId('scopes-table').locator('tbody tr').count()).toBe(1);
    await page.getByTestId('scopes-table').getByRole('link', { name: 'Mekong Region' }).click();
    await poll(() => page.getByRole('heading', { name: 'Mekong Region' }).isVisible()).toBe(true);
    expect(await page.getByText('Level 1', { exact: true }).isVisible()).toBe(true);
  });

  it('refuses to deactivate a scope in use, saying why', async () => {
    const page = await signInAsAdmin();
    await page.goto('/admin/scopes');
    await page.getByRole('textbox', { name: 'Search' }).fill('District 1');
    await poll(() => page.getByTestId('scopes-table').locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Actions for District 1' }).click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate scope' });
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect
      .poll(() => dialog.getByTestId('scope-action-error').textContent())
      .toBe('Scope is in use by health centers, child scopes or admins and cannot be deactivated or deleted');
    await settle(page);
    await screenshot(page, 'org-scope-in-use');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // Still active.
    expect(await page.getByTestId('scopes-table').locator('tbody tr td').nth(4).textContent()).toBe('Active');
  });
});

describe('health centers', () => {
  it('creates a center in a new scope with its main admin and logo, and shows every field', async ({
    task,
  }) => {
    // A retry runs on what the first attempt left (a scope and perhaps the center): it names its own.
    const attempt = task.result?.retryCount ?? 0;
    const scopeName = attempt === 0 ? 'Delta' : `Delta ${String(attempt + 1)}`;
    const centerName =
      attempt === 0 ? 'Delta Riverside Clinic' : `Delta Riverside Clinic ${String(attempt + 1)}`;
    const page = await signInAsAdmin();
    // A scope of its own for the center (the tree test builds its own in another order).
    await page.goto('/admin/scopes');
    await page.getByRole('button', { name: 'New root scope' }).click();
    await createScopeInDialog(page, scopeName, 'REGION', 1);

    await page.getByRole('navigation').getByRole('link', { name: 'Health centers' }).click();
    await page.waitForURL('**/admin/health-centers');
    const table = page.getByTestId('centers-table');
    // The demo's three centers (on a retry, also the one the first attempt may have made).
    const rows = () => table.locator('tbody tr').count();
    if (attempt === 0) await poll(rows).toBe(3);
    else await poll(rows).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'org-centers-list');
    await page.getByRole('textbox', { name: 'Search' }).fill('Hoan Kiem');
    await poll(() => table.locator('tbody tr').count()).toBe(1);

    await page.getByRole('link', { name: 'Create health center' }).click();
    await page.waitForURL('**/admin/health-centers/new');
    const form = page.getByRole('form', { name: 'Health center' });
    // Required fields and the phone rule, before anything is sent.
    await form.getByLabel(/^Phone number/).fill('12');
    await form.getByLabel(/^Website/).fill('not a site');
    await form.getByRole('button', { name: 'Create health center' }).click();
    await poll(() => form.getByText('Enter a phone number of 3 to 16 digits').isVisible()).toBe(true);
    expect(await form.getByText('Enter a web address starting with http:// or https://').isVisible()).toBe(
      true,
    );
    expect(await form.getByText('This field is required').count()).toBe(2);

    await form.getByLabel(/^Name/).fill(centerName);
    await form.getByLabel(/^Type/).fill('CLINIC');
    await form.getByLabel(/^Representative/).fill('Dr. Tran Van An');
    await form.getByLabel(/^Phone number/).fill('2923123456');
    await form.getByLabel(/^Hotline/).fill('19009999');
    await form.getByLabel(/^Email/).fill('riverside@delta.example');
    await form.getByLabel(/^Website/).fill('https://riverside.example');
    await form.getByLabel(/^Address/).fill('1 Hai Ba Trung, Ninh Kieu, Can Tho');
    await form.getByLabel(/^Latitude/).fill('10.0341');
    await form.getByLabel(/^Longitude/).fill('105.7880');
    await choose(page, form, 'Scope', new RegExp(`^${scopeName}$`));
    const mainAdmin = form.getByRole('combobox', { name: /^Main admin/ });
    await pickPerson(page, mainAdmin, 'Main', /^Main admin Demo/, async () =>
      (await mainAdmin.inputValue()).startsWith('Main admin Demo'),
    );
    const supportAdmins = form.getByLabel(/^Support admins/);
    // A picked person shows as a pill in the field (the options are outside the form, in the dropdown).
    const supportPill = form.getByText(/^Support admin Demo/);
    await pickPerson(page, supportAdmins, 'Support', /^Support admin Demo/, () => supportPill.isVisible());
    await page.keyboard.press('Escape');
    await form
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });
    await poll(() => form.getByText(/KB, sent when you save/).isVisible()).toBe(true);
    await screenshot(page, 'org-center-form');
    await form.getByRole('button', { name: 'Create health center' }).click();

    await poll(() => page.getByRole('heading', { name: centerName }).isVisible()).toBe(true);
    expect(page.url()).toMatch(/\/admin\/health-centers\/[0-9a-f-]{36}$/);
    const fields = page.getByTestId('center-fields');
    expect(await fields.textContent()).toContain('Dr. Tran Van An');
    expect(await fields.textContent()).toContain('+84 2923123456');
    expect(await fields.textContent()).toContain('https://riverside.example');
    expect(await fields.textContent()).toContain('10.0341, 105.788');
    const admins = page.getByTestId('center-admins');
    await poll(() => admins.locator('tbody tr').count()).toBe(2);
    expect(await admins.locator('tbody tr').first().textContent()).toContain('Main admin Demo');
    expect(await page.getByTestId('center-staff-count').textContent()).toBe('0');
    // The logo is served back and shown.
    await expect
      .poll(() =>
        page.locator('img[src*="/logo?"]').evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBe(48);
    await dismissToasts(page);
    await screenshot(page, 'org-center-detail');

    // Edit: a duplicate name is refused under the field.
    await page.getByRole('link', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Health center' });
    await edit.getByLabel(/^Name/).fill('Saigon Heart Center');
    await edit.getByRole('button', { name: 'Save' }).click();
    await poll(() => edit.getByText('Health center name already exists').isVisible()).toBe(true);
    await edit.getByRole('link', { name: 'Cancel' }).click();

    // With nobody at it yet, the new center can be deactivated.
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page
      .getByRole('dialog', { name: 'Deactivate health center' })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await poll(() => page.getByText(`“${centerName}” deactivated.`).isVisible()).toBe(true);
    await poll(() => page.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
  });

  it('refuses to deactivate a center with staff: "Health Center is being used"', async () => {
    const page = await signInAsAdmin();
    await page.goto('/admin/health-centers');
    await page.getByTestId('centers-table').getByRole('link', { name: 'Saigon Heart Center' }).click();
    await poll(() => page.getByRole('heading', { name: 'Saigon Heart Center' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate health center' });
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await poll(() => dialog.getByTestId('center-status-error').textContent()).toBe(
      'Health Center is being used',
    );
    await settle(page);
    await screenshot(page, 'org-center-in-use');
  });
});
