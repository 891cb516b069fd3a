import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, screenshot } from './support/console.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * Appointments in the console (spec §2 appointments: list, detail, create and edit with the printed
 * sheet; §4 appointment states; §5 a cancel reason, a diagnosis to complete): the demo operator
 * books the demo doctor's first free slot of the next weekday morning (its approved schedule,
 * seed demo-schedules.ts) for a demo patient, prints the sheet with its check-in QR code, sees the
 * appointment upcoming in the list and is refused the check-in hours before it; a second
 * appointment is cancelled with a reason (an empty one refused); the doctor starts the first and
 * completes it with a diagnosis and advice (an empty diagnosis refused first).
 */

const suite = useConsoleSuite();

/** The demo tenant's zone, its staff's. */
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;

function todayInZone(): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const shown = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** The next Monday-to-Friday day after today, in the zone. */
function nextWeekday(): string {
  let day = addDays(todayInZone(), 1);
  while ([0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay())) day = addDays(day, 1);
  return day;
}

/** Books the slot at `index` among the free ones of the next weekday; returns its time ("08:00"). */
async function book(page: Page, patientCode: string, index: number): Promise<string> {
  await page.getByRole('navigation').getByRole('link', { name: 'Appointments' }).click();
  await page.waitForURL('**/operator/appointments');
  await page.getByRole('link', { name: 'New appointment' }).click();
  await page.waitForURL('**/operator/appointments/new');
  const form = page.getByRole('form', { name: 'Appointment' });
  await form.getByRole('combobox', { name: 'Patient' }).fill(patientCode);
  await page.getByRole('option', { name: new RegExp(patientCode) }).click();
  await form.getByRole('combobox', { name: 'Doctor' }).fill('Linh');
  await page.getByRole('option', { name: 'Linh Nguyen' }).click();
  await form.getByLabel(/^Day/).fill(shown(nextWeekday()));
  const free = form.getByTestId('slot').and(form.locator('[data-free="true"]'));
  await poll(() => free.count()).toBeGreaterThan(index);
  const slot = free.nth(index);
  const time = (await slot.textContent()) ?? '';
  await slot.click();
  await poll(() => slot.getAttribute('aria-pressed')).toBe('true');
  if (index === 0) {
    // The reason is required: said under it, nothing sent.
    await form.getByRole('button', { name: 'Book the appointment' }).click();
    await poll(() => form.getByText('This field is required').isVisible()).toBe(true);
    await screenshot(page, 'appointments-form');
  }
  await form.getByLabel(/^Reason for the visit/).fill('Follow-up of blood pressure');
  await form.getByRole('button', { name: 'Book the appointment' }).click();
  await poll(() => page.getByText('The appointment is booked').isVisible()).toBe(true);
  await page.waitForURL(/\/operator\/appointments\/[0-9a-f-]{36}$/);
  await dismissToasts(page);
  return time;
}

const status = (page: Page) => page.getByTestId('appointment-status').first().textContent();

describe('appointments in the console', () => {
  it('books, prints, lists, cancels, starts and completes appointments', async () => {
    const day = nextWeekday();
    const operator = await suite.signIn('operator@demo.example', 'operator');
    const time = await book(operator, 'BNCS10001', 0);
    await poll(() => status(operator)).toBe('Upcoming');
    expect(await operator.getByTestId('appointment-time').textContent()).toContain(`${shown(day)} ${time}–`);
    await poll(() => operator.getByRole('button', { name: 'Check in' }).isVisible()).toBe(true);
    // Only the appointment's doctor starts it.
    expect(await operator.getByRole('button', { name: 'Start examination' }).count()).toBe(0);
    await screenshot(operator, 'appointments-detail-upcoming');

    // The printed sheet: the patient, the doctor, the time and the check-in QR code.
    await operator.getByRole('link', { name: 'Print sheet' }).click();
    await operator.waitForURL(/\/print$/);
    const sheet = operator.getByTestId('appointment-sheet');
    await sheet.getByTestId('check-in-qr').waitFor();
    expect(await sheet.textContent()).toContain('Linh Nguyen');
    expect(await sheet.textContent()).toContain('BNCS10001');
    const token = ((await sheet.getByTestId('check-in-code').textContent()) ?? '').replace(/^Code: /, '');
    expect(token).toMatch(/^[0-9a-f-]{36}\./);
    await screenshot(operator, 'appointments-print-sheet');
    await operator.emulateMedia({ media: 'print' });
    expect(await operator.getByRole('navigation').isVisible()).toBe(false);
    await screenshot(operator, 'appointments-print-media');
    await operator.emulateMedia({ media: 'screen' });

    // Upcoming in the list, with its patient and doctor.
    await operator.getByRole('navigation').getByRole('link', { name: 'Appointments' }).click();
    await operator.getByText('All upcoming', { exact: true }).click();
    await operator.getByRole('textbox', { name: 'Search', exact: true }).fill('BNCS10001');
    const row = operator
      .getByTestId('appointments-table')
      .getByTestId('appointment-row')
      .filter({ hasText: `${shown(day)} ${time}` });
    await poll(() => row.count()).toBe(1);
    expect(await row.getByTestId('appointment-status').textContent()).toBe('Upcoming');
    expect(await row.textContent()).toContain('Linh Nguyen');
    await screenshot(operator, 'appointments-list');

    // The front desk's check-in is refused hours before the appointment.
    await operator.getByRole('navigation').getByRole('link', { name: 'Check-in' }).click();
    await operator.getByLabel(/^Check-in code/).fill(token);
    await operator.getByRole('button', { name: 'Check in', exact: true }).click();
    await poll(() => operator.getByTestId('check-in-refused').textContent()).toBe(
      'Check-in opens 2 hours before the appointment and closes at its end',
    );
    await screenshot(operator, 'appointments-check-in-refused');

    // A second appointment, cancelled with a reason (an empty one refused).
    await book(operator, 'BNCS10004', 1);
    await operator.getByRole('button', { name: 'Cancel appointment' }).click();
    const cancel = operator.getByRole('dialog', { name: 'Cancel the appointment' });
    await cancel.getByRole('button', { name: 'Cancel the appointment' }).click();
    await poll(() => cancel.getByText('This field is required').isVisible()).toBe(true);
    await cancel.getByLabel(/^Reason/).fill('The patient called to cancel');
    await cancel.getByRole('button', { name: 'Cancel the appointment' }).click();
    await poll(() => status(operator)).toBe('Canceled');
    expect(await operator.getByText('The patient called to cancel').isVisible()).toBe(true);
    await dismissToasts(operator);
    await screenshot(operator, 'appointments-canceled');

    // The doctor opens its appointment, starts and completes it.
    const doctor = await suite.signIn('doctor@demo.example', 'doctor');
    await doctor.getByRole('navigation').getByRole('link', { name: 'Appointments' }).click();
    await doctor.getByText('All upcoming', { exact: true }).click();
    const own = doctor
      .getByTestId('appointments-table')
      .getByTestId('appointment-row')
      .filter({ hasText: 'BNCS10001' })
      .filter({ hasText: `${shown(day)} ${time}` });
    await poll(() => own.count()).toBe(1);
    await own.getByRole('link', { name: 'View' }).click();
    await poll(() => status(doctor)).toBe('Upcoming');
    await doctor.getByRole('button', { name: 'Start examination' }).click();
    await poll(() => status(doctor)).toBe('Examining');
    await dismissToasts(doctor);
    await doctor.getByRole('button', { name: 'Complete' }).click();
    const complete = doctor.getByRole('dialog', { name: 'Complete the appointment' });
    await complete.getByRole('button', { name: 'Complete' }).click();
    await poll(() => complete.getByText('This field is required').count()).toBe(2);
    await complete.getByLabel(/^Diagnosis/).fill('Stage 1 hypertension');
    await complete.getByLabel(/^Advice/).fill('Less salt, walk 30 minutes a day, measure every morning');
    await screenshot(doctor, 'appointments-complete-dialog');
    await complete.getByRole('button', { name: 'Complete' }).click();
    await poll(() => status(doctor)).toBe('Completed');
    expect(await doctor.getByTestId('appointment-outcome').textContent()).toContain('Stage 1 hypertension');
    await dismissToasts(doctor);
    await screenshot(doctor, 'appointments-completed');
  });
});
