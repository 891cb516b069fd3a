import { describe, expect, it } from 'vitest';
import { screenshot } from './support/console.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * The doctor schedule statistics in the console (spec §2 "statistical report"): the demo doctor
 * opens Statistics from its My schedule page and sees the current week day by day, with the hours of
 * its approved weekday mornings (08:00–11:30, from the day before the demo was seeded) and the
 * week's total; grouped by week, the one row says the same hours.
 */

const suite = useConsoleSuite();

/** The demo doctor's zone, in which its report's days are counted. */
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

function thisWeek(): string[] {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const monday = addDays(today, 1 - weekdayOf(today));
  return Array.from({ length: 7 }, (_, index) => addDays(monday, index));
}

/** 3.5 hours each weekday the seeded schedule covers (it starts on the UTC day before seeding). */
function expectedHours(days: readonly string[]): number[] {
  const first = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  return days.map((day) => (weekdayOf(day) <= 5 && day >= first ? 3.5 : 0));
}
const shownHours = (hours: number) => `${String(hours)} h`;

describe('schedule statistics in the console', () => {
  it('shows the demo doctor its approved hours of the current week, per day and in all', async () => {
    const days = thisWeek();
    const hours = expectedHours(days);
    const total = hours.reduce((sum, value) => sum + value, 0);
    const doctor = await suite.signIn('doctor@demo.example', 'doctor');
    await doctor.getByRole('navigation').getByRole('link', { name: 'My schedule' }).click();
    await doctor.waitForURL('**/doctor/my-schedule');
    await doctor.getByTestId('schedule-tabs').getByRole('link', { name: 'Statistics' }).click();
    await doctor.waitForURL('**/doctor/schedule-report');
    await poll(() => doctor.getByRole('heading', { name: 'Schedule statistics' }).isVisible()).toBe(true);

    const table = doctor.getByTestId('schedule-report');
    const rows = table.getByTestId('schedule-report-row');
    await poll(() => rows.count()).toBe(7);
    // Monday to Sunday, the hours column second.
    const shownDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
    const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    expect(await rows.locator('td:nth-child(1)').allTextContents()).toEqual(
      days.map((day, index) => `${weekdays[index] ?? ''} ${shownDay(day)}`),
    );
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(hours.map(shownHours));
    const totals = table.getByTestId('schedule-report-totals');
    expect(await totals.locator('td').first().textContent()).toBe(shownHours(total));
    await screenshot(doctor, 'schedule-report-days');

    // Sorted by hours, most first: the working days lead.
    await table.getByRole('button', { name: /Scheduled hours/ }).click();
    await table.getByRole('button', { name: /Scheduled hours/ }).click();
    await poll(() =>
      table.getByRole('columnheader', { name: /Scheduled hours/ }).getAttribute('aria-sort'),
    ).toBe('descending');
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(
      [...hours].sort((a, b) => b - a).map(shownHours),
    );

    // Grouped by week: one row, the same hours.
    await doctor.getByText('Week', { exact: true }).click();
    await poll(() => rows.count()).toBe(1);
    await poll(() => rows.locator('td:nth-child(2)').textContent()).toBe(shownHours(total));
    expect(await rows.locator('td:nth-child(1)').textContent()).toBe(
      `${shownDay(days[0] ?? '')} – ${shownDay(days[6] ?? '')}`,
    );
    await screenshot(doctor, 'schedule-report-week');
  });

  it('shows the main admin the center’s doctors added up, or one picked', async () => {
    const total = expectedHours(thisWeek()).reduce((sum, value) => sum + value, 0);
    const admin = await suite.signIn('main-admin@demo.example', 'smadmin');
    await admin.getByRole('navigation').getByRole('link', { name: 'Working calendar' }).click();
    await admin.waitForURL('**/smadmin/working-calendar');
    await admin.getByTestId('schedule-tabs').getByRole('link', { name: 'Statistics' }).click();
    await admin.waitForURL('**/smadmin/schedule-report');
    const totals = admin.getByTestId('schedule-report').getByTestId('schedule-report-totals');
    await poll(() => totals.locator('td').first().textContent()).toBe(shownHours(total));
    await admin.getByRole('combobox', { name: 'Doctor' }).click();
    await admin.getByRole('option', { name: 'Linh Nguyen' }).click();
    await poll(() => totals.locator('td').first().textContent()).toBe(shownHours(total));
    await screenshot(admin, 'schedule-report-admin');
  });
});
