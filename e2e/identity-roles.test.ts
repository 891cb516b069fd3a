import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Role and permission management (spec §2, §6): an admin creates a custom role with exactly two
 * permissions and gives it to the coach; the coach's menu then shows exactly what those two allow.
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

const ROLE_NAME = 'Care coach (read roles)';

describe('roles and permissions', () => {
  it('creates a role with two permissions, assigns it to the coach, and the coach sees exactly its menu', async () => {
    const admin = await driver.openPage();
    await driver.signIn(admin, 'admin@demo.example');
    await admin.waitForURL('**/admin');
    await admin.getByRole('navigation').getByRole('link', { name: 'Roles & permissions' }).click();
    await admin.waitForURL('**/admin/roles');
    await expect.poll(() => admin.getByText('No custom roles yet').isVisible()).toBe(true);
    await screenshot(admin, 'identity-roles-empty');

    // The editor: "at least one permission" is checked before sending.
    await admin.getByRole('link', { name: 'Create role' }).first().click();
    await admin.waitForURL('**/admin/roles/new');
    await admin.getByLabel(/^Name/).fill(ROLE_NAME);
    await admin.getByRole('combobox', { name: 'Base role' }).click();
    await admin.getByRole('option', { name: 'Coach', exact: true }).click();
    await admin.getByRole('button', { name: 'Create role' }).click();
    await expect.poll(() => admin.getByText('Choose at least one permission').isVisible()).toBe(true);

    await admin.getByRole('checkbox', { name: 'View own account' }).check();
    await admin.getByRole('checkbox', { name: 'View roles' }).check();
    expect(await admin.getByTestId('permission-count').textContent()).toBe('Selected: 2');
    // An admin holds no tenant permission, so those cannot be granted.
    expect(await admin.getByRole('checkbox', { name: 'Create tenants' }).isDisabled()).toBe(true);
    await screenshot(admin, 'identity-role-editor');
    await admin.getByRole('button', { name: 'Create role' }).click();
    await admin.waitForURL('**/admin/roles');

    const table = admin.getByTestId('roles-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    const row = table.locator('tbody tr').first();
    expect(await row.locator('td').allTextContents()).toEqual([
      ROLE_NAME,
      'Coach',
      '2',
      '0',
      expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/) as unknown as string,
      'EditDelete',
    ]);

    // A duplicate name is the server's "Role exists", under the name field.
    await dismissToasts(admin);
    await admin.getByRole('link', { name: 'Create role' }).first().click();
    await admin.getByLabel(/^Name/).fill(ROLE_NAME);
    await admin.getByRole('combobox', { name: 'Base role' }).click();
    await admin.getByRole('option', { name: 'Operator', exact: true }).click();
    await admin.getByRole('checkbox', { name: 'View own account' }).check();
    await admin.getByRole('button', { name: 'Create role' }).click();
    await expect.poll(() => admin.getByText('Role exists').isVisible()).toBe(true);
    await admin.getByRole('link', { name: 'Cancel' }).click();
    await admin.waitForURL('**/admin/roles');

    // Assign it: pick the user, pick the role, confirm that they will be signed out.
    await admin.getByRole('button', { name: 'Assign role' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Assign a role' });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => dialog.getByText('Choose a user').isVisible()).toBe(true);
    expect(await dialog.getByText('Please choose at least one role').isVisible()).toBe(true);
    await dialog.getByLabel('Find a user').fill('coach');
    await dialog.getByRole('radio', { name: 'Coach Demo' }).click();
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await admin.getByRole('option', { name: ROLE_NAME }).click();
    await screenshot(admin, 'identity-assign-dialog');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect
      .poll(() => dialog.getByTestId('assign-confirm').textContent())
      .toContain('Coach Demo will be signed out on every device and must sign in again.');
    await screenshot(admin, 'identity-assign-confirm');
    await dialog.getByRole('button', { name: 'Assign and sign out' }).click();
    await expect
      .poll(() => admin.getByText(`Coach Demo now has the role “${ROLE_NAME}”.`).isVisible())
      .toBe(true);
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('1');
    await dialog.waitFor({ state: 'hidden' });
    await screenshot(admin, 'identity-roles-list');

    // A role someone holds cannot be deleted: the server's message, in the dialog.
    await row.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(() => admin.getByTestId('delete-role-error').textContent())
      .toBe('This role is assigned to users. Assign them another role first');

    // The coach, on another computer: exactly the menu the two permissions allow (Home is for all).
    const coach = await driver.openPage();
    await driver.signIn(coach, 'coach@demo.example');
    await coach.waitForURL('**/coach');
    const navigation = coach.getByRole('navigation');
    await expect
      .poll(() => navigation.getByRole('link').allTextContents())
      .toEqual(['Home', 'Account', 'Roles & permissions', 'Privacy terms']);
    // permission.view without permission.update: the list, but no button that changes anything.
    await navigation.getByRole('link', { name: 'Roles & permissions' }).click();
    await expect.poll(() => coach.getByTestId('roles-table').isVisible()).toBe(true);
    expect(await coach.getByRole('button', { name: 'Assign role' }).count()).toBe(0);
    expect(await coach.getByRole('link', { name: 'Create role' }).count()).toBe(0);
    expect(await coach.getByRole('button', { name: 'Delete' }).count()).toBe(0);
  });

  it('shows the default roles read-only', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'mhsc-admin@demo.example');
    await page.waitForURL('**/smadmin');
    await page.goto('/smadmin/roles?view=default');
    const matrix = page.getByTestId('default-roles-matrix');
    await expect.poll(() => matrix.isVisible()).toBe(true);
    const header = await matrix.locator('thead th').allTextContents();
    expect(header).toContain('Doctor');
    expect(header).not.toContain('Super admin');
    expect(await matrix.locator('tbody input').count()).toBe(0);
    await screenshot(page, 'identity-roles-default');
  });
});
