import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { callWithCookie, sessionCookie } from './support/api.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Medical records in the patient app on a small phone (360 px, touch), read only (spec §3 Medical
 * record, §6): with none yet the page says so; a doctor of the demo patient's center adds a result
 * card with a real PDF and a PNG through the staff API; the patient finds it (newest examination
 * first, filtered by type, searched by place), opens it in a sheet with every field, opens the PDF
 * (a blob: URL of the bytes fetched with the session, in a new tab) and sees the image in the app;
 * the bytes are let go when the sheet closes. The list and the sheet once more in Vietnamese.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
const TITLE = 'Blood test results (app)';
const OLDER_TITLE = 'Check-up card (app)';

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

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A 240×160 PNG: a teal band over white, enough to be seen in a screenshot. */
function bandedPng(width = 240, height = 160): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    const band = y > height / 3 && y < (2 * height) / 3;
    for (let x = 0; x < width; x += 1) row.set(band ? [11, 114, 133] : [255, 255, 255], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Attaches a file to a record as the console does: multipart field `file`, with the staff session. */
async function upload(baseUrl: string, cookie: string, path: string, name: string, type: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', cookie, origin: baseUrl },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Waits for the sheet's dialog to finish opening, so a screenshot sees it as shown. */
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

describe('patient app medical records', () => {
  it('lists the care team’s records, opens one with its PDF and image, read only', async () => {
    const [patient] = await queryDatabase<{ id: string; doctor: string }>(
      suite.server,
      `SELECT p.id,
              (SELECT d.email FROM users d WHERE d.tenant_id = p.tenant_id AND d.role = 'DOCTOR' AND d.status = 'ACTIVE'
                  AND d.health_center_id = p.health_center_id AND d.email IS NOT NULL ORDER BY d.email LIMIT 1) AS doctor
         FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    const base = suite.server.baseUrl;
    const doctor = await sessionCookie(base, patient.doctor);
    const records = `/account/patients/${patient.id}/records`;
    // A retry starts from no record of an earlier run.
    const left = await callWithCookie<{ items: { id: string }[] }>(base, doctor, 'GET', `${records}?page=0&size=50`);
    for (const record of left.items) await callWithCookie(base, doctor, 'DELETE', `${records}/${record.id}`);

    // None yet: the page says who adds them.
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);
    await page.getByRole('link', { name: 'Medicines', exact: true }).tap();
    await page.getByRole('link', { name: 'Medical records', exact: true }).tap();
    await page.waitForURL('**/app/records');
    await expect
      .poll(() => page.getByText('No medical records yet. Your care team adds them after a visit.').isVisible())
      .toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-records-empty-360');

    // The care team adds two: an older examination card without files, and a result card with a PDF and a scan.
    await callWithCookie(base, doctor, 'POST', records, {
      title: OLDER_TITLE,
      type: 'EXAMINATION_CARD',
      examinationDate: '2024-11-02',
      place: 'District 3 clinic',
    });
    const created = await callWithCookie<{ id: string }>(base, doctor, 'POST', records, {
      title: TITLE,
      type: 'RESULT_CARD',
      examinationDate: '2025-03-14',
      place: 'Cho Ray Hospital',
      doctor: 'Dr. Tran Van An',
      note: 'Fasting glucose slightly high.\nRepeat in three months.',
    });
    const pdf = minimalPdf();
    await upload(base, doctor, `${records}/${created.id}/files`, 'glucose.pdf', 'application/pdf', pdf);
    await upload(base, doctor, `${records}/${created.id}/files`, 'scan.png', 'image/png', bandedPng());

    await page.reload();
    const items = page.getByTestId('record-item');
    await expect.poll(() => items.count()).toBe(2);
    // Latest examination first, each with its type, day, place, doctor and attachments.
    const first = items.first();
    expect(await first.locator('.record-title').textContent()).toBe(TITLE);
    expect(await first.locator('.record-type').textContent()).toBe('Result card');
    expect(await first.getByText('Mar 14, 2025 · Cho Ray Hospital').isVisible()).toBe(true);
    expect(await first.getByText('Doctor: Dr. Tran Van An').isVisible()).toBe(true);
    expect(await first.getByText('2 attachments').isVisible()).toBe(true);
    expect(await items.nth(1).locator('.record-type').textContent()).toBe('Examination card');
    expect(await page.getByTestId('records-count').textContent()).toBe('2 records');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-records-list-360');
    await expectAccessible(page, 'medical records list');

    // Filtered by type, then searched by place.
    await page.getByLabel('Type', { exact: true }).selectOption('BILL');
    await expect
      .poll(() => page.getByText('No record matches. Try another word or type.').isVisible())
      .toBe(true);
    await page.getByLabel('Type', { exact: true }).selectOption('');
    await page.getByLabel('Search records').fill('cho ray');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().locator('.record-title').textContent()).toBe(TITLE);

    // The record in a sheet: every field and the note, nothing to change.
    await items.first().tap();
    const sheet = page.getByRole('dialog', { name: TITLE });
    await sheet.waitFor();
    expect(await sheet.getByTestId('record-examination-date').textContent()).toBe('Mar 14, 2025');
    expect(await sheet.getByText('Cho Ray Hospital').isVisible()).toBe(true);
    expect(await sheet.getByText('Dr. Tran Van An').isVisible()).toBe(true);
    expect(await sheet.locator('.care-note').textContent()).toBe('Fasting glucose slightly high.\nRepeat in three months.');
    expect(await sheet.getByTestId('attachment-name').allTextContents()).toEqual(['glucose.pdf', 'scan.png']);
    expect(await sheet.getByRole('button', { name: /edit|delete|remove/i }).count()).toBe(0);
    await expectAccessible(page, 'medical record sheet');
    await screenshot(page, 'patient-records-detail-360');

    // The PDF: fetched with the session and opened from its blob: URL in a new tab.
    const fileAnswer = page.waitForResponse((response) => /\/health\/me\/records\/[^/]+\/files\/[^/]+$/.test(response.url()));
    const popup = page.waitForEvent('popup');
    await sheet.getByRole('button', { name: 'Open glucose.pdf' }).tap();
    const answer = await fileAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    const tab = await popup;
    await tab.waitForURL(/^blob:http/, { waitUntil: 'commit' });
    const viewer = sheet.getByTestId('attachment-viewer');
    await viewer.waitFor();
    const pdfUrl = (await viewer.getByTestId('open-pdf').getAttribute('href')) ?? '';
    expect(pdfUrl).toBe(tab.url());
    expect(await viewer.getByTestId('download-link').getAttribute('download')).toBe('glucose.pdf');
    // The tab shows a PDF document; the Download link saves the very PDF uploaded.
    expect(await tab.evaluate(() => document.contentType)).toBe('application/pdf');
    const saving = page.waitForEvent('download');
    await viewer.getByTestId('download-link').tap();
    const saved = await saving;
    expect(saved.suggestedFilename()).toBe('glucose.pdf');
    const savedPath = await saved.path();
    expect(readFileSync(savedPath).equals(pdf)).toBe(true);
    await tab.close();
    await screenshot(page, 'patient-records-pdf-360');

    // Back to the record, then the scan shown in the app.
    await viewer.getByRole('button', { name: '‹ Back to the record' }).tap();
    await sheet.getByRole('button', { name: 'View scan.png' }).tap();
    const image = sheet.getByTestId('image-viewer');
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(240);
    const imageUrl = (await image.getAttribute('src')) ?? '';
    expect(imageUrl).toMatch(/^blob:/);
    expect(await image.getAttribute('alt')).toBe('scan.png');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-records-image-360');

    // Closed: the sheet goes and the bytes are let go.
    await sheet.getByRole('button', { name: 'Close' }).tap();
    await expect.poll(() => sheet.count()).toBe(0);
    const revoked = await page.evaluate(
      (url) =>
        new Promise<boolean>((resolve) => {
          const probe = new Image();
          probe.onload = () => {
            resolve(false);
          };
          probe.onerror = () => {
            resolve(true);
          };
          probe.src = url;
        }),
      imageUrl,
    );
    expect(revoked).toBe(true);

    // In Vietnamese: the page, the types and the dates in the language's words.
    await page.getByLabel('Search records').fill('');
    await page.locator('header select').selectOption('vi');
    await expect.poll(() => page.getByRole('heading', { name: 'Hồ sơ y tế', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.first().locator('.record-type').textContent()).toBe('Phiếu kết quả');
    expect(await items.nth(1).locator('.record-type').textContent()).toBe('Phiếu khám');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-records-list-vi-360');
    await items.first().tap();
    const viSheet = page.getByRole('dialog', { name: TITLE });
    await viSheet.waitFor();
    expect(await viSheet.getByText('Ngày khám', { exact: true }).isVisible()).toBe(true);
    expect(await viSheet.getByRole('button', { name: 'Mở glucose.pdf' }).isVisible()).toBe(true);
    await settled(page);
    await screenshot(page, 'patient-records-detail-vi-360');
  });
});
