import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { callFromPage } from './support/api.js';
import { dismissToasts, screenshot } from './support/console.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * The medical records tab of a patient profile (spec §2 medical records: add, edit, detail; §3
 * Medical record): the demo doctor adds a result card with a real PDF and a PNG (after the form
 * refused a date before 1900 and a text file), sees it in the list, opens it and sees the PDF in
 * the console's embedded viewer (a blob: URL holding the bytes fetched with the session) and the
 * image inline, edits its title and removes the image after confirming, then deletes the record.
 */

const suite = useConsoleSuite();

/** A patient of the demo doctor's care team (the first ten patients of the main center). */
const PATIENT_CODE = 'BNCS10004';
const TITLE = 'Blood test, March';
const EDITED_TITLE = 'Blood test, March (fasting)';

/** A minimal valid one-page PDF: header, three objects, the cross-reference table and trailer. */
function minimalPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${String(index + 1)} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * From the patient list, by the patient's code, to the profile's medical records tab, without
 * records (a retry of the test finds the one it left).
 */
async function openMedicalRecords(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
  await page.waitForURL('**/doctor/patients');
  await page.getByLabel('Search patients').fill(PATIENT_CODE);
  await poll(() => page.getByTestId('patient-row').count()).toBe(1);
  await page
    .getByTestId('patient-row')
    .getByRole('link', { name: /^Open the profile of / })
    .click();
  await page.waitForURL(/\/doctor\/patients\/[^/]+$/);
  const records = `/account/patients/${new URL(page.url()).pathname.split('/').at(-1) ?? ''}/records`;
  const left = await callFromPage<{ items: { id: string }[] }>(page, 'GET', `${records}?page=0&size=50`);
  for (const record of left.items) await callFromPage(page, 'DELETE', `${records}/${record.id}`);
  await page.getByRole('tab', { name: 'Medical records' }).click();
}

/** Waits for dialogs and drawers to finish moving in, so a screenshot or axe sees them as shown. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

/** No serious or critical WCAG violation on the page as it is now. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  await settled(page);
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

const rows = (page: Page) => page.getByTestId('records-table').getByTestId('record-row');

describe('medical records in the console', () => {
  it('adds a record with a PDF and an image, shows them, edits it and deletes it', async () => {
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    // Refusals of the page's content security policy (an embedded viewer it would block).
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refusals.push(message.text());
    });
    await openMedicalRecords(page);
    const tab = page.getByTestId('medical-records-tab');
    await tab.waitFor();
    await poll(() => tab.getByText('No medical record yet').isVisible()).toBe(true);
    await screenshot(page, 'medical-records-empty');
    await expectAccessible(page, 'medical records, empty');

    // Add: the fields, then two files; a text file is refused before anything is sent.
    await tab.getByRole('button', { name: 'Add a record' }).click();
    const form = page.getByRole('form', { name: 'Add a record' });
    await form.getByLabel(/^Title/).fill(TITLE);
    await form.getByRole('combobox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Result card', exact: true }).click();
    // Dates are typed as digits: the slashes come by themselves.
    await form.getByLabel(/^Examination date/).pressSequentially('31121899');
    expect(await form.getByLabel(/^Examination date/).inputValue()).toBe('31/12/1899');
    await form.getByLabel(/^Place/).fill('Cho Ray Hospital');
    await form.getByLabel(/^Doctor/).fill('Dr. Tran Van An');
    await form.getByLabel(/^Note/).fill('Glucose and lipids; fasting since 22:00.');
    await form.getByTestId('record-file-input').setInputFiles([
      { name: 'result.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
      { name: 'scan.png', mimeType: 'image/png', buffer: PNG },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a scan') },
      // Called a PDF, but the server reads its first bytes.
      { name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not really a PDF') },
    ]);
    await poll(() => form.getByTestId('record-file-problems').textContent()).toBe(
      'notes.txt: This file type is not supported',
    );
    expect(await form.getByTestId('record-file-total').textContent()).toBe('3/10');
    expect(await form.getByRole('button', { name: 'Remove result.pdf' }).isVisible()).toBe(true);
    expect(await form.getByRole('button', { name: 'Remove scan.png' }).isVisible()).toBe(true);

    // A date before 1900 is refused under its field, in the server's words, and focused.
    await form.getByRole('button', { name: 'Save' }).click();
    const date = form.getByLabel(/^Examination date/);
    await poll(() => date.getAttribute('aria-invalid')).toBe('true');
    expect(
      await form.getByText('The examination date must be between 1 January 1900 and today').isVisible(),
    ).toBe(true);
    expect(await date.evaluate((element) => element === document.activeElement)).toBe(true);
    await expectAccessible(page, 'medical record form with errors');
    await screenshot(page, 'medical-records-form');

    await date.fill('');
    await date.pressSequentially('15012025');
    await form.getByRole('button', { name: 'Save' }).click();
    // Saved, with two files; the third refused by the server, named with the reason, the dialog
    // now editing the saved record.
    await poll(() => page.getByText(`“${TITLE}” saved.`).isVisible()).toBe(true);
    await dismissToasts(page);
    const retry = page.getByRole('form', { name: `Edit: ${TITLE}` });
    await poll(() =>
      retry.getByRole('alert').filter({ hasText: 'This file type is not supported' }).count(),
    ).toBe(1);
    expect(await retry.getByRole('button', { name: /^Remove / }).count()).toBe(3);
    await retry.getByRole('button', { name: 'Remove fake.pdf' }).click();
    expect(await retry.getByTestId('record-file-total').textContent()).toBe('2/10');
    await retry.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText(`“${TITLE}” saved.`).isVisible()).toBe(true);
    await poll(() => retry.count()).toBe(0);
    await dismissToasts(page);

    // The list: the record with its type, date, place, doctor, two files and who added it.
    await poll(() => rows(page).count()).toBe(1);
    const row = rows(page).first();
    expect(await row.getByTestId('record-title').textContent()).toBe(TITLE);
    expect(await row.getByTestId('record-type').textContent()).toBe('Result card');
    expect(await row.getByText('15/01/2025').isVisible()).toBe(true);
    expect(await row.getByText('Cho Ray Hospital').isVisible()).toBe(true);
    expect(await row.getByText('Dr. Tran Van An').isVisible()).toBe(true);
    expect(await row.getByTestId('record-file-count').textContent()).toBe('2');
    expect(await row.getByText('Linh Nguyen').isVisible()).toBe(true);
    await screenshot(page, 'medical-records-list');
    await expectAccessible(page, 'medical records list');
    // Searched by place, filtered by type.
    await tab.getByLabel('Search by title, place or doctor').fill('cho ray');
    await poll(() => rows(page).count()).toBe(1);
    await tab.getByLabel('Search by title, place or doctor').fill('no such place');
    await poll(() => tab.getByText('Nothing matches').isVisible()).toBe(true);
    await tab.getByLabel('Search by title, place or doctor').fill('');
    await tab.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Bill', exact: true }).click();
    await poll(() => tab.getByText('Nothing matches').isVisible()).toBe(true);
    await tab.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Result card', exact: true }).click();
    await poll(() => rows(page).count()).toBe(1);

    // Detail, opened from the keyboard: every field, and the PDF in the embedded viewer.
    const pdfAnswer = page.waitForResponse((response) =>
      /\/records\/[^/]+\/files\/[^/]+$/.test(response.url()),
    );
    await rows(page).first().getByTestId('record-title').focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: TITLE });
    const detail = drawer.getByTestId('record-detail');
    await poll(() => detail.getByTestId('record-examination-date').textContent()).toBe('15/01/2025');
    expect(await detail.getByText('Glucose and lipids; fasting since 22:00.').isVisible()).toBe(true);
    expect(await detail.getByTestId('record-added-by').textContent()).toMatch(
      /^Linh Nguyen, \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
    expect(await detail.getByTestId('attachment-name').allTextContents()).toEqual(['result.pdf', 'scan.png']);
    const pdf = detail.getByTestId('pdf-viewer');
    await pdf.waitFor();
    const pdfSource = (await pdf.getAttribute('src')) ?? '';
    expect(pdfSource).toMatch(/^blob:/);
    expect(await pdf.getAttribute('title')).toBe('result.pdf');
    // The bytes the viewer holds: fetched with the session, a PDF, the very file uploaded.
    const answer = await pdfAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    // The same address read again from the page (the session's cookies): the very file uploaded.
    const bytes = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { type: response.headers.get('content-type'), text: await response.text() };
    }, answer.url());
    expect(bytes).toEqual({ type: 'application/pdf', text: minimalPdf().toString('latin1') });
    await expectAccessible(page, 'medical record detail');
    await screenshot(page, 'medical-records-detail-pdf');

    // The image, shown inline.
    await detail.getByRole('button', { name: 'View scan.png' }).click();
    const image = detail.getByTestId('image-viewer');
    await poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    expect(await image.getAttribute('alt')).toBe('scan.png');
    expect(await detail.getByTestId('pdf-viewer').count()).toBe(0);

    // Edit: the title, and the image removed after confirming.
    await detail.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit: ${TITLE}` });
    expect(await edit.getByLabel(/^Examination date/).inputValue()).toBe('15/01/2025');
    await edit.getByLabel(/^Title/).fill(EDITED_TITLE);
    await edit.getByRole('button', { name: 'Remove scan.png' }).click();
    const confirmRemove = page.getByRole('dialog', { name: 'Remove scan.png?' });
    await confirmRemove.getByRole('button', { name: 'Remove' }).click();
    await poll(() => edit.getByRole('button', { name: 'Remove scan.png' }).count()).toBe(0);
    expect(await edit.getByTestId('record-file-total').textContent()).toBe('1/10');
    await edit.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText(`“${EDITED_TITLE}” saved.`).isVisible()).toBe(true);
    await dismissToasts(page);
    const editedDrawer = page.getByRole('dialog', { name: EDITED_TITLE });
    await poll(() => editedDrawer.getByTestId('attachment-name').allTextContents()).toEqual(['result.pdf']);
    await editedDrawer.getByTestId('pdf-viewer').waitFor();
    await poll(() => rows(page).first().getByTestId('record-title').textContent()).toBe(EDITED_TITLE);
    expect(await rows(page).first().getByTestId('record-file-count').textContent()).toBe('1');

    // Delete, after confirming: gone from the list.
    await editedDrawer.getByRole('button', { name: 'Delete' }).click();
    const confirmDelete = page.getByRole('dialog', { name: `Delete “${EDITED_TITLE}”?` });
    await poll(() => confirmDelete.getByText(`“${EDITED_TITLE}” will be deleted for good.`).isVisible()).toBe(
      true,
    );
    await settled(page);
    await screenshot(page, 'medical-records-delete-dialog');
    await confirmDelete.getByRole('button', { name: 'Delete' }).click();
    await poll(() => page.getByText(`“${EDITED_TITLE}” deleted.`).isVisible()).toBe(true);
    await poll(() => editedDrawer.count()).toBe(0);
    await poll(() => tab.getByText('Nothing matches').isVisible()).toBe(true);

    // The PDF was shown in the viewer, not refused by the page's content security policy.
    expect(refusals).toEqual([]);
  });
});
