import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from './support/api.js';
import { ConsoleDriver } from './support/console.js';
import type { RunningServer } from './support/harness.js';
import { logInPatient, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Alerts on the phone (spec §4), at 390×844 with touch: a high-risk reading brings the full-screen
 * confirmation with the tenant's countdown; "I am fine" stops the SMS to the followers, no answer
 * lets the server's escalation send it. The SOS button's countdown cancelled sends nothing; left
 * to run, it opens a case with the phone's location and message, a voice message is recorded
 * (Chromium's fake microphone) and the console's SOS case page plays it.
 */

/** The tenant's confirmation window for this test (spec §9: adjustable, 15 s by default). */
const CONFIRM_SECONDS = 10;

// A fake microphone, granted without asking.
const suite = usePhoneSuite({ browserArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] });
let server: RunningServer;
let driver: ConsoleDriver;
let phone: Page;
let adminCookie = '';
let patient: { id: string; userId: string; followers: number };

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

async function callAsAdmin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      cookie: adminCookie,
      origin: server.baseUrl,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: T; code?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${envelope.code ?? ''}`);
  return envelope.data;
}

/** The patient back to normal, in a new alert episode (as after values came down). */
const resetPatient = () =>
  query(
    `UPDATE patients SET status = 'NORMAL', alert_episode_level = 'NORMAL', alerts_suppressed_until_normal = false WHERE id = $1`,
    [patient.id],
  );

/** A high-risk SpO2 reading (below 92 %, above the SOS band), posted as the watch would. */
const postHighRiskReading = () =>
  callAsAdmin('POST', '/collector/readings', {
    batchId: randomUUID(),
    patientId: patient.id,
    readings: [{ measure: 'SPO2', value: 90, source: 'WIRELESS_DEVICE', measuredAt: new Date(Date.now() - 60_000).toISOString() }],
  });

const followerSms = async () =>
  Number(
    (
      await query<{ total: string }>(
        `SELECT count(*) AS total FROM patient_messages link JOIN outbox_messages m ON m.tenant_id = link.tenant_id AND m.id = link.message_id
          WHERE link.patient_id = $1 AND m.purpose = 'HIGH_RISK_FOLLOWER_SMS'`,
        [patient.id],
      )
    )[0]?.total ?? 'NaN',
  );

const sosCases = async () =>
  Number((await query<{ total: string }>('SELECT count(*) AS total FROM sos_cases WHERE patient_id = $1', [patient.id]))[0]?.total ?? 'NaN');

beforeAll(async () => {
  server = suite.server;
  driver = new ConsoleDriver(suite.browser, server.baseUrl);
  adminCookie = await sessionCookie(server.baseUrl, 'admin@demo.example');
  const [found] = await query<{ id: string; user_id: string }>(
    `SELECT p.id, p.user_id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
  );
  if (found === undefined) throw new Error('the demo patient has no record');
  const [followers] = await query<{ total: string }>('SELECT count(*) AS total FROM patient_contacts WHERE patient_id = $1', [found.id]);
  let followerCount = Number(followers?.total ?? 0);
  if (followerCount === 0) {
    await callAsAdmin('POST', `/account/patients/${found.id}/contacts`, {
      contactType: 'EMERGENCY',
      name: 'Mai',
      phone: '0902000001',
      relationship: 'WIFE',
      favourite: true,
    });
    followerCount = 1;
  }
  patient = { id: found.id, userId: found.user_id, followers: followerCount };
  await query(`UPDATE sos_cases SET status = 'CLOSED', closed_at = now(), close_reason = 'test' WHERE patient_id = $1 AND status <> 'CLOSED'`, [patient.id]);
  await callAsAdmin('PUT', '/account/alert-settings', { highRiskConfirmSeconds: CONFIRM_SECONDS, sosKpiMinutes: 5 });
  // The navigation badge counts unread alerts and unread updates: the demo's unread updates are
  // read first, so that reading the alerts empties it.
  await query('UPDATE notifications SET read_at = now() WHERE recipient_id = $1 AND read_at IS NULL', [patient.userId]);

  phone = await suite.keepPhone({
    permissions: ['geolocation', 'microphone'],
    geolocation: { latitude: 10.7769, longitude: 106.7009 },
  });
  await phone.context().grantPermissions(['geolocation', 'microphone'], { origin: server.baseUrl });
  await logInPatient(phone);
}, 120_000);

afterAll(async () => {
  await driver.closeAll();
});

describe('high-risk confirmation', () => {
  it('"I am fine" answers the alert: its timer is cancelled and no SMS goes to the followers', async () => {
    await resetPatient();
    const smsBefore = await followerSms();
    await postHighRiskReading();
    const dialog = phone.getByRole('alertdialog', { name: 'Are you all right?' });
    await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
    // The tenant's seconds, counting down.
    const countdown = Number(await dialog.getByTestId('high-risk-countdown').locator('.countdown-number').textContent());
    expect(countdown).toBeGreaterThan(0);
    expect(countdown).toBeLessThanOrEqual(CONFIRM_SECONDS);
    expect(await dialog.getByText(/^Your SpO2 reading is at high risk\.$/).isVisible()).toBe(true);
    // Focus starts on the first answer and stays in the dialog.
    expect(await phone.evaluate(() => document.activeElement?.textContent)).toBe('I am fine');
    await screenshot(phone, 'patient-alerts-high-risk');
    await dialog.getByRole('button', { name: 'I am fine' }).tap();
    await expect.poll(() => dialog.getByTestId('high-risk-outcome').textContent()).toContain('Thank you');
    const [alert] = await query<{ answer: string }>(
      `SELECT answer FROM alerts WHERE patient_id = $1 AND level = 'HIGH_RISK' ORDER BY created_at DESC LIMIT 1`,
      [patient.id],
    );
    expect(alert?.answer).toBe('CONFIRMED_FINE');
    const timers = await query<{ total: string }>(
      `SELECT count(*) AS total FROM graphile_worker._private_jobs WHERE key LIKE $1`,
      [`%high-risk:${patient.id}`],
    );
    expect(Number(timers[0]?.total)).toBe(0);
    expect(await followerSms()).toBe(smsBefore);
    await dialog.getByRole('button', { name: 'Close' }).tap();
    await expect.poll(() => dialog.count()).toBe(0);
  }, 60_000);

  it('no answer lets the escalation go ahead: every follower gets an SMS (once), and the app says so', async () => {
    await resetPatient();
    const smsBefore = await followerSms();
    await postHighRiskReading();
    const dialog = phone.getByRole('alertdialog', { name: 'Are you all right?' });
    await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(() => dialog.getByTestId('high-risk-outcome').textContent(), { timeout: 30_000 })
      .toBe('No answer: your followers are being told by SMS.');
    // The server's timer (its job runner) sends the SMS; the first alert's answer sent none.
    await expect.poll(() => followerSms(), { timeout: 30_000 }).toBe(smsBefore + patient.followers);
    const [alert] = await query<{ answer: string }>(
      `SELECT answer FROM alerts WHERE patient_id = $1 AND level = 'HIGH_RISK' ORDER BY created_at DESC LIMIT 1`,
      [patient.id],
    );
    expect(alert?.answer).toBe('ESCALATED');
    await screenshot(phone, 'patient-alerts-high-risk-no-answer');
    await dialog.getByRole('button', { name: 'Close' }).tap();

    // Both alerts are in the notifications list, unread; the Alerts tab says how many.
    const alertsTab = phone.getByRole('navigation').getByRole('link', { name: 'Alerts' });
    await expect.poll(() => alertsTab.getAttribute('aria-label')).toMatch(/^Alerts, [2-9]\d* unread$/);
    await alertsTab.tap();
    await phone.waitForURL('**/app/notifications');
    const items = phone.getByTestId('notification');
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(2);
    expect(await items.first().textContent()).toContain('High risk: SpO2');
    const unread = await phone.getByTestId('unread-count').textContent();
    await phone.getByRole('button', { name: 'Mark all read' }).tap();
    await expect.poll(() => phone.getByTestId('unread-count').count()).toBe(0);
    expect(unread).toMatch(/unread$/);
    await expect.poll(() => phone.locator('.nav-badge').count()).toBe(0);
    expect(await alertsTab.getAttribute('aria-label')).toBeNull();
    await screenshot(phone, 'patient-alerts-notifications');
  }, 90_000);
});

describe('SOS button', () => {
  it('cancelled within the 5 s countdown: no SOS call leaves the phone and no case opens', async () => {
    await resetPatient();
    const casesBefore = await sosCases();
    const sosCalls: string[] = [];
    const track = (request: { url: () => string }) => {
      if (request.url().includes('/health/alerts/sos')) sosCalls.push(request.url());
    };
    phone.on('request', track);
    await phone.getByRole('button', { name: 'SOS: call for help' }).tap();
    const dialog = phone.getByRole('alertdialog', { name: 'Sending SOS' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByTestId('sos-countdown').textContent()).toMatch(/Your SOS goes out in [1-5] seconds?/);
    await screenshot(phone, 'patient-alerts-sos-countdown');
    await dialog.getByRole('button', { name: 'Cancel SOS' }).tap();
    await expect.poll(() => dialog.count()).toBe(0);
    // Past the end of the countdown, still nothing.
    await phone.waitForTimeout(6000);
    phone.off('request', track);
    expect(sosCalls).toEqual([]);
    expect(await sosCases()).toBe(casesBefore);
  }, 30_000);

  it('left to run: the case opens with location and message, a voice message is attached and plays in the console', async () => {
    await resetPatient();
    // A fresh screen (a retried attempt may have left its dialog open).
    await phone.reload();
    await phone.getByRole('button', { name: 'SOS: call for help' }).tap();
    const dialog = phone.getByRole('alertdialog', { name: 'Sending SOS' });
    await dialog.getByRole('radio', { name: 'I fell' }).tap();
    await expect
      .poll(() => dialog.getByTestId('sos-sent').textContent(), { timeout: 20_000 })
      .toContain('SOS sent.');
    expect(await dialog.getByTestId('sos-sent').textContent()).toContain('Your location was shared.');
    const [opened] = await query<{ id: string; location_lat: number; location_lng: number; source: string }>(
      `SELECT id, location_lat, location_lng, source FROM sos_cases WHERE patient_id = $1 AND status <> 'CLOSED'`,
      [patient.id],
    );
    expect(opened).toMatchObject({ location_lat: 10.7769, location_lng: 106.7009, source: 'SOS_BUTTON' });

    await dialog.getByRole('button', { name: 'Record a voice message' }).tap();
    await expect.poll(() => dialog.getByTestId('recording-progress').textContent()).toMatch(/Recording… [1-9] \/ 60 s/);
    await dialog.getByRole('button', { name: 'Stop and send' }).tap();
    await expect.poll(() => dialog.getByTestId('recording-sent').isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(phone, 'patient-alerts-sos-sent');
    const [recording] = await query<{ id: string; content_type: string; size_bytes: number }>(
      'SELECT id, content_type, size_bytes FROM sos_recordings WHERE sos_case_id = $1',
      [opened?.id],
    );
    expect(recording?.content_type).toBe('audio/webm');
    expect(recording?.size_bytes).toBeGreaterThan(100);

    // The operator's console: the case with the patient's message and the recording, playable.
    const page = await driver.openPage();
    await driver.signIn(page, 'admin@demo.example');
    await page.waitForURL('**/admin');
    await page.goto(`/admin/sos/${opened?.id ?? ''}`);
    const recordings = page.getByTestId('sos-recordings');
    const audio = recordings.locator('audio');
    await expect.poll(() => audio.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('sos-history').getByText('I fell').count()).toBeGreaterThan(0);
    // The element loads the bytes with the console's session: metadata becomes available.
    await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const status = await page.evaluate(async (source) => (await fetch(source)).status, (await audio.getAttribute('src')) ?? '');
    expect(status).toBe(200);
    await screenshot(page, 'patient-alerts-console-case');
    const played = await query<{ total: string }>(
      `SELECT count(*) AS total FROM audit_log WHERE action = 'SOS_RECORDING_PLAYED' AND target_id = $1`,
      [opened?.id],
    );
    expect(Number(played[0]?.total)).toBeGreaterThan(0);
  }, 120_000);
});
