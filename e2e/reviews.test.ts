import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts } from './support/console.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Ratings and reviews across the two apps: the demo patient rates its family doctor in the app
 * (stars chosen with the keyboard, a message and a photo); the doctor's average in the console's
 * doctor profile changes accordingly. The admin finds the review under Ratings and reviews, opens
 * it with its photo and hides it with a reason; the average goes back to what it was. The patient
 * also rates how a finished ticket was handled under My requests, and the console's ticket shows it.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
/** A real 1x1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);

/** The rating the console's doctor profile shows: "4.3" and "7 reviews". */
async function consoleRating(page: Page): Promise<string> {
  const rating = page.getByTestId('doctor-rating');
  await rating.waitFor();
  return (await rating.textContent()) ?? '';
}

describe('ratings and reviews', () => {
  it('a review written in the app changes the doctor’s average in the console; hiding it restores it', async () => {
    const server = suite.server;
    const [doctor] = await queryDatabase<{ id: string }>(server, `SELECT id FROM users WHERE email = 'doctor@demo.example'`);
    if (doctor === undefined) throw new Error('no demo doctor');
    // A retry starts again from no review of the demo patient.
    await queryDatabase(
      server,
      `DELETE FROM doctor_reviews WHERE patient_id IN (SELECT p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example')`,
    );
    const before = await queryDatabase<{ rating_average: string; rating_count: number }>(
      server,
      'SELECT rating_average, rating_count FROM doctor_profiles WHERE doctor_id = $1',
      [doctor.id],
    );
    const count = before[0]?.rating_count ?? 0;
    const average = Number(before[0]?.rating_average ?? 0);
    expect(count).toBeGreaterThan(0);
    const expectedAverage = Math.round(((average * count + 2) / (count + 1)) * 100) / 100;

    // The console shows the seeded average first.
    const consoleDriver = new ConsoleDriver(suite.browser, server.baseUrl);
    const admin = await consoleDriver.openPage();
    await consoleDriver.signIn(admin, 'admin@demo.example');
    await admin.waitForURL('**/admin');
    await admin.goto(`/admin/doctors/${doctor.id}`);
    await expect.poll(() => consoleRating(admin)).toContain(`${String(count)} reviews`);

    // The patient rates the doctor from its page: two stars, picked with the arrow keys.
    const phone = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(phone);
    await phone.goto(`/app/doctors/${doctor.id}`);
    const card = phone.getByTestId('doctor-reviews');
    await expect.poll(() => card.getByRole('heading', { name: 'Rate this doctor' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await card.locator('.review-list li').count()).toBeGreaterThan(0);
    // The others' reviews show no name, only an initial.
    expect(await card.locator('.review-list').textContent()).not.toContain('Pham');
    // Sending without stars says what is missing.
    await card.getByRole('button', { name: 'Send review' }).tap();
    await expect.poll(() => card.getByText('Choose from 1 to 5 stars').isVisible()).toBe(true);
    await card.getByRole('radio', { name: '1 of 5 stars' }).focus();
    await phone.keyboard.press('Space');
    await phone.keyboard.press('ArrowRight');
    expect(await card.getByRole('radio', { name: '2 of 5 stars' }).isChecked()).toBe(true);
    await card.getByLabel('Your review (optional)').fill('Kind, but the waiting room was crowded.');
    await card.getByLabel('Photos (up to 3)').setInputFiles({ name: 'waiting-room.png', mimeType: 'image/png', buffer: PNG });
    await screenshot(phone, 'patient-review-form-360');
    await card.getByRole('button', { name: 'Send review' }).tap();
    await expect.poll(() => card.getByText('Thank you: your review was saved.').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => card.getByText(`ratings: ${String(count + 1)}`).isVisible()).toBe(true);
    expect(await pageWidth(phone)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(phone, 'patient-review-saved-360');

    // The console's doctor profile shows the new average and count.
    await admin.reload();
    await expect.poll(() => consoleRating(admin)).toContain(`${String(count + 1)} reviews`);
    expect(await consoleRating(admin)).toContain(expectedAverage.toFixed(1));
    await screenshot(admin, 'console-doctor-reviews');

    // Under Ratings and reviews the admin finds it, sees the photo, and hides it with a reason.
    await admin.getByRole('link', { name: 'Ratings and reviews' }).click();
    await admin.waitForURL('**/admin/reviews');
    const table = admin.getByTestId('reviews-table');
    await admin.getByLabel('Search').fill('waiting room');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await screenshot(admin, 'console-reviews-list');
    await table.getByRole('row').nth(1).getByRole('button').first().click();
    const detail = admin.getByTestId('review-detail');
    await detail.waitFor();
    await expect.poll(() => detail.getByRole('img', { name: 'Review image 1' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await detail.getByRole('button', { name: 'Hide' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Hide' });
    await dialog.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => dialog.getByText('Enter a reason').isVisible()).toBe(true);
    await dialog.getByLabel('Reason').fill('Names another patient');
    await dialog.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => detail.getByText('Hidden', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => detail.getByText('Names another patient').isVisible()).toBe(true);
    await screenshot(admin, 'console-review-hidden');
    await dismissToasts(admin);

    await admin.goto(`/admin/doctors/${doctor.id}`);
    await expect.poll(() => consoleRating(admin)).toContain(`${String(count)} reviews`);
    const stored = await queryDatabase<{ hidden_reason: string }>(
      server,
      `SELECT hidden_reason FROM doctor_reviews WHERE message = 'Kind, but the waiting room was crowded.'`,
    );
    expect(stored).toEqual([{ hidden_reason: 'Names another patient' }]);
    await consoleDriver.closeAll();
  });

  it('the patient rates a finished ticket under My requests; the console’s ticket shows the rating', async () => {
    const server = suite.server;
    const [patient] = await queryDatabase<{ tenant_id: string; id: string }>(
      server,
      `SELECT p.tenant_id, p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    // A support ticket whose work is done, and one still open (a retry finds them again).
    await queryDatabase(server, `DELETE FROM tickets WHERE patient_id = $1 AND title LIKE 'E2E %'`, [patient.id]);
    const inserted = await queryDatabase<{ id: string; title: string }>(
      server,
      `INSERT INTO tickets (tenant_id, id, number, type, status, title, patient_id, kpi_due_at, created_at)
         SELECT $1::uuid, gen_random_uuid(), 900000 + n, 'SUPPORT', status, title, $2::uuid, now() + interval '1 day', now() - n * interval '1 minute'
         FROM (VALUES (1, 'COMPLETED', 'E2E Watch strap replacement'), (2, 'PROCESSING', 'E2E Charger does not charge')) AS rows (n, status, title)
       RETURNING id, title`,
      [patient.tenant_id, patient.id],
    );
    const done = inserted.find((row) => row.title === 'E2E Watch strap replacement');
    if (done === undefined) throw new Error('ticket not stored');

    const phone = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(phone);
    await phone.getByRole('link', { name: 'My requests' }).tap();
    await phone.waitForURL('**/app/tickets');
    const item = phone.getByTestId('my-ticket').filter({ hasText: 'E2E Watch strap replacement' });
    await item.waitFor();
    const open = phone.getByTestId('my-ticket').filter({ hasText: 'E2E Charger does not charge' });
    expect(await open.getByText('You can rate it once it is done.').isVisible()).toBe(true);
    await item.getByRole('button', { name: 'Rate how it was handled' }).tap();
    const form = item.getByTestId('ticket-rating-form');
    await form.getByRole('button', { name: 'Send rating' }).tap();
    await expect.poll(() => form.getByText('Choose from 1 to 5 stars').isVisible()).toBe(true);
    await form.getByRole('radio', { name: '4 of 5 stars' }).check();
    await form.getByLabel('Message (optional)').fill('Fixed the same day, thank you.');
    await screenshot(phone, 'patient-ticket-rating-360');
    await form.getByRole('button', { name: 'Send rating' }).tap();
    await expect.poll(() => item.getByText('Thank you for your rating.').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await item.getByRole('img', { name: '4 stars of 5' }).isVisible()).toBe(true);
    expect(await item.getByText('Fixed the same day, thank you.').isVisible()).toBe(true);
    expect(await pageWidth(phone)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(phone, 'patient-ticket-rated-360');

    // The console's ticket shows the patient's stars and message.
    const consoleDriver = new ConsoleDriver(suite.browser, server.baseUrl);
    const operator = await consoleDriver.openPage();
    await consoleDriver.signIn(operator, 'operator@demo.example');
    await operator.waitForURL('**/operator');
    await operator.goto(`/operator/tickets/${done.id}`);
    await expect.poll(() => operator.getByTestId('customer-rating-message').textContent(), { timeout: 15_000 }).toContain('Fixed the same day, thank you.');
    await screenshot(operator, 'console-ticket-customer-rating');
    await consoleDriver.closeAll();
  });
});
