import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ConsoleDriver } from './support/console.js';
import { logInPatient, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Feedback from the app to customer care and back: the demo patient opens "Question and feedback"
 * from home, writes an error report, changes the type (asked, then cleared), writes again, adds a
 * real image and a text file named .png (refused before sending, by its content), and sends.
 * Customer care finds it in the console's feedback page, sees the image in the detail drawer and
 * replies; the app shows the reply with the feedback and a notice under Updates.
 */

const suite = usePhoneSuite();

/** A real 1x1 PNG (one blue pixel). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);

async function openConsoleAs(browser: Browser, baseUrl: string, username: string): Promise<{ page: Page; driver: ConsoleDriver }> {
  const driver = new ConsoleDriver(browser, baseUrl);
  const page = await driver.openPage();
  await driver.signIn(page, username);
  return { page, driver };
}

describe('feedback', () => {
  it('goes from the app with an image to customer care, and the reply comes back', async () => {
    const run = Date.now().toString(36).slice(-6);
    const description = `The sleep chart stays empty ${run}`;
    const phone = await suite.openPhone();
    await logInPatient(phone);
    await phone.getByRole('link', { name: 'Question and feedback' }).click();
    await phone.waitForURL(/\/app\/feedback$/);

    // Sending without anything chosen names each missing field.
    await phone.getByTestId('feedback-submit').click();
    expect(await phone.getByText('Choose the type of feedback').isVisible()).toBe(true);
    expect(await phone.getByText('Describe the error or the improvement').isVisible()).toBe(true);

    // Changing the type once something is written asks, then clears what was written.
    await phone.getByTestId('feedback-type').selectOption('ERROR');
    await phone.getByTestId('feedback-category').selectOption('SOFTWARE');
    await phone.getByTestId('feedback-description').fill('Something else');
    await phone.getByTestId('feedback-type').selectOption('IMPROVE');
    const dialog = phone.getByRole('dialog', { name: 'Change the type of feedback?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Change and clear' }).click();
    expect(await phone.getByTestId('feedback-description').inputValue()).toBe('');
    expect(await phone.getByTestId('feedback-type').inputValue()).toBe('IMPROVE');

    await phone.getByTestId('feedback-type').selectOption('ERROR');
    await phone.getByTestId('feedback-description').fill(description);
    await phone.getByTestId('feedback-suggestion').fill('Show the last night by default');
    await phone.getByTestId('feedback-images').setInputFiles([
      { name: 'screen.png', mimeType: 'image/png', buffer: PNG },
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all, only text') },
    ]);
    await expect.poll(() => phone.getByTestId('feedback-preview').count()).toBe(1);
    expect(await phone.getByTestId('feedback-image-problems').textContent()).toContain('notes.png is not a PNG, JPEG, GIF or WebP image');
    await screenshot(phone, 'feedback-app-form');
    await phone.getByTestId('feedback-submit').click();
    await expect.poll(() => phone.getByTestId('feedback-sent').isVisible(), { timeout: 15_000 }).toBe(true);
    const sent = phone.getByTestId('my-feedback').filter({ hasText: description });
    await expect.poll(() => sent.count()).toBe(1);
    expect(await sent.textContent()).toContain('No reply yet.');
    const [row] = await queryDatabase<{ id: string; images: number }>(
      suite.server,
      'SELECT f.id, (SELECT count(*)::int FROM feedback_images i WHERE i.feedback_id = f.id) AS images FROM feedback f WHERE f.description = $1',
      [description],
    );
    expect(row?.images).toBe(1);

    // Customer care: the feedback page, the detail with its image, the reply.
    const { page: desk, driver } = await openConsoleAs(suite.browser, suite.server.baseUrl, 'cskh@demo.example');
    try {
      await desk.waitForURL('**/cskh');
      await desk.getByRole('link', { name: 'Feedback' }).click();
      await desk.waitForURL('**/cskh/feedback');
      await desk.getByLabel('Search').fill(run);
      const listed = desk.getByTestId('feedback-open').filter({ hasText: description });
      await expect.poll(() => listed.count(), { timeout: 15_000 }).toBe(1);
      await listed.click();
      const detail = desk.getByTestId('feedback-detail');
      await expect.poll(() => detail.isVisible()).toBe(true);
      const image = detail.getByRole('img', { name: 'screen.png' });
      await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);
      expect(await detail.textContent()).toContain('Show the last night by default');
      await screenshot(desk, 'feedback-console-detail');
      // A blank reply is refused where it is written.
      await desk.getByTestId('feedback-reply-send').click();
      expect(await desk.getByText('Write a reply').isVisible()).toBe(true);
      await desk.getByTestId('feedback-reply').fill(`Thank you, we fixed it ${run}.`);
      await desk.getByTestId('feedback-reply-send').click();
      await expect.poll(() => detail.getByTestId('feedback-replies').textContent()).toContain(`Thank you, we fixed it ${run}.`);
      expect(await detail.getByTestId('feedback-status').textContent()).toBe('In progress');
    } finally {
      await driver.closeAll();
    }

    // Back in the app: the reply under the feedback, and a notice under Updates.
    await phone.reload();
    await expect.poll(() => sent.textContent(), { timeout: 15_000 }).toContain(`Thank you, we fixed it ${run}.`);
    await screenshot(phone, 'feedback-app-reply');
    await phone.goto('/app/notifications');
    await phone.getByRole('tab', { name: /^Updates/ }).click();
    const notice = phone.getByTestId('update').filter({ hasText: 'Reply to your feedback' });
    await expect.poll(() => notice.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await notice.first().textContent()).toContain(`Thank you, we fixed it ${run}.`);
  }, 180_000);
});
