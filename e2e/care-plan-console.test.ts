import type { PrescriptionDetail } from '@rpm/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callFromPage } from './support/api.js';
import { dismissToasts, screenshot } from './support/console.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * The prescriptions tab of a patient profile (spec §2 prescriptions, §4 prescription and intake
 * states, §5 medicines and reminders): the demo doctor writes a prescription with a medicine on
 * schedule (two reminder times) and one on demand, after the §5 dose rule refused a dose of 2.3
 * under its field; sees it in use, its reminders in words and the doses of today and tomorrow;
 * edits it (a new version, the old one deactivated and linked), reuses it, deactivates the new
 * one for good. An assistant reads the same tab, in Vietnamese, without writing.
 */

const suite = useConsoleSuite();

/** Patients of the demo doctor's care team (the first ten patients of the main center), one per test. */
const PATIENT_CODE = 'BNCS10004';
const ASSISTANT_PATIENT_CODE = 'BNCS10007';
const WIDTH = { width: 1280, height: 860 };
/** The demo tenant's zone, every patient's without an app account of their own. */
const PATIENT_ZONE = 'Asia/Ho_Chi_Minh';

const rows = (page: Page) => page.getByTestId('prescriptions-table').getByTestId('prescription-row');
const doseRows = (page: Page) => page.getByTestId('doses-of-day').getByTestId('dose-row');

/** A calendar day in the patient's zone, as the console shows it (dd/MM/yyyy), `days` from today. */
function patientDay(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: PATIENT_ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(date);
}

/** The patient's wall clock now, "HH:mm". */
function patientTime(): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: PATIENT_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date());
}

/** From the patient list, by the patient's code, to the profile's prescriptions tab. */
async function openPrescriptions(page: Page, code = PATIENT_CODE): Promise<string> {
  await page.setViewportSize(WIDTH);
  await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
  await page.waitForURL('**/doctor/patients');
  await page.getByLabel('Search patients').fill(code);
  await poll(() => page.getByTestId('patient-row').count()).toBe(1);
  await page
    .getByTestId('patient-row')
    .getByRole('link', { name: /^Open the profile of / })
    .click();
  await page.getByRole('tab', { name: 'Prescriptions' }).click();
  await page.getByTestId('care-plan-tab').waitFor();
  return /\/patients\/([^/?]+)/.exec(page.url())?.[1] ?? '';
}

/** Picks a medicine from the catalogue by typing the start of its name. */
async function pickMedicine(page: Page, medicine: Locator, typed: string, name: string): Promise<void> {
  await medicine.getByLabel(/^Medicine/).fill(typed);
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  await poll(() => medicine.getByLabel(/^Medicine/).inputValue()).toBe(name);
}

describe('prescriptions in the console', () => {
  it('writes, reads, edits, reuses and deactivates a prescription, with its doses', async () => {
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    await openPrescriptions(page);
    await poll(() => page.getByText('No prescription yet').isVisible()).toBe(true);
    await screenshot(page, 'care-plan-empty');

    // Write: the prescription's fields, a medicine on schedule with two reminder times, and one on demand.
    await page.getByRole('button', { name: 'New prescription' }).click();
    const form = page.getByRole('form', { name: 'New prescription' });
    await form.getByLabel(/^Prescription name/).fill('Blood pressure control');
    await form.getByLabel(/^RX number/).fill('RX-2026-001');
    await form.getByLabel(/^Diagnosis/).fill('Hypertension, stage 1');
    // The signed-in doctor is in charge, and the prescription starts today for 30 days.
    expect(await form.getByRole('combobox', { name: /^Doctor in charge/ }).inputValue()).toBe(
      'Linh Nguyen (you)',
    );
    expect(await form.getByLabel(/^Start date/).inputValue()).toBe(patientDay(0));
    expect(await form.getByTestId('total-days').textContent()).toBe('30 days');

    const first = form.getByRole('group', { name: 'Medicine 1', exact: true });
    await pickMedicine(page, first, 'amlo', 'Amlodipine');
    // The catalogue filled the route and the form, and offers the usual strengths.
    expect(await first.getByRole('combobox', { name: /^Route/ }).inputValue()).toBe('Oral');
    expect(await first.getByRole('combobox', { name: /^Form/ }).inputValue()).toBe('Tablet');
    await first.getByLabel(/^Strength/).fill('5 mg');
    await first.getByLabel(/^Dose/).fill('2.3');
    await first.getByRole('checkbox', { name: 'Morning' }).check();
    await first.getByRole('checkbox', { name: 'Evening' }).check();
    await first.getByLabel(/^Reminder 1: label/).fill('Morning');
    await first.getByLabel(/^Reminder 1: time/).fill('08:00');
    await first.getByRole('button', { name: 'Add a reminder time' }).click();
    await first.getByLabel(/^Reminder 2: label/).fill('Evening');
    // Times are typed as digits, 24-hour: the colon comes by itself.
    await first.getByLabel(/^Reminder 2: time/).pressSequentially('2000');
    expect(await first.getByLabel(/^Reminder 2: time/).inputValue()).toBe('20:00');

    await form.getByRole('button', { name: 'Add a medicine' }).click();
    const second = form.getByRole('group', { name: 'Medicine 2', exact: true });
    // Free text: no catalogue entry, the route and form chosen by hand.
    await second.getByLabel(/^Medicine/).fill('Ginger tea');
    await second.getByLabel(/^Dose/).fill('1');
    await second.getByRole('combobox', { name: /^Route/ }).click();
    await page.getByRole('option', { name: 'Oral', exact: true }).click();
    await second.getByRole('combobox', { name: /^Form/ }).click();
    await page.getByRole('option', { name: 'Solution', exact: true }).click();
    await second.getByRole('radio', { name: 'On demand' }).check();
    expect(await second.getByTestId('schedule-fields').count()).toBe(0);
    await screenshot(page, 'care-plan-form');

    // The §5 dose rule, checked before anything is sent: its message under the dose.
    await form.getByRole('button', { name: 'Save prescription' }).click();
    const dose = first.getByLabel(/^Dose/);
    await poll(() => dose.getAttribute('aria-invalid')).toBe('true');
    expect(
      await first.getByText('Decimals allowed are only .125, .25, .33, .5, .66 and .75').isVisible(),
    ).toBe(true);
    expect(await form.getByTestId('form-problems').textContent()).toBe(
      '1 field needs attention: see the message under it.',
    );
    // Focus went to the field to fix.
    expect(await dose.evaluate((element) => element === document.activeElement)).toBe(true);
    await screenshot(page, 'care-plan-form-dose-refused');

    await dose.fill('1');
    expect(await dose.getAttribute('aria-invalid')).not.toBe('true');
    await form.getByRole('button', { name: 'Save prescription' }).click();
    await poll(() => page.getByText('Prescription “Blood pressure control” saved.').isVisible()).toBe(true);
    await dismissToasts(page);

    // The new prescription's detail: in use, its medicines with their doses and reminders in words.
    const detail = page.getByTestId('prescription-detail');
    await poll(() => detail.getByTestId('prescription-title').textContent()).toBe('Blood pressure control');
    expect(await detail.getByTestId('prescription-state').first().textContent()).toBe('In use');
    const medicines = detail.getByTestId('medicine-detail');
    expect(await medicines.count()).toBe(2);
    expect(await medicines.first().getByTestId('medicine-dose').textContent()).toBe('1 pill');
    expect(await medicines.first().getByTestId('medicine-schedule').textContent()).toBe(
      `Every day at 08:00 (Morning) and 20:00 (Evening), from ${patientDay(0)} until the prescription ends`,
    );
    expect(await medicines.nth(1).getByTestId('medicine-schedule').textContent()).toBe(
      'Taken when needed: no reminders are sent.',
    );
    expect(await medicines.nth(1).getByTestId('medicine-mode').textContent()).toBe('On demand');
    await poll(() => detail.getByTestId('usage-history').isVisible()).toBe(true);
    await screenshot(page, 'care-plan-detail');

    // The doses: today's still to come, tomorrow's both reminder times, all waiting.
    const doses = page.getByTestId('doses-of-day');
    await poll(() => doses.getByRole('heading', { name: 'Doses of today' }).isVisible()).toBe(true);
    const now = patientTime();
    const laterToday = ['08:00', '20:00'].filter((time) => time > now);
    await poll(() => doseRows(page).count()).toBe(laterToday.length);
    await doses.getByRole('button', { name: 'Next day' }).click();
    await poll(() => doses.getByRole('heading', { name: `Doses of ${patientDay(1)}` }).isVisible()).toBe(
      true,
    );
    await poll(() => doseRows(page).count()).toBe(2);
    expect(await doseRows(page).getByTestId('dose-time').allTextContents()).toEqual(['08:00', '20:00']);
    expect(await doseRows(page).getByTestId('dose-medicine').allTextContents()).toEqual([
      'Amlodipine',
      'Amlodipine',
    ]);
    expect(await doseRows(page).getByTestId('intake-state').allTextContents()).toEqual([
      'To take',
      'To take',
    ]);
    await screenshot(page, 'care-plan-doses-tomorrow');

    // The list: one prescription, in use.
    await detail.getByRole('button', { name: /All prescriptions/ }).click();
    await poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).getByTestId('prescription-state').textContent()).toBe('In use');
    expect(await rows(page).getByText('RX no. RX-2026-001').isVisible()).toBe(true);
    await screenshot(page, 'care-plan-list');

    // Edit: saved as a new version; the old one is deactivated, and each names the other.
    await rows(page).getByRole('button', { name: 'Open the prescription Blood pressure control' }).click();
    await detail.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit prescription' });
    const editedFirst = edit.getByRole('group', { name: 'Medicine 1', exact: true });
    expect(await editedFirst.getByLabel(/^Medicine/).inputValue()).toBe('Amlodipine');
    await editedFirst.getByLabel(/^Dose/).fill('1.5');
    await edit.getByRole('button', { name: 'Save as new version' }).click();
    await poll(() =>
      page
        .getByText('Prescription “Blood pressure control” saved; the earlier version is deactivated.')
        .isVisible(),
    ).toBe(true);
    await dismissToasts(page);
    await poll(() => detail.getByTestId('replaces').isVisible()).toBe(true);
    await poll(() => detail.getByTestId('medicine-dose').first().textContent()).toBe('1.5 pills');
    expect(await detail.getByTestId('prescription-state').first().textContent()).toBe('In use');
    await detail.getByRole('button', { name: 'Open the earlier version' }).click();
    await poll(() => detail.getByTestId('replaced-by').isVisible()).toBe(true);
    expect(await detail.getByTestId('prescription-state').first().textContent()).toBe('Deactivated');
    // A deactivated prescription is not edited or deactivated again; it may still be reused.
    expect(await detail.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await detail.getByRole('button', { name: 'Deactivate' }).count()).toBe(0);
    await screenshot(page, 'care-plan-replaced');

    // Reuse: the form filled in from it, starting today, the original untouched.
    await detail.getByRole('button', { name: 'Reuse as new' }).click();
    const reuse = page.getByRole('form', { name: 'Reuse as a new prescription' });
    expect(await reuse.getByLabel(/^Prescription name/).inputValue()).toBe('Blood pressure control');
    expect(await reuse.getByLabel(/^Start date/).inputValue()).toBe(patientDay(0));
    expect(
      await reuse
        .getByRole('group', { name: 'Medicine 2', exact: true })
        .getByLabel(/^Medicine/)
        .inputValue(),
    ).toBe('Ginger tea');
    await reuse.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => detail.getByTestId('replaced-by').isVisible()).toBe(true);

    // The list: the new version in use, the old one deactivated; filtered by state.
    await detail.getByRole('button', { name: /All prescriptions/ }).click();
    await poll(() => rows(page).count()).toBe(2);
    expect((await rows(page).getByTestId('prescription-state').allTextContents()).sort()).toEqual([
      'Deactivated',
      'In use',
    ]);
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Deactivated' }).click();
    await poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).getByTestId('prescription-state').textContent()).toBe('Deactivated');
    await screenshot(page, 'care-plan-list-deactivated');
    await page.getByLabel('Search', { exact: true }).fill('RX-2026');
    await poll(() => rows(page).count()).toBe(1);
    await page.getByLabel('Search', { exact: true }).fill('no such prescription');
    await poll(() => page.getByText('No prescription matches').isVisible()).toBe(true);
    await page.getByLabel('Search', { exact: true }).fill('');

    // Deactivate the new version after reading why it is permanent: its coming doses go.
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'In use' }).click();
    await poll(() => rows(page).count()).toBe(1);
    await rows(page).getByRole('button', { name: 'Open the prescription Blood pressure control' }).click();
    await detail.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate this prescription?' });
    await poll(() => dialog.getByText(/Deactivation is permanent/).isVisible()).toBe(true);
    expect(await dialog.getByText(/the patient no longer sees it in the app/).isVisible()).toBe(true);
    await screenshot(page, 'care-plan-deactivate-dialog');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await poll(() => page.getByText('Prescription deactivated.').isVisible()).toBe(true);
    await dismissToasts(page);
    await poll(() => detail.getByTestId('prescription-state').first().textContent()).toBe('Deactivated');
    expect(await detail.getByTestId('deactivated-notice').textContent()).toMatch(/by Linh Nguyen/);
    await doses.getByRole('button', { name: 'Next day' }).click();
    await poll(() => doses.getByText('No dose on this day').isVisible()).toBe(true);
  });

  it('shows an assistant the prescriptions read only, in Vietnamese', async () => {
    // The doctor writes one through the API (one session per user: from the doctor's page).
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    const patientId = await openPrescriptions(page, ASSISTANT_PATIENT_CODE);
    const doctorId = await page.evaluate(async () => {
      const response = await fetch('/auth/check-token');
      return ((await response.json()) as { data: { userId: string } }).data.userId;
    });
    const today = patientDay(0).split('/').reverse().join('-');
    const written = await callFromPage<PrescriptionDetail>(
      page,
      'POST',
      `/health/patients/${patientId}/prescriptions`,
      {
        name: 'Diabetes control',
        doctorInChargeId: doctorId,
        startDate: today,
        endDate: today,
        refills: 0,
        medicines: [
          {
            catalogueId: 'A10BA02',
            name: 'Metformin',
            dose: 0.5,
            doseUnit: 'PILL',
            strength: '500 mg',
            route: 'ORAL',
            form: 'TABLET',
            frequencyCycle: 'DAY',
            timesOfDay: ['EVENING'],
            meal: 'AFTER_MEAL',
            mode: 'ON_SCHEDULE',
            schedule: {
              times: [{ label: 'Tối', time: '23:59' }],
              repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
              startDate: today,
              endDate: null,
            },
          },
        ],
      },
    );
    expect(written.state).toBe('IN_USE');

    const assistant = await suite.signIn('doctor-assistant@demo.example', 'doctor-assistant');
    await assistant.evaluate(() => {
      localStorage.setItem('rpm.console.language', 'vi');
    });
    await assistant.setViewportSize(WIDTH);
    await assistant.goto(`/doctor-assistant/patients/${patientId}`);
    await assistant.getByRole('tab', { name: 'Đơn thuốc' }).click();
    // (A retry of this test finds the first try's prescription too.)
    await poll(() => rows(assistant).count()).toBeGreaterThanOrEqual(1);
    const row = rows(assistant).first();
    expect(await row.getByTestId('prescription-state').textContent()).toBe('Đang dùng');
    expect(await assistant.getByRole('button', { name: 'Kê đơn mới' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Mở đơn thuốc Diabetes control' }).click();
    const detail = assistant.getByTestId('prescription-detail');
    await poll(() => detail.getByTestId('medicine-dose').textContent()).toBe('0,5 viên');
    expect(await detail.getByTestId('medicine-schedule').textContent()).toBe(
      `Hằng ngày lúc 23:59 (Tối), từ ${patientDay(0)} cho đến khi hết đơn`,
    );
    expect(await detail.getByRole('button', { name: 'Sửa' }).count()).toBe(0);
    expect(await detail.getByRole('button', { name: 'Ngừng đơn' }).count()).toBe(0);
    expect(await detail.getByRole('button', { name: 'Dùng lại làm đơn mới' }).count()).toBe(0);
    await poll(() =>
      assistant.getByTestId('doses-of-day').getByRole('heading', { name: 'Các liều hôm nay' }).isVisible(),
    ).toBe(true);
    await screenshot(assistant, 'care-plan-assistant-vi');
  });

  it('lets an assistant write a care reminder (its title required) and delete it', async () => {
    const page = await suite.signIn('doctor-assistant@demo.example', 'doctor-assistant');
    await page.setViewportSize(WIDTH);
    await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
    await page.waitForURL('**/doctor-assistant/patients');
    await page.getByLabel('Search patients').fill(ASSISTANT_PATIENT_CODE);
    await poll(() => page.getByTestId('patient-row').count()).toBe(1);
    await page
      .getByTestId('patient-row')
      .getByRole('link', { name: /^Open the profile of / })
      .click();
    await page.getByRole('tab', { name: 'Prescriptions' }).click();
    const section = page.getByRole('region', { name: 'Care reminders' });
    await section.waitFor();
    await poll(() => section.getByText('Loading reminders…').count()).toBe(0);
    // (A retry starts from no reminder of an earlier try.)
    for (const leftover of await section.getByTestId('care-reminder').all()) {
      await leftover.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    }
    await poll(() => section.getByTestId('care-reminder').count()).toBe(0);
    await poll(() => section.getByText('No care reminder.').isVisible()).toBe(true);

    await section.getByRole('button', { name: 'New reminder' }).click();
    const form = page.getByRole('form', { name: 'New care reminder' });
    await form.getByRole('button', { name: 'Save reminder' }).click();
    await poll(() => form.getByLabel(/^Reminder\s*\*$/).getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel(/^Reminder\s*\*$/).fill('Measure your blood pressure');
    await form.getByLabel(/^Note for the patient/).fill('Sit quietly for 5 minutes first.');
    await screenshot(page, 'care-plan-reminder-form');
    await form.getByRole('button', { name: 'Save reminder' }).click();
    const reminder = section.getByTestId('care-reminder');
    await poll(() => reminder.count()).toBe(1);
    expect(await reminder.getByText('Measure your blood pressure').isVisible()).toBe(true);
    expect(await reminder.getByText(/with no end date$/).isVisible()).toBe(true);
    await screenshot(page, 'care-plan-reminder-list');

    await reminder.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await poll(() => section.getByTestId('care-reminder').count()).toBe(0);
  });
});
