import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TENANT_CODE } from './support/harness.js';
import { DEMO_PATIENT, logInPatient, pageWidth, PHONE, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * The patient app's health pages on a phone (390×844, touch): the demo patient's readings, a
 * night and its SpO2 posted through the collector as the app sends them; the dashboard shows the
 * latest values with their level and links to each measure; the heart rate's week and month
 * reports show the known min, max and average; the night shows its stages and timings; the OSAHS
 * screening shows the known index (25 dips in 2 hours of sleep: 12.5 an hour, mild).
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const suite = usePhoneSuite();

beforeAll(async () => {
  await seedPatientData();
});

async function callApi<T>(method: string, path: string, body: unknown, token = ''): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (token !== '') headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${suite.server.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
  const envelope = (await response.json()) as { data: T; code?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${envelope.code ?? ''}`);
  return envelope.data;
}

/** The demo patient's zone (the account default), in which the app and the server cut weeks. */
const PATIENT_ZONE = 'Asia/Ho_Chi_Minh';

/** Wednesday and Thursday noon (UTC) of the patient's last week: the same calendar days in the patient's zone (UTC+7) and the phone's (UTC). */
function lastWeek(): { wednesday: number; thursday: number; date: string } {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone: PATIENT_ZONE })
    .format(new Date())
    .split('-')
    .map(Number);
  const today = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, 12);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY - 7 * DAY;
  return {
    wednesday: monday + 2 * DAY,
    thursday: monday + 3 * DAY,
    date: new Date(monday + 2 * DAY).toISOString().slice(0, 10),
  };
}

const reading = (measure: string, value: number, at: number) => ({
  measure,
  value,
  measuredAt: new Date(at).toISOString(),
  source: 'WIRELESS_DEVICE',
});

/** The night: 20 min to fall asleep, 10 min awake in the middle, 2 h of sleep; SpO2 every minute, a 4-point dip every 6th. */
function night() {
  const start = Math.floor((Date.now() - 10 * 60 * MINUTE) / MINUTE) * MINUTE;
  const iso = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
  const spo2 = Array.from({ length: 150 }, (_, minute) =>
    reading('SPO2', minute % 6 === 3 ? 95 : 99, start + minute * MINUTE),
  );
  return {
    spo2,
    sleep: {
      startAt: iso(0),
      endAt: iso(150),
      totalMinutes: 120,
      deepMinutes: 40,
      lightMinutes: 60,
      remMinutes: 20,
      wakeCount: 1,
      stages: [
        { stage: 'AWAKE', from: iso(0), to: iso(20) },
        { stage: 'LIGHT', from: iso(20), to: iso(80) },
        { stage: 'AWAKE', from: iso(80), to: iso(90) },
        { stage: 'DEEP', from: iso(90), to: iso(130) },
        { stage: 'REM', from: iso(130), to: iso(150) },
      ],
    },
  };
}

/** Posts, as the patient's own app session: last week's heart rate, the night, and this minute's values. */
async function seedPatientData(): Promise<void> {
  const login = await callApi<{ accessToken: string }>('POST', '/auth/oauth-token', {
    tenant: DEMO_TENANT_CODE,
    username: DEMO_PATIENT,
    password: DEMO_PASSWORD,
    grant_type: 'password',
    app: 'patient',
  });
  const { wednesday, thursday } = lastWeek();
  const { spo2, sleep } = night();
  const now = Date.now() - 2 * MINUTE;
  const answer = await callApi<{ accepted: number; rejected: number }>(
    'POST',
    '/collector/readings',
    {
      batchId: randomUUID(),
      readings: [
        reading('HEART_RATE', 64, wednesday),
        reading('HEART_RATE', 70, wednesday + 10 * MINUTE),
        reading('HEART_RATE', 76, wednesday + 20 * MINUTE),
        reading('HEART_RATE', 48, thursday),
        reading('HEART_RATE', 131, thursday + 10 * MINUTE),
        ...spo2,
        reading('HEART_RATE', 72, now),
        reading('SPO2', 97, now),
        reading('STEPS', 4200, now),
      ],
      sleep: [sleep],
    },
    login.accessToken,
  );
  expect(answer.rejected).toBe(0);
  expect(answer.accepted).toBe(159);
}

/** A fresh phone with the demo patient logged in. */
async function openPhone(): Promise<Page> {
  const page = await suite.openPhone();
  await logInPatient(page);
  return page;
}

const statText = (page: Page, stat: string) => page.locator(`.stats [data-stat="${stat}"] dd`).textContent();
const fact = (page: Page, name: string) => page.locator(`.facts [data-fact="${name}"] dd`).textContent();

describe('patient app health pages', () => {
  it('shows the latest values with their level, and a measure’s week and month reports with min, max and average', async () => {
    const page = await openPhone();
    const heart = page.locator('.readings li[data-measure="HEART_RATE"]');
    await expect.poll(() => heart.getAttribute('data-level')).toBe('NORMAL');
    expect(await heart.locator('.reading-value').textContent()).toBe('72 bpm');
    expect(await heart.locator('.reading-age').textContent()).toMatch(/min ago · Normal$/);
    expect(await page.locator('.readings li[data-measure="SPO2"] .reading-value').textContent()).toBe('97 %');
    // Steps have no thresholds: shown without a level.
    expect(await page.locator('.readings li[data-measure="STEPS"]').getAttribute('data-level')).toBe('none');
    for (const name of ['Sleep', 'OSAHS screening', 'Sport', 'Weight', 'All health measures'])
      expect(await page.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-health-dashboard');

    // The value links to its measure page, opening on this week; last week is one tap back.
    await heart.getByRole('link').tap();
    await page.waitForURL('**/app/health/heart-rate');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Heart rate');
    expect(await page.getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Next period' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous period' }).tap();
    const { date } = lastWeek();
    await page.waitForURL(/\/app\/health\/heart-rate\?view=week&date=/);
    await expect.poll(() => statText(page, 'min')).toBe('48 bpm');
    expect(await statText(page, 'max')).toBe('131 bpm');
    // (64 + 70 + 76 + 48 + 131) / 5
    expect(await statText(page, 'average')).toBe('77.8 bpm');
    expect(await page.getByRole('img', { name: /^Chart of 5 values from 48 to 131 bpm$/ }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toMatch(/–/);
    await page.getByText('2 values').tap();
    expect(await page.locator('.values tbody tr').count()).toBe(2);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-health-week');

    // The month holding last week: daily rollups, the two days among them.
    await page.getByRole('button', { name: 'Month' }).tap();
    await page.waitForURL(/\/app\/health\/heart-rate\?view=month&date=/);
    const monthName = new Intl.DateTimeFormat('en-GB', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${date}T12:00:00Z`));
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe(monthName);
    // Readings of the month's other days (this minute's, the demo's) lie between these.
    await expect.poll(() => statText(page, 'min')).toBe('48 bpm');
    expect(await statText(page, 'max')).toBe('131 bpm');
    const rows = page.locator('.values tbody tr');
    await page.locator('.values summary').tap();
    const texts = await rows.allTextContents();
    expect(texts.some((text) => text.endsWith('7064–76'))).toBe(true);
    expect(texts.some((text) => text.endsWith('89.548–131'))).toBe(true);
    await screenshot(page, 'patient-health-month');
  });

  it('shows a night’s stages and timings, and its OSAHS screening with the known index', async () => {
    const page = await openPhone();
    await page.getByRole('link', { name: 'Sleep', exact: true }).tap();
    await page.waitForURL('**/app/health/sleep');
    const nightLink = page.locator('.measure-links a').first();
    await expect.poll(() => nightLink.textContent()).toMatch(/2 h 0 min$/);
    await nightLink.tap();
    await expect.poll(() => fact(page, 'total')).toBe('2 h 0 min');
    expect(await fact(page, 'deep')).toMatch(/^40 min · 33\s%/);
    expect(await fact(page, 'falling-asleep')).toBe('20 min');
    // Awake 10 minutes between light and deep sleep; nothing at the end.
    expect(await fact(page, 're-sleep')).toBe('10 min');
    expect(await fact(page, 'awake')).toBe('Woke 1 time');
    expect(await page.locator('.stage-strip .stage').count()).toBe(5);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-health-sleep');

    await page.getByRole('link', { name: 'OSAHS screening of this night' }).tap();
    await expect.poll(() => page.locator('.odi').getAttribute('data-severity')).toBe('MILD');
    expect(await page.locator('.odi-value').textContent()).toBe('12.5');
    expect(await fact(page, 'dips')).toBe('25');
    expect(await fact(page, 'lowest')).toBe('95\u00a0%');
    expect(await page.getByText('This is a screening, not a diagnosis.', { exact: false }).isVisible()).toBe(
      true,
    );
    expect(await page.locator('.bands li[aria-current="true"]').textContent()).toBe('Mild5–15 per hour');
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-health-osahs');

    // The home's OSAHS link opens the latest night's screening.
    await page.goto('/app/health/osahs');
    await expect.poll(() => page.locator('.odi-value').textContent()).toBe('12.5');

    // In Vietnamese: the same screening in the app's words and number format.
    await page.locator('header select').selectOption('vi');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sàng lọc OSAHS');
    expect(await page.locator('.odi-value').textContent()).toBe('12,5');
    expect(await page.locator('.odi-band').textContent()).toBe('Nhẹ');
    expect(await fact(page, 'sleep')).toBe('2 giờ 0 phút');
    await screenshot(page, 'patient-health-osahs-vi');
  });
});
