import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, type RunningServer } from './support/harness.js';

/**
 * SOS handling (spec §2 SOS call list, patient in SOS, ticket list, SMS and call management): an
 * SOS raised through the API (a hotline call recorded for a patient) appears in the operator's SOS
 * call list; the operator accepts it, calls a follower, resolves and closes it with reasons; the
 * ticket list shows the SOS ticket closed, and the follower call is in SMS and call management.
 */

function poll<T>(read: () => T | Promise<T>, timeout = 20_000) {
  return expect.poll(read, { timeout });
}

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
let cookie = '';

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
  const login = await fetch(`${server.baseUrl}/auth/oauth-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenant: DEMO_TENANT_CODE,
      username: 'admin@demo.example',
      password: DEMO_PASSWORD,
      grant_type: 'password',
    }),
  });
  const session = login.headers.getSetCookie().find((value) => value.startsWith('rpm_session='));
  if (session === undefined) throw new Error(`no session: ${String(login.status)}`);
  cookie = session.split(';')[0] ?? '';
});

afterEach(async () => {
  await driver.closeAll();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function callApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      cookie,
      // Cookie-authenticated writes must come from the console's own origin, as a browser sends it.
      origin: server.baseUrl,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: T; code?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${envelope.code ?? ''}`);
  return envelope.data;
}

async function signIn(username: string, area: string): Promise<Page> {
  const page = await driver.openPage();
  await driver.signIn(page, username);
  await page.waitForURL(`**/${area}`);
  return page;
}

/** Dialogs fade in; a screenshot taken during the fade shows them half transparent. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

describe('SOS call list and patient in SOS', () => {
  it('an operator takes an SOS through accept, a follower call, resolve and close; the ticket follows', async () => {
    // A patient in a normal state who has followers (the demo gives the first patients three).
    const patients = await callApi<{ items: { id: string; fullName: string; patientCode: string }[] }>(
      'GET',
      '/account/patients?status=NORMAL&sortField=code&sortType=asc&size=5',
    );
    let patient: { id: string; fullName: string; patientCode: string } | undefined;
    for (const candidate of patients.items) {
      const followers = await callApi<unknown[]>('GET', `/account/patients/${candidate.id}/contacts`);
      if (followers.length > 0) {
        patient = candidate;
        break;
      }
    }
    if (patient === undefined) throw new Error('no demo patient with followers');
    const opened = await callApi<{ id: string; status: string }>(
      'POST',
      `/account/patients/${patient.id}/sos`,
      { note: 'Patient called the hotline: chest pain', location: { lat: 10.7769, lng: 106.7009 } },
    );
    expect(opened.status).toBe('NEW');

    const page = await signIn('operator@demo.example', 'operator');
    await page.getByRole('navigation').getByRole('link', { name: 'SOS call list' }).click();
    await page.waitForURL('**/operator/sos');
    const row = page.getByTestId('sos-row').filter({ hasText: patient.fullName });
    await poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getByTestId('sos-status').getAttribute('data-status')).toBe('NEW');
    await screenshot(page, 'monitoring-sos-list');

    await row.getByRole('link', { name: `Open the SOS case of ${patient.fullName}` }).click();
    await page.waitForURL(`**/operator/sos/${opened.id}`);
    await poll(() => page.getByRole('heading', { name: `Patient in SOS: ${patient.fullName}` }).count()).toBe(
      1,
    );
    await expect.poll(() => page.getByText('10.77690, 106.70090').count()).toBe(1);

    // Accept (no reason needed).
    await page.getByTestId('sos-actions').getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await poll(() => page.getByTestId('sos-status').first().getAttribute('data-status')).toBe('IN_PROCESS');
    await dismissToasts(page);

    // Call the first follower: the call is placed and logged in the history.
    await page
      .getByTestId('followers-table')
      .getByRole('button', { name: /^Call / })
      .first()
      .click();
    await poll(() => page.getByTestId('sos-history').getByText('Called a follower').count()).toBe(1);
    await dismissToasts(page);
    await screenshot(page, 'monitoring-sos-case');

    // Resolve: the reason is required before anything is sent.
    await page.getByTestId('sos-actions').getByRole('button', { name: 'Resolve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await poll(() => dialog.getByText('Please enter this').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'monitoring-sos-reason-required');
    await dialog.getByLabel(/^Reason/).fill('Ambulance took the patient to hospital');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await poll(() => page.getByTestId('sos-status').first().getAttribute('data-status')).toBe('RESOLVED');
    await dismissToasts(page);

    await page.getByTestId('sos-actions').getByRole('button', { name: 'Close', exact: true }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/^Reason/)
      .fill('Patient admitted, family informed');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await poll(() => page.getByTestId('sos-status').first().getAttribute('data-status')).toBe('CLOSED');
    await poll(() => page.getByTestId('sos-actions').getByRole('button').count()).toBe(0);
    const history = page.getByTestId('sos-history');
    for (const entry of ['SOS received', 'Accepted', 'Called a follower', 'Resolved', 'Closed']) {
      await poll(() => history.getByText(entry, { exact: true }).count()).toBeGreaterThan(0);
    }
    await dismissToasts(page);

    // The SOS ticket followed the case to closed.
    await page.getByRole('navigation').getByRole('link', { name: 'Tickets' }).click();
    await page.waitForURL('**/operator/tickets');
    const ticket = page.getByTestId('ticket-row').filter({ hasText: patient.patientCode });
    await poll(() => ticket.count()).toBeGreaterThan(0);
    await poll(() => ticket.first().getByTestId('ticket-status').getAttribute('data-status')).toBe('SUCCESS');
    await screenshot(page, 'monitoring-tickets');
    await ticket.first().getByRole('link').click();
    await poll(() => page.getByTestId('ticket-history').getByText('Completed', { exact: true }).count()).toBe(
      1,
    );
    await screenshot(page, 'monitoring-ticket-detail');

    // The follower call is listed in SMS and call management.
    await page.getByRole('navigation').getByRole('link', { name: 'SMS and calls' }).click();
    await page.waitForURL('**/operator/messages');
    await poll(() =>
      page.getByTestId('message-row').filter({ hasText: 'Operator call' }).count(),
    ).toBeGreaterThan(0);
    await screenshot(page, 'monitoring-messages');

    await page.goto('/operator/tickets/statistics');
    await poll(() => page.getByTestId('stats-total').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'monitoring-ticket-statistics');
  }, 120_000);

  it('a doctor gets the SOS popup of its patient, opens the case and reads it (no actions, vitals aged)', async () => {
    const page = await signIn('doctor@demo.example', 'doctor');
    // A patient the doctor sees, read with the doctor's own session.
    const visible = await page.evaluate(async () => {
      const response = await fetch('/account/patients?status=NORMAL&sortField=code&sortType=desc&size=5');
      return ((await response.json()) as { data: { items: { id: string; fullName: string; accountKind: string }[] } }).data.items
        // A sub-user raises no SOS (spec §6).
        .filter((item) => item.accountKind !== 'SUB_USER');
    });
    const patient = visible[0];
    if (patient === undefined) throw new Error('the doctor sees no patient');
    const opened = await callApi<{ id: string }>('POST', `/account/patients/${patient.id}/sos`, {
      note: 'Hotline: dizziness',
    });

    const popup = page.getByRole('dialog', { name: 'SOS received' });
    await popup.waitFor({ timeout: 15_000 });
    await poll(() => popup.textContent()).toContain(patient.fullName);
    await popup.getByRole('button', { name: 'Open the case' }).click();
    await page.waitForURL(`**/doctor/sos/${opened.id}`);
    await poll(() => page.getByRole('heading', { name: `Patient in SOS: ${patient.fullName}` }).count()).toBe(1);
    // Read-only: the notice, no case actions, no call buttons, the history with the hotline note.
    await poll(() => page.getByTestId('sos-read-only').count()).toBe(1);
    expect(await page.getByTestId('sos-actions').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Call the patient' }).count()).toBe(0);
    await poll(() => page.getByTestId('sos-history').getByText('Hotline: dizziness').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'monitoring-sos-case-doctor');
  }, 90_000);
});
