import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logInPatient, PHONE, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Sport and weight in the patient app on a phone (390×844, touch): a walk tracked with the page's
 * clock under the test's control (start, steps from the accelerometer, pause, resume, stop), saved
 * and found in the history; then a weight goal, a refused and an accepted weight, and the BMI.
 */

const suite = usePhoneSuite();
let page: Page;

beforeAll(async () => {
  page = await suite.keepPhone();
  await page.clock.install();
  await logInPatient(page);
});

/** One step as the accelerometer sees it: the magnitude dips below gravity, then rises well above. */
async function takeStep(): Promise<void> {
  await page.evaluate(() => {
    for (const z of [4, 4, 15, 15])
      window.dispatchEvent(new DeviceMotionEvent('devicemotion', { accelerationIncludingGravity: { x: 0, y: 0, z } }));
  });
  await page.clock.runFor(500);
}

const figure = (name: string) => page.locator(`[data-figure="${name}"] dd`);
const clockText = () => page.getByRole('timer').textContent();

describe('patient app sport and weight', () => {
  it('tracks a walk with pause and resume, saves it once and lists it in the history', async () => {
    // Time flows until the tracking starts (a retry may find it paused by the first try).
    await page.clock.resume();
    await page.goto('/app/sport');
    await expect.poll(() => page.getByRole('heading', { name: 'Sport', level: 1 }).isVisible()).toBe(true);
    // The ten sports of spec §3.
    expect(await page.locator('.sport-grid a').allTextContents()).toEqual([
      'Run', 'Walk', 'Cycle', 'Breathing', 'Yoga', 'Basketball', 'Football', 'Climb', 'Tennis', 'Badminton',
    ]);
    await page.getByRole('link', { name: 'Walk', exact: true }).tap();
    await page.waitForURL('**/app/sport/track/WALK');
    await expect.poll(() => page.getByText('Ready').isVisible()).toBe(true);

    // From here the page's time moves only when the test says so.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole('button', { name: 'Start' }).tap();
    await expect.poll(() => page.getByText('Tracking').isVisible()).toBe(true);
    for (let step = 0; step < 12; step++) await takeStep();
    await page.clock.runFor(54_000);
    await expect.poll(clockText).toBe('1:00');
    await expect.poll(() => figure('steps').textContent()).toBe('12');
    // No GPS was granted: the distance comes from steps × stride (0.415 × height).
    expect(await figure('distance').textContent()).toMatch(/^0\.0\d km$/);
    expect(await page.getByText('Distance estimated from your steps and height.').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Pause' }).tap();
    await page.clock.runFor(30_000);
    await takeStep();
    await expect.poll(clockText).toBe('1:00');
    expect(await figure('steps').textContent()).toBe('12');

    await page.getByRole('button', { name: 'Resume' }).tap();
    await page.clock.runFor(30_000);
    await page.getByRole('button', { name: 'Stop' }).tap();
    await expect.poll(() => page.getByText('Finished').isVisible()).toBe(true);
    await expect.poll(clockText).toBe('1:30');
    await screenshot(page, 'patient-sport-tracking');

    await page.clock.resume();
    await page.getByRole('button', { name: 'Save session' }).tap();
    await page.waitForURL(/\/app\/sport\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.locator('.sport-figures div').count()).toBeGreaterThan(3);
    expect(await page.getByRole('heading', { name: 'Walk', level: 1 }).isVisible()).toBe(true);
    const details = Object.fromEntries(
      await page.locator('.sport-figures div').evaluateAll((rows) => rows.map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent])),
    ) as Record<string, string>;
    expect(details).toMatchObject({ Time: '1:30', Steps: '12', Tempo: '8 steps/min' });
    expect(details.Distance).toMatch(/^0\.0\d km$/);
    await screenshot(page, 'patient-sport-detail');

    await page.getByRole('link', { name: 'Back to sport' }).tap();
    await page.waitForURL('**/app/sport');
    const history = page.locator('.sport-history li');
    await expect.poll(() => history.count()).toBe(1);
    expect(await history.first().textContent()).toMatch(/^Walk\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}1:30$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-sport-history');
  });

  it('sets a weight goal, refuses a weight at the §5 bound, saves one inside and shows BMI and progress', async () => {
    await page.clock.resume();
    await page.goto('/app/weight');
    await expect.poll(() => page.getByRole('heading', { name: 'Weight and BMI', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No goal set yet.').isVisible()).toBe(true);

    await page.getByLabel('Goal weight (kg)').fill('60');
    await page.getByRole('button', { name: 'Set goal' }).tap();
    await expect.poll(() => page.locator('.goal-value').last().textContent()).toBe('60.0 kg');

    const weight = page.getByLabel('Weight (kg)', { exact: true });
    await weight.fill('700');
    await page.getByRole('button', { name: 'Add weight' }).tap();
    await expect.poll(() => page.getByText('Enter a weight above 1 and below 700 kg.').isVisible()).toBe(true);
    expect(await page.locator('.weight-records li').count()).toBe(0);

    await weight.fill('72.5');
    await page.getByRole('button', { name: 'Add weight' }).tap();
    await expect.poll(() => page.getByText('Weight saved.').isVisible()).toBe(true);
    await expect.poll(() => page.locator('.weight-records li').count()).toBe(1);
    await weight.fill('70');
    await page.getByRole('button', { name: 'Add weight' }).tap();
    await expect.poll(() => page.locator('.weight-records li').count()).toBe(2);

    // BMI from the latest weight and the profile's height, in its WHO band.
    const basis = await page.getByText(/^From your latest weight and your height of/).textContent();
    const heightCm = Number(/height of ([\d.]+) cm/.exec(basis ?? '')?.[1]);
    const bmi = 70 / (heightCm / 100) ** 2;
    expect(await page.locator('.bmi-value strong').textContent()).toBe(bmi.toFixed(1));
    expect(await page.locator('.bmi-band').textContent()).toBe(bmi < 25 ? 'Normal weight' : bmi < 30 ? 'Overweight' : 'Obesity class I');
    // From 72.5 kg (the first weight after the goal) towards 60 kg: 2.5 of 12.5 kg done.
    expect(await page.getByText('10.0 kg to go').isVisible()).toBe(true);
    expect(await page.locator('progress.goal-progress').evaluate((bar) => (bar as HTMLProgressElement).value)).toBeCloseTo(0.2, 6);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-sport-weight');
  });

  it('shows and takes weights in pounds for a patient who chose the imperial system', async () => {
    const answer = await page.evaluate(async () => {
      const stored = sessionStorage.getItem('rpm.patient.session') ?? localStorage.getItem('rpm.patient.session') ?? '{}';
      const { accessToken } = JSON.parse(stored) as { accessToken?: string };
      const response = await fetch('/account/me/unit-settings', {
        method: 'PUT',
        headers: { authorization: `Bearer ${accessToken ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ unitSystem: 'imperial', thermalUnit: null, bloodGlucoseUnit: null, uricAcidUnit: null }),
      });
      return response.status;
    });
    expect(answer).toBe(200);
    await page.goto('/app/weight');
    const weight = page.getByLabel('Weight (lbs)', { exact: true });
    await expect.poll(() => weight.isVisible()).toBe(true);
    // The goal of 60 kg, shown in pounds.
    expect(await page.locator('.goal-value').last().textContent()).toBe('132.3 lb');
    // 1 543 lb is 700 kg: at the §5 bound, refused in the unit typed.
    await weight.fill('1543.24');
    await page.getByRole('button', { name: 'Add weight' }).tap();
    await expect.poll(() => page.locator('.field-error').first().isVisible()).toBe(true);
    await weight.fill('154.3');
    await page.getByRole('button', { name: 'Add weight' }).tap();
    await expect.poll(() => page.locator('.weight-records li').count()).toBe(3);
    // Stored as 70.0 kg, shown back as typed.
    expect(await page.locator('.weight-records li strong').first().textContent()).toBe('154.3 lb');
    expect(await page.getByText(/^From your latest weight and your height of/).isVisible()).toBe(true);
  });
});
