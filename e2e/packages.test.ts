import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts } from './support/console.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Service packages across the two apps: the demo admin finds the seeded Zero and Basic packages,
 * creates a free package and a paid one under Packages (the form says what is wrong, a taken
 * Package ID included), disables and enables one again, and puts the demo patient on the paid
 * package from its profile; the patient sees it under My package, with the offer and prices, and
 * cancels it back to the free default package (the seeded Zero).
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
const DEVICE_SERIAL = 'E2E-PKG-0001';

/** Picks an option of a Mantine select by the select's label. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: new RegExp(`^${label}( \\*)?$`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('service packages', () => {
  it('the admin manages packages and a patient’s package; the patient sees it and cancels it', async () => {
    const server = suite.server;
    const [patient] = await queryDatabase<{ tenant_id: string; id: string }>(
      server,
      `SELECT p.tenant_id, p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    // A retry starts from no package made here, and the demo patient's own subscriptions (its
    // seeded Basic among them) gone.
    await queryDatabase(
      server,
      `DELETE FROM subscriptions WHERE patient_id = $1 OR package_id IN (SELECT id FROM service_packages WHERE code LIKE 'E2E%')`,
      [patient.id],
    );
    await queryDatabase(server, `DELETE FROM service_packages WHERE code LIKE 'E2E%'`);
    await queryDatabase(server, 'DELETE FROM devices WHERE serial_number = $1', [DEVICE_SERIAL]);
    // Paid packages need a bound wearable.
    const devices = await queryDatabase(server, 'SELECT 1 FROM devices WHERE patient_id = $1', [patient.id]);
    if (devices.length === 0) {
      await queryDatabase(
        server,
        `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id)
           VALUES ($1, gen_random_uuid(), 'V19', $2, 'E2:E0:00:00:00:01', $3)`,
        [patient.tenant_id, DEVICE_SERIAL, patient.id],
      );
    }

    const consoleDriver = new ConsoleDriver(suite.browser, server.baseUrl);
    const admin = await consoleDriver.openPage();
    await consoleDriver.signIn(admin, 'admin@demo.example');
    await admin.waitForURL('**/admin');
    await admin.getByRole('link', { name: 'Packages', exact: true }).click();
    await admin.waitForURL('**/admin/packages');
    const table = admin.getByTestId('packages-table');
    // The demo's own offer: Zero, the free default, and Basic for 6, 12 and 24 months in dong.
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'BASIC6' }).textContent(), { timeout: 15_000 }).toContain('84,000');
    expect(await table.getByRole('row').filter({ hasText: 'ZERO' }).textContent()).toContain('Unlimited');
    expect(await table.getByRole('row').filter({ hasText: 'BASIC24' }).textContent()).toContain('192,000');
    await screenshot(admin, 'console-packages-seeded');

    // An empty form says what is missing.
    await admin.getByRole('button', { name: 'New package' }).click();
    let form = admin.getByTestId('package-form');
    await form.waitFor();
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.getByText('Use letters, digits, - and _ only (at most 32)').isVisible()).toBe(true);
    await expect.poll(() => form.getByText('Enter a whole price of 0 or more').isVisible()).toBe(true);

    // A free package besides the default: unlimited duration, no features.
    await form.getByRole('textbox', { name: /^Package ID/ }).fill('E2E_FREE');
    await form.getByRole('textbox', { name: /^Name/ }).fill('E2E Free');
    await form.getByRole('textbox', { name: /^Price/ }).fill('0');
    await form.getByRole('switch', { name: 'Unlimited duration' }).click();
    expect(await form.getByLabel('Duration (months)').isDisabled()).toBe(true);
    await screenshot(admin, 'console-package-form-zero');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.waitFor({ state: 'detached' });
    await dismissToasts(admin);
    await admin.getByLabel('Search').fill('E2E');
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'E2E_FREE' }).count()).toBe(1);

    // A paid package: a taken Package ID is refused under the field; a paid one needs a feature.
    await admin.getByRole('button', { name: 'New package' }).click();
    form = admin.getByTestId('package-form');
    await form.waitFor();
    await form.getByRole('textbox', { name: /^Package ID/ }).fill('E2E_FREE');
    await form.getByRole('textbox', { name: /^Name/ }).fill('E2E Gold care');
    await choose(admin, 'Level', 'Gold');
    await choose(admin, 'Currency', 'USD');
    await form.getByRole('textbox', { name: /^Price/ }).fill('19.999');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.getByText('Enter a price of 0 or more with at most 2 decimals').isVisible()).toBe(true);
    await expect.poll(() => form.getByText('Choose at least one feature for a paid package').isVisible()).toBe(true);
    await form.getByRole('textbox', { name: /^Price/ }).fill('19.99');
    await form.getByTestId('package-userFeatures').getByLabel('Video consultations').check();
    await form.getByTestId('package-relativeFeatures').getByLabel('Family sharing').check();
    await form.getByRole('switch', { name: 'Unlimited followers' }).click();
    await form.getByLabel('Followers of each type').fill('3');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.getByText('Package ID is existed').isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(admin, 'console-package-form-errors');
    await form.getByRole('textbox', { name: /^Package ID/ }).fill('E2E_GOLD');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.waitFor({ state: 'detached' });
    await dismissToasts(admin);
    const gold = table.getByRole('row').filter({ hasText: 'E2E_GOLD' });
    await expect.poll(() => gold.textContent()).toContain('$19.99');
    expect(await gold.textContent()).toContain('12 months');
    const stored = await queryDatabase<{ price_minor: string; follower_limit: number; user_features: string[] }>(
      server,
      `SELECT price_minor, follower_limit, user_features FROM service_packages WHERE code = 'E2E_GOLD'`,
    );
    expect(stored).toEqual([{ price_minor: '1999', follower_limit: 3, user_features: ['VIDEO_CONSULTATION'] }]);
    const free = table.getByRole('row').filter({ hasText: 'E2E_FREE' });
    expect(await free.textContent()).toContain('Unlimited');

    // Disabled after a confirmation, then enabled again.
    await gold.getByRole('button', { name: 'Disable E2E_GOLD' }).click();
    let dialog = admin.getByRole('dialog', { name: 'Disable package E2E_GOLD?' });
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => gold.getByTestId('package-state').textContent()).toBe('Disabled');
    await dismissToasts(admin);
    await screenshot(admin, 'console-packages-list');
    await gold.getByRole('button', { name: 'Enable E2E_GOLD' }).click();
    dialog = admin.getByRole('dialog', { name: 'Enable package E2E_GOLD?' });
    await dialog.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => gold.getByTestId('package-state').textContent()).toBe('Enabled');
    await dismissToasts(admin);

    // The patient's profile: put on the paid package with a receipt.
    await admin.goto(`/admin/patients/${patient.id}`);
    await admin.getByRole('tab', { name: 'Package' }).click();
    const card = admin.getByTestId('patient-package');
    await card.waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Change package' }).click();
    dialog = admin.getByRole('dialog', { name: 'Change package' });
    await dialog.getByRole('combobox', { name: /^Package( \*)?$/ }).click();
    await admin.getByRole('option', { name: /E2E Gold care/ }).click();
    await dialog.getByLabel('Receipt number (optional)').fill('R-1001');
    await dialog.getByRole('button', { name: 'Put on this package' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => card.getByTestId('current-package-name').textContent()).toContain('E2E Gold care');
    expect(await card.getByTestId('subscription-status').first().textContent()).toBe('Active');
    expect(await card.getByTestId('subscription-history').textContent()).toContain('R-1001');
    await dismissToasts(admin);
    await screenshot(admin, 'console-patient-package');

    // The patient sees it under My package and cancels it.
    const phone = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(phone);
    await phone.getByRole('link', { name: 'My package' }).tap();
    await phone.waitForURL('**/app/subscription');
    await expect.poll(() => phone.getByTestId('my-package-name').textContent(), { timeout: 15_000 }).toBe('E2E Gold care');
    const mine = phone.getByTestId('my-package');
    expect(await mine.textContent()).toContain('$19.99');
    expect(await mine.textContent()).toContain('Video consultations');
    await expect.poll(() => phone.getByTestId('package-offer').filter({ hasText: 'E2E Free' }).count()).toBe(1);
    expect(await phone.getByText('Choose a package to buy it here, or ask your health center').isVisible()).toBe(true);
    expect(await pageWidth(phone)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(phone, 'patient-my-package-360');
    await mine.getByRole('button', { name: 'Cancel my package' }).tap();
    const confirm = phone.getByRole('dialog', { name: 'Cancel your package?' });
    await confirm.getByRole('button', { name: 'Cancel my package' }).tap();
    await expect.poll(() => phone.getByTestId('subscription-canceled').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => phone.getByTestId('my-package-name').textContent()).toBe('Zero');
    await expect
      .poll(() => phone.getByTestId('subscription-history-item').filter({ hasText: 'E2E Gold care' }).textContent())
      .toContain('Canceled');
    await screenshot(phone, 'patient-my-package-canceled-360');

    // The console shows the change.
    await admin.reload();
    await admin.getByRole('tab', { name: 'Package' }).click();
    await expect.poll(() => admin.getByTestId('current-package-name').textContent(), { timeout: 15_000 }).toContain('Zero');
    await consoleDriver.closeAll();
  });
});
