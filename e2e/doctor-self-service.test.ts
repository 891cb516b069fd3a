import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dismissToasts, screenshot } from './support/console.js';
import { openPatientTab } from './support/console-pages.js';
import { poll, useConsoleSuite } from './support/suite.js';
import { ONE_PIXEL_PNG } from './support/tenant-fixtures.js';

/**
 * A doctor's own qualification and licenses (with the expiry notice on the home), care requests
 * sent from a patient's care team, and restoring a deactivated doctor within 30 days (spec §2, §4).
 */

const suite = useConsoleSuite();

async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: suite.server.databaseUrl });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** dd/MM/yyyy typed as digits, `days` from today. */
function typedDate(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getUTCDate())}${pad(date.getUTCMonth() + 1)}${String(date.getUTCFullYear())}`;
}

describe('a doctor’s own qualification and licenses', () => {
  it('saves the qualification, adds a license expiring soon and shows the notice on the home', async () => {
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    await page.goto('/doctor/account?tab=qualification');
    const form = page.getByRole('form', { name: 'Qualification' });
    await poll(() => form.isVisible()).toBe(true);
    await form.getByLabel('Years of experience').fill('12');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Profile saved.').isVisible()).toBe(true);
    await dismissToasts(page);

    await page.getByRole('button', { name: 'Add license' }).click();
    const license = page.getByRole('form', { name: 'Add a medical license' });
    await license.getByLabel(/^Name/).fill('Renewal certificate');
    await license.getByLabel(/^Valid until/).fill(typedDate(20));
    await license
      .locator('input[type="file"]')
      .setInputFiles({ name: 'license.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
    await license.getByRole('button', { name: 'Add license' }).click();
    await poll(() => page.getByText('License added.').isVisible()).toBe(true);
    await dismissToasts(page);
    const table = page.getByTestId('licenses-table');
    await poll(() => table.getByText('Renewal certificate', { exact: true }).isVisible()).toBe(true);
    const row = table.locator('tr', { hasText: 'Renewal certificate' });
    await poll(() => row.getByText(/Expires in (19|20|21) days/).isVisible()).toBe(true);
    await poll(() => page.getByTestId('license-expiry-notice').isVisible()).toBe(true);
    await screenshot(page, 'doctor-own-qualification');

    // A reload keeps what was saved.
    await page.reload();
    await poll(() =>
      page.getByRole('form', { name: 'Qualification' }).getByLabel('Years of experience').inputValue(),
    ).toBe('12');

    await page.goto('/doctor');
    const notice = page.getByTestId('license-expiry-notice');
    await poll(() => notice.getByText(/Renewal certificate.*expires on/).isVisible()).toBe(true);
    await screenshot(page, 'doctor-home-license-notice');
    await notice.getByRole('link', { name: 'Manage your licenses' }).click();
    await page.waitForURL('**/doctor/account?tab=qualification');

    // The own license is removed again by the doctor.
    await page.getByRole('button', { name: 'Delete license Renewal certificate' }).click();
    await page
      .getByRole('dialog', { name: 'Delete license' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await poll(() => page.getByText('License removed.').isVisible()).toBe(true);
  });
});

describe('care requests from the patient page', () => {
  it('sends a request to a doctor with a message, shows it waiting and cancels it', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await openPatientTab(page, 'admin', 'BNCS10037', 'Care team');
    await poll(() => page.getByRole('heading', { name: 'Care requests' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Send care request' }).click();
    const form = page.getByRole('form', { name: 'Send a care request to a doctor' });
    await form.getByRole('button', { name: 'Send care request' }).click();
    await poll(() => form.getByText('Choose a doctor').isVisible()).toBe(true);
    await form.getByRole('combobox', { name: 'Doctor' }).fill('Bao');
    await page.getByRole('option', { name: 'Bao Tran' }).click();
    await form.getByLabel('Message').fill('Please follow her blood pressure');
    await form.getByRole('button', { name: 'Send care request' }).click();
    await poll(() => page.getByText('Care request sent.').isVisible()).toBe(true);
    await dismissToasts(page);

    const requests = page.getByTestId('care-requests-table');
    const sent = requests.locator('tbody tr', { hasText: 'Please follow her blood pressure' });
    await poll(() => sent.isVisible()).toBe(true);
    expect(await sent.getByText('Waiting').isVisible()).toBe(true);
    await screenshot(page, 'care-request-waiting');

    // A second request to the same doctor is refused until the first is canceled.
    await page.getByRole('button', { name: 'Send care request' }).click();
    await form.getByRole('combobox', { name: 'Doctor' }).fill('Bao');
    await page.getByRole('option', { name: 'Bao Tran' }).click();
    await form.getByRole('button', { name: 'Send care request' }).click();
    await poll(() => form.getByTestId('send-request-error').isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).click();

    await requests.getByRole('button', { name: 'Cancel the request to Bao Tran' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel care request' })
      .getByRole('button', { name: 'Cancel request' })
      .click();
    await poll(() => page.getByText('Care request canceled.').isVisible()).toBe(true);
    await poll(() => sent.getByText('Canceled').isVisible()).toBe(true);
  });
});

describe('deactivated doctors', () => {
  it('restores a doctor deactivated 5 days ago and refuses one deactivated 40 days ago', async () => {
    await sql(
      `UPDATE users SET status = 'DISABLED', updated_at = now() - interval '5 days' WHERE role = 'DOCTOR' AND first_name = 'Cuc'`,
    );
    await sql(
      `UPDATE users SET status = 'DISABLED', updated_at = now() - interval '40 days' WHERE role = 'DOCTOR' AND first_name = 'Vinh'`,
    );
    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.goto('/admin/requests?tab=deactivated');
    const table = page.getByTestId('deactivated-doctors');
    await poll(() => table.locator('tbody tr').count()).toBe(2);
    await poll(() => table.getByText(/2[45] days left/).isVisible()).toBe(true);
    expect(await table.getByText('Restore period over').isVisible()).toBe(true);
    await screenshot(page, 'deactivated-doctors');

    await table.getByRole('button', { name: 'Restore Vinh Hoang' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore doctor' });
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await poll(() => dialog.getByTestId('restore-error').textContent()).toBe(
      'A deactivated doctor can be restored within 30 days only; this period is over',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await table.getByRole('button', { name: 'Restore Cuc Le' }).click();
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await poll(() => page.getByText('Cuc Le restored.').isVisible()).toBe(true);
    await poll(() => table.locator('tbody tr').count()).toBe(1);
  });
});
