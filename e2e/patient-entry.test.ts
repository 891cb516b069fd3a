import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PATIENT, logInPatient, pageWidth, PHONE, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * The patient app's entry screens on a phone (390×844, touch): manual entry refused at a spec §5
 * bound and saved inside it, a photo of a printed reading (drawn on a canvas here) read by the
 * server's OCR, checked and saved as photo OCR readings, and visitor mode, which keeps readings on
 * the phone and sends nothing.
 */

const suite = usePhoneSuite();

/** A fresh phone, with every request it makes recorded. */
async function openPhone(): Promise<{ page: Page; requests: Request[] }> {
  const page = await suite.openPhone();
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return { page, requests };
}

/** The demo patient's readings of a source, as stored. */
async function storedReadings(source: string): Promise<{ measure: string; value: number }[]> {
  const rows = await queryDatabase<{ measure: string; value: number | string }>(
    suite.server,
    `SELECT r.measure, r.value FROM readings r JOIN patients p ON p.id = r.patient_id
       JOIN users u ON u.id = p.user_id
      WHERE u.email = $1 AND r.source = $2 ORDER BY r.measure`,
    [DEMO_PATIENT, source],
  );
  return rows.map((row) => ({ measure: row.measure, value: Number(row.value) }));
}

const pathOf = (request: Request) => new URL(request.url()).pathname;

describe('patient app entry', () => {
  it('refuses SpO2 at the §5 bound, warns over the threshold, and saves a value inside', async () => {
    const { page, requests } = await openPhone();
    await logInPatient(page);
    await page.getByRole('link', { name: 'Add', exact: true }).tap();
    await page.waitForURL('**/app/entry');
    await expect.poll(() => page.getByRole('heading', { name: 'Add a reading' }).isVisible()).toBe(true);
    await page.getByLabel('Measure', { exact: true }).selectOption('SPO2');
    const spo2 = page.getByLabel('SpO2 (%)');
    await spo2.fill('88');
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    await expect.poll(() => page.getByText('SpO2 must be above 88 and below 100 %.').isVisible()).toBe(true);
    // Refused before anything is sent.
    expect(requests.filter((request) => pathOf(request) === '/health/manual')).toEqual([]);
    // 93 % is accepted but under the at-risk line (94): a warning, not a refusal.
    await spo2.fill('93');
    await expect.poll(() => page.getByText('Over your threshold (At risk): SpO2. You can still save it.').isVisible()).toBe(true);
    await screenshot(page, 'patient-entry-manual-warning');
    await spo2.fill('97');
    expect(await page.getByText(/Over your threshold/).count()).toBe(0);
    const saved = page.waitForResponse((response) => new URL(response.url()).pathname === '/health/manual');
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { name: 'Saved' }).isVisible()).toBe(true);
    expect(await page.locator('.entry-saved-value').textContent()).toBe('SpO2: 97 %');
    expect(await storedReadings('MANUAL')).toEqual([{ measure: 'SPO2', value: 97 }]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-entry-manual-saved');
  });

  it('reads a photo of a printed blood pressure reading, lets the values be checked, and saves them as photo OCR', async () => {
    const { page } = await openPhone();
    await logInPatient(page);
    await page.goto('/app/entry/photo');
    await expect.poll(() => page.getByRole('heading', { name: 'Photo of a display' }).isVisible()).toBe(true);
    const input = page.getByLabel('Take or choose a photo');
    expect(await input.getAttribute('capture')).toBe('environment');
    // Not an image: refused on the phone with the message.
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('SYS 120') });
    await expect.poll(() => page.getByText('Choose a PNG, JPEG or WebP photo.').isVisible()).toBe(true);

    // A monitor's printed reading, drawn on a canvas.
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 480;
      canvas.height = 250;
      const context = canvas.getContext('2d');
      if (context === null) throw new Error('no 2d canvas');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = '#111111';
      context.font = 'bold 44px sans-serif';
      context.fillText('SYS 132 mmHg', 24, 70);
      context.fillText('DIA 84 mmHg', 24, 140);
      context.fillText('PUL 68 /min', 24, 210);
      return canvas.toDataURL('image/png').split(',')[1] ?? '';
    });
    await input.setInputFiles({ name: 'display.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    // The preview is a blob: image, which the app's content security policy allows.
    await expect.poll(() => page.locator('img.photo-preview').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(480);
    await page.getByRole('button', { name: 'Read the values' }).tap();
    await expect.poll(() => page.getByRole('heading', { name: 'Check the values' }).isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await page.getByLabel('Systolic (mmHg)').inputValue()).toBe('132');
    expect(await page.getByLabel('Diastolic (mmHg)').inputValue()).toBe('84');
    expect(await page.getByLabel('Heart rate (bpm)').inputValue()).toBe('68');
    // A wrong reading is corrected before saving: the pulse was 66.
    await page.getByLabel('Heart rate (bpm)').fill('66');
    await screenshot(page, 'patient-entry-photo-confirm');
    await page.getByRole('button', { name: 'Save the ticked values' }).tap();
    await expect.poll(() => page.getByRole('heading', { name: 'Saved from the photo' }).isVisible()).toBe(true);
    expect(await page.locator('.entry-list li').allTextContents()).toEqual(['Blood pressure132/84 mmHg', 'Heart rate66 bpm']);
    await screenshot(page, 'patient-entry-photo-saved');
    expect(await storedReadings('PHOTO_OCR')).toEqual([
      { measure: 'DIASTOLIC', value: 84 },
      { measure: 'HEART_RATE', value: 66 },
      { measure: 'SYSTOLIC', value: 132 },
    ]);
    // Visible afterwards on the home dashboard.
    await page.getByRole('link', { name: 'Home' }).tap();
    await expect.poll(() => page.locator('.readings li[data-measure="SYSTOLIC"]').textContent()).toContain('132');
  });

  it('keeps visitor mode readings on the phone and sends no health data', async () => {
    const { page, requests } = await openPhone();
    await page.goto('/app/login');
    await page.getByRole('link', { name: 'Use without an account (visitor mode)' }).tap();
    await page.waitForURL('**/app/visitor');
    await expect
      .poll(() => page.getByText('Visitor mode — your data stays on this phone. Nothing is sent.').isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText('No readings on this phone yet.').isVisible()).toBe(true);

    // The §5 rules hold here too.
    await page.getByLabel('Measure', { exact: true }).selectOption('HEART_RATE');
    await page.getByLabel('Heart rate (bpm)').fill('300');
    await page.getByRole('button', { name: 'Save on this phone' }).tap();
    await expect.poll(() => page.getByText('Heart rate must be above 30 and below 300 bpm.').isVisible()).toBe(true);
    await page.getByLabel('Heart rate (bpm)').fill('77');
    await page.getByRole('button', { name: 'Save on this phone' }).tap();
    await expect.poll(() => page.getByText('Saved on this phone.').isVisible()).toBe(true);
    await page.getByLabel('Measure', { exact: true }).selectOption('BLOOD_PRESSURE');
    await page.getByLabel('Systolic (mmHg)').fill('143');
    await page.getByLabel('Diastolic (mmHg)').fill('91');
    await expect.poll(() => page.getByText(/^Over your threshold \(High risk\): Systolic, Diastolic\./).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Save on this phone' }).tap();
    await expect.poll(() => page.locator('.visitor-latest li').count()).toBe(2);
    await screenshot(page, 'patient-entry-visitor');

    // Kept on the phone: still there after a reload.
    await page.reload();
    await expect.poll(() => page.locator('.visitor-history li').count()).toBe(2);
    expect(await page.locator('.visitor-latest li').allTextContents()).toEqual([
      expect.stringMatching(/^Blood pressure143\/91 mmHg/),
      expect.stringMatching(/^Heart rate77 bpm/),
    ]);

    // Nothing left the phone: no health or collector call, no request carrying the values.
    const sent = requests.filter((request) => new URL(request.url()).origin === suite.server.baseUrl);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((request) => /^\/(health|collector)\b/.test(pathOf(request))).map(pathOf)).toEqual([]);
    const bodies = sent.map((request) => request.postData() ?? '').filter((body) => body !== '');
    expect(bodies.filter((body) => /\b(77|143|91)\b/.test(body))).toEqual([]);
    expect(sent.filter((request) => request.method() !== 'GET').map((request) => `${request.method()} ${pathOf(request)}`)).toEqual([]);

    // Delete the data, then leave.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete the data on this phone' }).tap();
    await expect.poll(() => page.getByText('The data on this phone was deleted.').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No readings on this phone yet.').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Leave visitor mode' }).tap();
    await page.waitForURL('**/app/login');
  });
});
