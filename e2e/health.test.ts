import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toCollectorBody } from '../tools/simulator/fleet.js';
import { BATCH_MINUTES, createProfile, createRandom, generateBatch } from '../tools/simulator/vitals.js';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, type RunningServer } from './support/harness.js';

/**
 * The patient's health tab (spec §2): readings posted through the collector API (as the
 * simulator's watches post them) show as week, month and year charts; a doctor changes the
 * patient's SpO2 threshold in the editor and the next reading below it raises the patient's status.
 */

function poll<T>(read: () => T | Promise<T>, timeout = 20_000) {
  return expect.poll(read, { timeout });
}

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
let token = '';

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
  // The doctor app session: the doctor's console session in the browser stays valid beside it.
  const login = await callApi<{ accessToken: string }>('POST', '/auth/oauth-token', {
    tenant: DEMO_TENANT_CODE,
    username: 'doctor@demo.example',
    password: DEMO_PASSWORD,
    grant_type: 'password',
    app: 'doctor',
  });
  token = login.accessToken;
});

afterEach(async () => {
  await driver.closeAll();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function callApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== '') headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: T; code?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${envelope.code ?? ''}`);
  return envelope.data;
}

interface CollectorAnswer {
  accepted: number;
  rejected: number;
  status: string;
}

/** Posts `days` of simulated vitals ending now for the patient, 120 windows per request. */
async function postHistory(patientId: string, days: number): Promise<number> {
  const profile = createProfile(21);
  const random = createRandom(21);
  const size = BATCH_MINUTES * 60_000;
  const end = Math.floor(Date.now() / size) * size - size;
  const windows = Array.from({ length: (days * 24 * 60) / BATCH_MINUTES }, (_, index) =>
    generateBatch(profile, random, new Date(end - (days * 24 * 60 - index * BATCH_MINUTES) * 60_000)),
  );
  let accepted = 0;
  for (let first = 0; first < windows.length; first += 120) {
    const chunk = windows.slice(first, first + 120);
    // The nights and the ECGs of these windows travel with them, as a phone syncing a backlog sends them.
    const body = toCollectorBody({ patientId, deviceId: null }, randomUUID(), chunk);
    const answer = await callApi<CollectorAnswer>('POST', '/collector/readings', body);
    expect(answer.rejected).toBe(0);
    expect(answer.status).toBe('NORMAL');
    accepted += answer.accepted;
  }
  return accepted;
}

async function openHealthTab(patientId: string): Promise<Page> {
  const page = await driver.openPage();
  await driver.signIn(page, 'doctor@demo.example');
  await page.waitForURL('**/doctor');
  await page.goto(`/doctor/patients/${patientId}`);
  await page.getByRole('tab', { name: 'Health' }).click();
  return page;
}

const chart = (page: Page) => page.getByTestId('health-chart');

describe('health tab', () => {
  it('shows week, month and year charts of posted readings; a doctor’s SpO2 threshold raises the status', async () => {
    const patients = await callApi<{ items: { id: string; status: string }[] }>(
      'GET',
      '/account/patients?page=0&size=5&status=NORMAL&sortField=created&sortType=asc',
    );
    const patientId = patients.items[0]?.id;
    if (patientId === undefined) throw new Error('the doctor sees no NORMAL patient');
    expect(await postHistory(patientId, 10)).toBeGreaterThan(10 * 96 * 20);

    const page = await openHealthTab(patientId);
    const header = page.getByTestId('patient-status').first();
    expect(await header.getAttribute('data-status')).toBe('NORMAL');
    // Latest values: the tiles show the heart rate and SpO2 just posted.
    await poll(() => page.getByTestId('latest-HEART_RATE').count()).toBe(1);
    await expect.poll(() => page.getByTestId('latest-SPO2').textContent()).toMatch(/\d+(\.\d)? %/);

    // Week view by default (hourly rollups), then month and year (daily rollups): a drawn chart each time.
    for (const view of ['Week', 'Month', 'Year'] as const) {
      await page.getByText(view, { exact: true }).click();
      await poll(() => chart(page).getAttribute('data-view')).toBe(view.toLowerCase());
      await poll(() => chart(page).locator('canvas').count()).toBeGreaterThan(0);
      // uPlot's legend lists the average line with a value for the hovered point.
      await poll(() => chart(page).locator('.u-legend').textContent()).toContain('Heart rate average');
      if (view === 'Week') await screenshot(page, 'health-week');
    }
    await screenshot(page, 'health-year');
    // Blood pressure: two series (systolic and diastolic) in one chart.
    await page.getByTestId('measure-picker').click();
    await page.getByRole('option', { name: 'Blood pressure' }).click();
    await poll(() => chart(page).getAttribute('data-measure')).toBe('BLOOD_PRESSURE');
    await poll(() => chart(page).locator('.u-legend').textContent()).toContain('Diastolic average');
    await screenshot(page, 'health-blood-pressure');
    // A measure without data: the empty state, not an empty chart.
    await page.getByTestId('measure-picker').click();
    await page.getByRole('option', { name: 'Blood glucose' }).click();
    await poll(() => page.getByText('No data for this period').count()).toBe(1);

    // Sleep and ECG records sent by the watch.
    await page.getByRole('tab', { name: 'Sleep' }).click();
    await poll(() => page.getByTestId('sleep-timeline').count()).toBe(1);
    await screenshot(page, 'health-sleep');
    await page.getByRole('tab', { name: 'ECG' }).click();
    await poll(() => page.getByTestId('ecg-detail').locator('canvas').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('qt-flag').textContent()).toBe('Normal');
    await screenshot(page, 'health-ecg');

    // The thresholds editor: a bound that breaks the nesting is refused before saving.
    await page.getByRole('tab', { name: 'Thresholds' }).click();
    const spo2AtRiskLower = page.getByRole('textbox', { name: 'SpO2, At risk: Lower bound' });
    await poll(() => spo2AtRiskLower.inputValue()).toBe('94');
    await spo2AtRiskLower.fill('80');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await poll(() => page.getByRole('alert').filter({ hasText: 'need fixing' }).count()).toBe(1);
    expect(await page.getByTestId('custom-marker').count()).toBe(0);
    // SpO2 at risk below 97 %: saved, marked custom.
    await spo2AtRiskLower.fill('97');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await poll(() => page.getByTestId('threshold-SPO2-AT_RISK').getByTestId('custom-marker').count()).toBe(1);
    await dismissToasts(page);
    await screenshot(page, 'health-thresholds');
    const stored = await callApi<{ thresholds: { SPO2: { AT_RISK: { lower: number } } }; custom: string[] }>(
      'GET',
      `/health/patients/${patientId}/thresholds`,
    );
    expect(stored.thresholds.SPO2.AT_RISK.lower).toBe(97);
    expect(stored.custom).toEqual(['SPO2.AT_RISK']);
    expect(await header.getAttribute('data-status')).toBe('NORMAL');

    // The next reading, 96 %: normal by the defaults, at risk by the doctor's threshold.
    const answer = await callApi<CollectorAnswer>('POST', '/collector/readings', {
      batchId: randomUUID(),
      patientId,
      readings: [
        { measure: 'SPO2', value: 96, measuredAt: new Date().toISOString(), source: 'WIRELESS_DEVICE' },
      ],
    });
    expect(answer).toMatchObject({ accepted: 1, status: 'AT_RISK' });
    // The open profile follows by itself (the health tab polls the latest values).
    await poll(() => header.getAttribute('data-status'), 40_000).toBe('AT_RISK');
    await poll(() => page.getByTestId('vital-status').getAttribute('data-status')).toBe('AT_RISK');
    await screenshot(page, 'health-status-raised');
  });
});
