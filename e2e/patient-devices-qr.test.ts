import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TENANT_CODE } from './support/harness.js';
import { DEMO_PATIENT, logInPatient, PHONE, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Binding a watch from its QR code in a browser without BarcodeDetector (removed from the page to
 * be sure), at 390×844 with touch: a photo of the code picked through the file input, and the
 * camera (Chromium's fake camera playing a video of the code). The code fills the model and
 * serial; nothing is bound until the patient presses Bind. Unusable photos get their messages.
 */

const VIDEO = { width: 640, height: 480 };
const workDir = mkdtempSync(path.join(tmpdir(), 'rpm-qr-'));
const CAMERA_SERIAL = 'E2E-GT5-700102';

/**
 * A one-frame YUV4MPEG2 video of the QR code for text, dark on light in the middle of the frame;
 * Chromium's fake camera plays it in a loop.
 */
function qrVideo(text: string): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = 8;
  const left = Math.floor((VIDEO.width - modules.size * scale) / 2);
  const top = Math.floor((VIDEO.height - modules.size * scale) / 2);
  const luma = Buffer.alloc(VIDEO.width * VIDEO.height, 235);
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column) !== 1) continue;
      for (let y = 0; y < scale; y += 1) {
        const start = (top + row * scale + y) * VIDEO.width + left + column * scale;
        luma.fill(16, start, start + scale);
      }
    }
  }
  const chroma = Buffer.alloc((VIDEO.width / 2) * (VIDEO.height / 2) * 2, 128);
  const file = path.join(workDir, 'qr.y4m');
  const header = `YUV4MPEG2 W${VIDEO.width} H${VIDEO.height} F10:1 Ip A1:1 C420jpeg\n`;
  writeFileSync(file, Buffer.concat([Buffer.from(header), Buffer.from('FRAME\n'), luma, chroma]));
  return file;
}

// The fake camera plays a video of the camera test's watch code, granted without asking.
const suite = usePhoneSuite({
  browserArgs: [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${qrVideo(`GT5:${CAMERA_SERIAL}`)}`,
  ],
});
const query = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
  queryDatabase<T>(suite.server, sql, values);
let tenantId: string;
let patientId: string;

beforeAll(async () => {
  const [tenant] = await query<{ id: string }>(`SELECT id FROM tenants WHERE code = $1`, [DEMO_TENANT_CODE]);
  const [patient] = await query<{ id: string }>(`SELECT p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = $1`, [DEMO_PATIENT]);
  if (!tenant || !patient) throw new Error('demo tenant or patient missing');
  tenantId = tenant.id;
  patientId = patient.id;
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

async function stockWatch(model: string, serial: string): Promise<void> {
  await query(
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, firmware_version)
     VALUES ($1, gen_random_uuid(), $2, $3, $4, NULL, '1.0.3')`,
    [tenantId, model, serial, `02:00:00:${serial.slice(-6, -4)}:${serial.slice(-4, -2)}:${serial.slice(-2)}`],
  );
}

const boundTo = async (serial: string) =>
  (await query<{ patient_id: string | null }>(`SELECT patient_id FROM devices WHERE serial_number = $1`, [serial]))[0]?.patient_id;

/** Logs the demo patient in on a phone whose browser has no BarcodeDetector and opens the bind screen. */
async function openBindScreen(): Promise<Page> {
  const page = await suite.openPhone({ permissions: ['camera'] });
  await page.context().addInitScript(() => {
    delete (window as Window & { BarcodeDetector?: unknown }).BarcodeDetector;
  });
  await logInPatient(page);
  await page.getByRole('link', { name: 'Devices' }).first().tap();
  await page.waitForURL('**/app/devices');
  await page.getByRole('link', { name: 'Bind a watch' }).tap();
  await page.waitForURL('**/app/devices/bind');
  expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
  return page;
}

/** Picks a file through the "Pick a photo of the QR code" button, as the phone's chooser would. */
async function pickPhoto(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Pick a photo of the QR code' }).tap();
  await (await chooser).setFiles(file);
}

describe('patient app: binding a watch from its QR code without BarcodeDetector', () => {
  it('reads a photo of the code, fills model and serial, and binds only once the patient confirms', async () => {
    const serial = 'E2E-GT5-700101';
    await stockWatch('GT5', serial);
    const page = await openBindScreen();
    const serialField = page.getByLabel('Serial number');

    // Photos that cannot be used: not a picture, a code naming no watch, a picture with no code.
    await pickPhoto(page, { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This file could not be opened as a picture. Pick a photo of the QR code.');
    const otherCode = await QRCode.toBuffer('https://example.com/menu?table=4', { type: 'png', width: 300 });
    await pickPhoto(page, { name: 'menu.png', mimeType: 'image/png', buffer: otherCode });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This QR code does not name a supported watch. Type the serial number instead.');
    const blank = await QRCode.toBuffer('x', { type: 'png', width: 200, color: { dark: '#ffffffff', light: '#ffffffff' } });
    await pickPhoto(page, { name: 'blank.png', mimeType: 'image/png', buffer: blank });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^No QR code was found in this photo\./);
    expect(await serialField.inputValue()).toBe('');

    // The watch's code, as a JSON object: model and serial filled, told to check them; nothing bound yet.
    const photo = await QRCode.toBuffer(JSON.stringify({ model: 'gt5', serialNumber: serial }), { type: 'png', width: 480, margin: 4 });
    await pickPhoto(page, { name: 'watch-box.png', mimeType: 'image/png', buffer: photo });
    await expect.poll(() => serialField.inputValue()).toBe(serial);
    expect(await page.getByLabel('Model').inputValue()).toBe('GT5');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: `Read from the QR code: GT5 ${serial}. Check them, then press Bind.` }).isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Bind');
    expect(await boundTo(serial)).toBeNull();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    for (const name of ['Scan the QR code', 'Pick a photo of the QR code', 'Bind']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
    }
    await screenshot(page, 'patient-devices-qr');

    await page.getByRole('button', { name: 'Bind', exact: true }).tap();
    await page.waitForURL('**/app/devices');
    await expect.poll(() => page.getByRole('link', { name: /GT5/ }).first().textContent()).toContain(`Serial ${serial}`);
    expect(await boundTo(serial)).toBe(patientId);
  });

  it('reads the code from camera frames in the page and binds once the patient confirms', async () => {
    await stockWatch('GT5', CAMERA_SERIAL);
    const page = await openBindScreen();
    await page.getByRole('button', { name: 'Scan the QR code' }).tap();
    await expect.poll(() => page.getByLabel('Serial number').inputValue(), { timeout: 20_000 }).toBe(CAMERA_SERIAL);
    expect(await page.getByLabel('Model').inputValue()).toBe('GT5');
    // The camera is released once the code is read.
    await expect.poll(() => page.locator('video').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Scan the QR code' }).isVisible()).toBe(true);
    expect(await boundTo(CAMERA_SERIAL)).toBeNull();
    await screenshot(page, 'patient-devices-qr-camera');

    await page.getByRole('button', { name: 'Bind', exact: true }).tap();
    await page.waitForURL('**/app/devices');
    expect(await boundTo(CAMERA_SERIAL)).toBe(patientId);
  });
});
