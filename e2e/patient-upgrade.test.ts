import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { DEMO_PATIENT, logInPatient, pageWidth, PHONE, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Paid features in the patient app (spec §6 "Paid features need the Basic package"): the demo's
 * relative, on the free Zero package, is told before trying that reading a photo and online video
 * visits need the Basic package, with a link to My package and what it can do instead (type the
 * values, book a visit at the clinic). The demo patient, on Basic, whose package ended while the
 * booking card was open, is refused by the server and sees the same notice; nothing is booked.
 */

const suite = usePhoneSuite();
const RELATIVE = 'relative@demo.example';
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(formatViolations(where, await axeViolations(page))).toBe('');
}

/** The next Monday-to-Friday day after today in the zone (the demo doctor's mornings are approved). */
function nextWeekday(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  let at = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
  while ([0, 6].includes(new Date(at).getUTCDay())) at += DAY_MS;
  return new Date(at).toISOString().slice(0, 10);
}

async function demoDoctor(): Promise<{ id: string; name: string }> {
  const [doctor] = await queryDatabase<{ id: string; name: string }>(
    suite.server,
    `SELECT id, concat_ws(' ', first_name, last_name) AS name FROM users WHERE email = 'doctor@demo.example' AND role = 'DOCTOR'`,
  );
  if (doctor === undefined) throw new Error('the demo doctor is missing');
  return doctor;
}

const appointmentsOf = (email: string) =>
  queryDatabase<{ place: string }>(
    suite.server,
    `SELECT a.place FROM appointments a JOIN patients p ON p.id = a.patient_id JOIN users u ON u.id = p.user_id WHERE u.email = $1`,
    [email],
  );

describe('upgrade required in the patient app', () => {
  it('tells a patient on Zero that photo entry and video visits need Basic, and leads to My package', async () => {
    const page = await suite.openPhone({ timezoneId: ZONE });
    await logInPatient(page, RELATIVE);

    // Photo entry: the notice in place of the photo form, manual entry offered instead.
    await page.goto('/app/entry/photo');
    const notice = page.getByTestId('upgrade-notice');
    await expect.poll(() => notice.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await notice.textContent()).toBe(
      'Basic package neededReading values from a photo needs the Basic package. You can still type your readings in. Your health center can put you on Basic.See My package',
    );
    expect(await page.getByLabel('Take or choose a photo').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Type the values instead' }).isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-upgrade-photo');
    await expectAccessible(page, 'photo entry on Zero');

    // The link leads to My package, which says the patient is on Zero.
    await notice.getByRole('link', { name: 'See My package' }).tap();
    await page.waitForURL('**/app/subscription');
    await expect.poll(() => page.getByTestId('my-package-name').textContent(), { timeout: 15_000 }).toBe('Zero');

    // Booking with the demo doctor: the online option is off, with the notice; the clinic is kept.
    const doctor = await demoDoctor();
    await page.goto(`/app/doctors/${doctor.id}`);
    const card = page.locator('section.book-card');
    await expect.poll(() => card.getByRole('heading', { name: 'Book an appointment' }).isVisible(), { timeout: 15_000 }).toBe(true);
    const cardNotice = card.getByTestId('upgrade-notice');
    await expect.poll(() => cardNotice.isVisible()).toBe(true);
    expect(await cardNotice.textContent()).toContain('Online video appointments need the Basic package. You can still book a visit at the clinic.');
    const online = card.getByRole('radio', { name: /^Online video call/ });
    expect(await online.isDisabled()).toBe(true);
    expect(await online.getAttribute('aria-describedby')).toBe(await cardNotice.getAttribute('id'));
    expect(await card.getByRole('radio', { name: 'At the clinic' }).isChecked()).toBe(true);
    await cardNotice.scrollIntoViewIfNeeded();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-upgrade-booking');
    await expectAccessible(page, 'booking card on Zero');

    // A visit at the clinic is still booked.
    await card.getByLabel('Day').fill(nextWeekday());
    const slots = card.getByTestId('slot');
    await expect.poll(() => slots.count()).toBeGreaterThan(1);
    await slots.last().tap();
    await card.getByLabel('Reason for the visit').fill('Check-up');
    await card.getByRole('button', { name: 'Book', exact: true }).tap();
    await page.waitForURL(/\/app\/appointments\/[0-9a-f-]{36}$/);
    expect(await appointmentsOf(RELATIVE)).toEqual([{ place: 'CLINIC' }]);

    // In Vietnamese too.
    await page.goto('/app/entry/photo');
    await page.getByLabel('Language').selectOption('vi');
    await expect.poll(() => notice.textContent()).toContain('Đọc chỉ số từ ảnh chụp cần gói Basic.');
    expect(await notice.getByRole('link', { name: 'Xem Gói của tôi' }).isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-upgrade-photo-vi');
    await page.getByLabel('Ngôn ngữ').selectOption('en');
  });

  it('shows the notice when the server refuses a video visit the package no longer gives', async () => {
    const [patient] = await queryDatabase<{ id: string }>(
      suite.server,
      `SELECT p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = $1`,
      [DEMO_PATIENT],
    );
    if (patient === undefined) throw new Error('no demo patient');
    const doctor = await demoDoctor();
    const page = await suite.openPhone({ timezoneId: ZONE });
    await logInPatient(page);
    await page.goto(`/app/doctors/${doctor.id}`);
    const card = page.locator('section.book-card');
    await expect.poll(() => card.getByRole('heading', { name: 'Book an appointment' }).isVisible(), { timeout: 15_000 }).toBe(true);
    // On Basic: the online option is offered, no notice.
    const online = card.getByRole('radio', { name: 'Online video call' });
    await expect.poll(() => online.isEnabled()).toBe(true);
    expect(await card.getByTestId('upgrade-notice').count()).toBe(0);

    const before = (await appointmentsOf(DEMO_PATIENT)).length;
    await card.getByLabel('Day').fill(nextWeekday());
    const slots = card.getByTestId('slot');
    await expect.poll(() => slots.count()).toBeGreaterThan(1);
    await slots.nth(2).tap();
    await card.getByLabel('Reason for the visit').fill('Video check-up');
    await online.check();
    // The package ends while the card is open, just before Book (the app read it before; filled in
    // first, so that no refetch on a slow machine shows the change before the server refuses).
    const ended = await queryDatabase<{ id: string }>(
      suite.server,
      `UPDATE subscriptions SET status = 'EXPIRED', ended_at = now() WHERE patient_id = $1 AND status IN ('ACTIVE', 'ABOUT_TO_EXPIRE') RETURNING id`,
      [patient.id],
    );
    expect(ended).toHaveLength(1);
    try {
      const refused = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/health/me/appointments' && response.request().method() === 'POST',
      );
      await card.getByRole('button', { name: 'Book', exact: true }).tap();
      expect((await refused).status()).toBe(403);
      // The notice, not an error: the online option is off and the clinic chosen; nothing booked.
      const notice = card.getByTestId('upgrade-notice');
      await expect.poll(() => notice.isVisible()).toBe(true);
      expect(await card.getByRole('alert').count()).toBe(0);
      await expect.poll(() => card.getByRole('radio', { name: /^Online video call/ }).isDisabled()).toBe(true);
      expect(await card.getByRole('radio', { name: 'At the clinic' }).isChecked()).toBe(true);
      expect(page.url()).toMatch(new RegExp(`/app/doctors/${doctor.id}$`));
      expect((await appointmentsOf(DEMO_PATIENT)).length).toBe(before);
      await notice.scrollIntoViewIfNeeded();
      await screenshot(page, 'patient-upgrade-refused');
    } finally {
      await queryDatabase(suite.server, `UPDATE subscriptions SET status = 'ACTIVE', ended_at = NULL WHERE id = $1`, [ended[0]?.id]);
    }
  });
});
