import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, screenshot } from './support/console.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * Doctor schedules in the console (spec §2 doctor schedule and its approval, §4 schedule states,
 * §5 conflict): the demo doctor requests weekly afternoons for next week and sees them pending
 * (striped) in its calendar and list; a second request overlapping them is refused with the
 * conflict message; the main admin, who sees the doctor's center, approves the request from the
 * "New requests" tab with its checkbox and "Approve selected", and sees it on the working calendar;
 * the doctor's calendar then shows the afternoons approved.
 */

const suite = useConsoleSuite();

/** The demo tenant's zone, the demo doctor's and admin's. */
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;

/** Today in the zone, yyyy-MM-dd. */
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
/** yyyy-MM-dd → dd/MM/yyyy, as the console shows and takes dates. */
const shown = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** Next week's Monday and Sunday, in the zone. */
function nextWeek(): { monday: string; sunday: string } {
  const today = todayInZone();
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay() || 7;
  const monday = addDays(today, 8 - weekday);
  return { monday, sunday: addDays(monday, 6) };
}

const HOURS = '14:00–17:00';

async function openMySchedule(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'My schedule' }).click();
  await page.waitForURL('**/doctor/my-schedule');
  await page.getByTestId('my-calendar').getByTestId('calendar-day').first().waitFor();
}

/** The calendar's periods of the request made here (the afternoons), next week. */
async function nextWeekAfternoons(page: Page) {
  const calendar = page.getByTestId('my-calendar');
  await calendar.getByRole('button', { name: /Next/ }).click();
  const { monday, sunday } = nextWeek();
  await poll(() => calendar.getByTestId('calendar-range').textContent()).toBe(
    `${shown(monday)} – ${shown(sunday)}`,
  );
  return calendar.getByTestId('calendar-period').filter({ hasText: HOURS });
}

describe('doctor schedules in the console', () => {
  it('requests weekly hours, is refused an overlap, gets them approved by the admin', async () => {
    const { monday, sunday } = nextWeek();
    const doctor = await suite.signIn('doctor@demo.example', 'doctor');
    await openMySchedule(doctor);
    await screenshot(doctor, 'schedules-my-schedule');

    // Request Monday, Wednesday and Friday afternoons of next week.
    await doctor.getByRole('button', { name: 'Request working hours' }).click();
    const form = doctor.getByRole('form', { name: 'Working hours request' });
    await form.getByLabel(/^From/).fill(shown(monday));
    await form.getByLabel(/^Until/).fill(shown(sunday));
    // The days are required for a weekly schedule: said under the chips.
    await form.getByLabel(/^Start time/).fill('14:00');
    await form.getByLabel(/^End time/).fill('17:00');
    await form.getByRole('button', { name: 'Send the request' }).click();
    await poll(() => form.getByText('Choose at least one day of the week').isVisible()).toBe(true);
    for (const day of ['Mon', 'Wed', 'Fri']) {
      // A chip is its label; the checkbox under it is hidden.
      await form.getByText(day, { exact: true }).click();
      await poll(() => form.getByRole('checkbox', { name: day }).isChecked()).toBe(true);
    }
    await screenshot(doctor, 'schedules-request-form');
    await form.getByRole('button', { name: 'Send the request' }).click();
    await poll(() => doctor.getByText('Your request was sent for approval').isVisible()).toBe(true);
    await dismissToasts(doctor);

    // Pending in the list and, striped, in next week's calendar.
    const row = doctor
      .getByTestId('my-schedules-table')
      .getByTestId('schedule-row')
      .filter({ hasText: `${shown(monday)} – ${shown(sunday)}` });
    await poll(() => row.getByTestId('schedule-status').textContent()).toBe('Pending');
    expect(await row.textContent()).toContain('Mon, Wed, Fri');
    const periods = await nextWeekAfternoons(doctor);
    await poll(() => periods.count()).toBe(3);
    expect(
      await periods.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status'))),
    ).toEqual(['NEW', 'NEW', 'NEW']);
    await screenshot(doctor, 'schedules-pending');

    // An hour on next Monday afternoon overlaps the request: refused with the conflict message.
    await doctor.getByRole('button', { name: 'Request working hours' }).click();
    await form.getByText('A single day', { exact: true }).click();
    await form.getByLabel(/^Day/).fill(shown(monday));
    await form.getByLabel(/^Start time/).fill('15:00');
    await form.getByLabel(/^End time/).fill('16:00');
    await form.getByRole('button', { name: 'Send the request' }).click();
    await poll(() => form.getByTestId('schedule-form-error').textContent()).toBe(
      'This schedule overlaps another schedule of the doctor',
    );
    await screenshot(doctor, 'schedules-conflict');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // The main admin approves it with the row's checkbox and "Approve selected".
    const admin = await suite.signIn('main-admin@demo.example', 'smadmin');
    await admin.getByRole('navigation').getByRole('link', { name: 'Schedule approval' }).click();
    await admin.waitForURL('**/smadmin/schedule-approval');
    await poll(() => admin.getByRole('tab', { name: 'New requests' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const request = admin
      .getByTestId('schedule-approval-table')
      .getByTestId('schedule-row')
      .filter({ hasText: `${shown(monday)} – ${shown(sunday)}` })
      .filter({ hasText: '14:00–17:00' });
    await poll(() => request.count()).toBe(1);
    expect(await request.textContent()).toContain('doctor@demo.example');
    await request.getByRole('checkbox').check();
    await poll(() => admin.getByTestId('selected-count').textContent()).toBe('1 selected');
    await screenshot(admin, 'schedules-approval');
    await admin.getByRole('button', { name: 'Approve selected' }).click();
    await poll(() => admin.getByText('1 approved').isVisible()).toBe(true);
    await poll(() => request.count()).toBe(0);
    await dismissToasts(admin);
    await admin.getByRole('tab', { name: 'Approved' }).click();
    await poll(() => request.count()).toBe(1);
    expect(await request.textContent()).toContain('Approved');
    await screenshot(admin, 'schedules-approved-tab');

    // The center's working calendar names the doctor on the afternoons.
    await admin.getByRole('navigation').getByRole('link', { name: 'Working calendar' }).click();
    await admin.waitForURL('**/smadmin/working-calendar');
    const working = admin.getByTestId('working-calendar');
    await working.getByRole('button', { name: /Next/ }).click();
    const afternoons = working.getByTestId('calendar-period').filter({ hasText: HOURS });
    await poll(() => afternoons.count()).toBe(3);
    expect(await afternoons.first().textContent()).toContain('Linh Nguyen');
    await screenshot(admin, 'schedules-working-calendar');

    // The doctor's calendar shows them approved.
    await doctor.reload();
    await doctor.getByTestId('my-calendar').getByTestId('calendar-day').first().waitFor();
    const approved = await nextWeekAfternoons(doctor);
    await poll(() =>
      approved.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status'))),
    ).toEqual(['APPROVED', 'APPROVED', 'APPROVED']);
    await screenshot(doctor, 'schedules-approved');
  });
});
