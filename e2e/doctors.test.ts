import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, screenshot } from './support/console.js';
import { openPatientTab } from './support/console-pages.js';
import { poll, useConsoleSuite } from './support/suite.js';
import { ONE_PIXEL_PNG } from './support/tenant-fixtures.js';

/**
 * Doctors, care teams and requests (spec §2, §3, §4): the admin finds doctors by license state and
 * specialty, reads a profile with an expired license, adds a license; the demo doctor approves and
 * rejects the patients' requests they received.
 */

const suite = useConsoleSuite();

async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

const doctorNames = (page: Page) =>
  page
    .getByTestId('doctors-table')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.querySelector('td a')?.textContent ?? ''));

// Runs first: the doctors tests below give Quang Vo a valid license.
describe('care team', () => {
  it('assigns a doctor from the patient profile, refuses an expired license, and removes with confirmation', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await openPatientTab(page, 'admin', 'BNCS10037', 'Care team');
    await poll(() => page.getByText('No doctor assigned yet').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Assign doctor' }).click();
    const form = page.getByRole('form', { name: 'Assign a doctor' });
    await form.getByRole('button', { name: 'Assign doctor' }).click();
    await poll(() => form.getByText('Choose a doctor').isVisible()).toBe(true);
    await form.getByRole('combobox', { name: 'Doctor' }).fill('Quang');
    await page.getByRole('option', { name: 'Quang Vo (License expired)' }).click();
    await form.getByRole('button', { name: 'Assign doctor' }).click();
    await poll(() => form.getByTestId('assign-error').textContent()).toBe('The medical license has expired');
    await settle(page);
    await screenshot(page, 'care-team-expired');

    await form.getByRole('combobox', { name: 'Doctor' }).fill('Bao');
    await page.getByRole('option', { name: 'Bao Tran' }).click();
    await form.getByText('Family doctor').click();
    await form.getByRole('button', { name: 'Assign doctor' }).click();
    await poll(() => page.getByText('Doctor assigned.').isVisible()).toBe(true);
    await dismissToasts(page);
    const team = page.getByTestId('care-team-table');
    await poll(() => team.getByRole('link', { name: 'Bao Tran' }).isVisible()).toBe(true);
    expect(await team.getByText('Family doctor').isVisible()).toBe(true);
    await screenshot(page, 'care-team');

    await team.getByRole('button', { name: 'Remove Bao Tran from the care team' }).click();
    await page.getByRole('dialog', { name: 'Remove doctor' }).getByRole('button', { name: 'Remove' }).click();
    await poll(() => page.getByText('No doctor assigned yet').isVisible()).toBe(true);
  });
});

describe('doctors', () => {
  it('lists doctors with filters, shows an expired license, and adds a license', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Doctors' }).click();
    await page.waitForURL('**/admin/doctors');
    await poll(() => doctorNames(page)).toContain('Linh Nguyen');
    await screenshot(page, 'doctors-list');

    await page.getByRole('combobox', { name: 'License' }).click();
    await page.getByRole('option', { name: 'License expired' }).click();
    await poll(() => doctorNames(page)).toEqual(['Quang Vo']);
    expect(await page.getByTestId('license-badge').first().textContent()).toBe('Expired');
    await page.getByRole('combobox', { name: 'License' }).click();
    await page.getByRole('option', { name: 'License expired' }).click();

    await page.getByRole('combobox', { name: 'Specialty' }).fill('Endocrin');
    await page.getByRole('option', { name: 'Endocrinology' }).click();
    await poll(() => doctorNames(page)).toEqual(['Cuc Le']);

    await page.getByRole('combobox', { name: 'Specialty' }).click();
    await page.getByRole('combobox', { name: 'Specialty' }).fill('Pulmo');
    await page.getByRole('option', { name: 'Pulmonology' }).click();
    await page.getByRole('link', { name: 'Quang Vo' }).click();
    await poll(() => page.getByRole('heading', { name: 'Quang Vo' }).isVisible()).toBe(true);
    const licenses = page.getByTestId('licenses-table');
    await poll(() => licenses.getByText('Expired').isVisible()).toBe(true);
    await screenshot(page, 'doctors-profile-expired');

    // A new license, with its image, clears the warning.
    await page.getByRole('button', { name: 'Add license' }).click();
    const form = page.getByRole('form', { name: 'Add a medical license' });
    await form.getByRole('button', { name: 'Add license' }).click();
    await poll(() => form.getByText('This field is required').count()).toBeGreaterThan(0);
    await form.getByLabel(/^Name/).fill('Practising certificate 2030');
    await form.getByLabel(/^Valid until/).fill('31122030');
    await form
      .locator('input[type="file"]')
      .setInputFiles({ name: 'license.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
    await settle(page);
    await screenshot(page, 'doctors-license-form');
    await form.getByRole('button', { name: 'Add license' }).click();
    await poll(() => page.getByText('License added.').isVisible()).toBe(true);
    await dismissToasts(page);
    await poll(() => licenses.getByText('Practising certificate 2030').isVisible()).toBe(true);
    await poll(() => page.getByTestId('license-badge').first().textContent()).toBe('License valid');
    await licenses.getByRole('button', { name: 'View image' }).click();
    await poll(() =>
      page.getByRole('img', { name: 'Image of license Practising certificate 2030' }).isVisible(),
    ).toBe(true);
    await settle(page);
    await screenshot(page, 'doctors-license-image');
  });

  it('edits a doctor profile and refuses a sixth specialty', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.goto('/admin/doctors');
    await page.getByRole('link', { name: 'Vinh Hoang' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit doctor profile' });
    await form.getByLabel(/^Specialties/).click();
    await form.getByLabel(/^Specialties/).fill('Geriat');
    await page.getByRole('option', { name: 'Geriatrics' }).click();
    await form.getByLabel(/^Specialties/).fill('Oncol');
    await page.getByRole('option', { name: 'Oncology' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => form.getByText('Choose at most 5 specialties').isVisible()).toBe(true);
    await form.getByLabel(/^Specialties/).press('Escape');
    await settle(page);
    await screenshot(page, 'doctors-profile-edit');
    // Take the last one off again with the keyboard, as a person would.
    await form.getByLabel(/^Specialties/).press('Backspace');
    await form.getByLabel('Years of experience').fill('26');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Profile saved.').isVisible()).toBe(true);
    await poll(() => page.getByText('26 years').isVisible()).toBe(true);
  });
});

describe('requests', () => {
  const rows = (page: Page) => page.getByTestId('requests-received').locator('tbody tr');

  it('lets the doctor approve a received request and reject one with a reason', async () => {
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    await page.getByRole('navigation').getByRole('link', { name: 'Requests' }).click();
    await page.waitForURL('**/doctor/requests');
    await poll(() => rows(page).count()).toBe(2);
    await screenshot(page, 'requests-received');
    const firstPatient =
      (await rows(page).first().locator('td').nth(1).locator('p').first().textContent()) ?? '';

    await page.getByRole('button', { name: `Approve the request of ${firstPatient}` }).click();
    const approve = page.getByRole('form', { name: 'Approve request' });
    await settle(page);
    await screenshot(page, 'requests-approve-dialog');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await poll(() => page.getByText(`Request for ${firstPatient} approved.`).isVisible()).toBe(true);
    await dismissToasts(page);
    await poll(() => rows(page).count()).toBe(1);

    await rows(page).first().getByRole('button', { name: 'Reject' }).click();
    const reject = page.getByRole('form', { name: 'Reject request' });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await poll(() => reject.getByText('A reason is required').isVisible()).toBe(true);
    await reject.getByLabel(/^Reason/).fill('Please see the cardiologist first.');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await poll(() => rows(page).count()).toBe(0);
    await dismissToasts(page);

    // Every request, decided ones included, once the status filter is cleared.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Waiting' }).click();
    await poll(() => rows(page).count()).toBe(2);
    await poll(() =>
      page.getByTestId('requests-received').getByText('Please see the cardiologist first.').isVisible(),
    ).toBe(true);
    await screenshot(page, 'requests-decided');

    await page.getByRole('tab', { name: 'Sent' }).click();
    await poll(() => page.getByTestId('requests-sent').locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'requests-sent');
  });

  it('shows admins the doctor requests tab', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.goto('/admin/requests?tab=doctors');
    await poll(() => page.getByText('No doctor request is waiting').isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Received' }).click();
    await poll(() => page.getByTestId('requests-received').locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'requests-admin-received');
  });
});
