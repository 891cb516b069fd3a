import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callFromPage, callWithCookie, sessionCookie } from './support/api.js';
import { screenshot } from './support/console.js';
import { useConsoleSuite, waitForLive } from './support/suite.js';
import { withAtRiskPatient, worklistRows, type PatientRow } from './support/worklist.js';

/**
 * A patient's status comes back down, seen live by the doctor (docs/status-lifecycle.md): an SOS
 * reading opens a case and the doctor's popup (with the vitals and their age); the doctor reads the
 * case; an operator closes it; normal readings after the tenant's come-down window bring the
 * status and the doctor's dashboard count down without a reload. And a new SOS reaches the top of
 * the worklist, above an at-risk patient, within a second.
 */

const SETTLE_MINUTES = 5;

const suite = useConsoleSuite();
let adminCookie = '';
let operatorCookie = '';

beforeAll(async () => {
  adminCookie = await sessionCookie(suite.server.baseUrl, 'admin@demo.example');
  operatorCookie = await sessionCookie(suite.server.baseUrl, 'operator@demo.example');
});

/** A call with a session cookie (the admin's or the operator's), from outside the browser. */
function callAs<T>(cookie: string, method: string, path: string, body?: unknown): Promise<T> {
  return callWithCookie<T>(suite.server.baseUrl, cookie, method, path, body);
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** One batch of SpO2 readings for the patient, posted by the admin (health.update) as a device would. */
function postSpo2(patientId: string, readings: { value: number; measuredAt: string }[]) {
  return callAs<{ accepted: number; status?: string }>(adminCookie, 'POST', '/collector/readings', {
    batchId: randomUUID(),
    patientId,
    readings: readings.map((reading) => ({ measure: 'SPO2', source: 'WIRELESS_DEVICE', ...reading })),
  });
}

const dashboardCount = async (page: Page, status: string) =>
  Number((await page.getByTestId(`dashboard-${status}`).locator('p').last().textContent()) ?? 'NaN');

/** When each live event reached the doctor's browser (performance.now() of this process), by type. */
const liveFrames: { type: string; at: number }[] = [];

async function signInDoctor(): Promise<Page> {
  const page = await suite.driver.openPage();
  page.on('websocket', (socket) => {
    socket.on('framereceived', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString();
      const type = /"type":"([^"]+)"/.exec(text)?.[1] ?? '';
      liveFrames.push({ type, at: performance.now() });
    });
  });
  await suite.driver.signIn(page, 'doctor@demo.example');
  await page.waitForURL('**/doctor');
  await waitForLive(page);
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = 'still here';
  });
  return page;
}

const isSamePage = async (page: Page) =>
  (await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)) === 'still here';

describe('the status comes back down, live', () => {
  it('SOS popup with vitals, the doctor reads the case, an operator closes it, normal readings bring the status and the count down', async () => {
    // The super admin sets the tenant's come-down window on the tenant settings screen.
    const admin = await suite.driver.openPage();
    await suite.driver.signIn(admin, 'super-admin@demo.example');
    await admin.waitForURL('**/sadmin');
    await admin.getByRole('navigation').getByRole('link', { name: 'Tenants' }).click();
    await admin
      .getByTestId('tenants-table')
      .getByRole('link', { name: await suite.driver.demoTenantName() })
      .click();
    await admin.waitForURL(/\/sadmin\/tenants\/[0-9a-f-]{36}$/);
    await admin.getByRole('tab', { name: 'Settings' }).click();
    const settleField = admin.getByRole('textbox', { name: 'Status come-down window' });
    await expect.poll(() => settleField.inputValue(), { timeout: 10_000 }).toBe('30');
    await settleField.fill('3');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => admin.getByText('Enter whole minutes from 5 to 1440').count()).toBe(1);
    expect(
      (await callAs<{ statusSettleMinutes: number }>(adminCookie, 'GET', '/account/alert-settings'))
        .statusSettleMinutes,
    ).toBe(30);
    await settleField.fill(String(SETTLE_MINUTES));
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () =>
          (await callAs<{ statusSettleMinutes: number }>(adminCookie, 'GET', '/account/alert-settings'))
            .statusSettleMinutes,
      )
      .toBe(SETTLE_MINUTES);
    await screenshot(admin, 'status-down-settle-window');

    const page = await signInDoctor();
    const mine = await callFromPage<{ items: PatientRow[] }>(
      page,
      'GET',
      '/account/patients?scope=mine&status=NORMAL&sortField=code&sortType=asc&size=20',
    );
    const patient = mine.items.find((row) => row.openSosCaseId === null);
    if (patient === undefined) throw new Error('the doctor has no normal patient without an open case');
    await expect.poll(() => page.getByTestId('dashboard-SOS').count()).toBe(1);
    const sosBefore = await dashboardCount(page, 'SOS');

    // SpO2 84 % (SOS) measured two windows ago: the status rises at once and a case opens.
    const raised = await postSpo2(patient.id, [{ value: 84, measuredAt: minutesAgo(2 * SETTLE_MINUTES) }]);
    expect(raised).toMatchObject({ accepted: 1, status: 'SOS' });

    const popup = page.getByRole('dialog', { name: 'SOS received' });
    await popup.waitFor({ timeout: 15_000 });
    await expect.poll(() => popup.textContent()).toContain(patient.fullName);
    // The vital that raised it, with its age.
    const vital = popup.getByTestId('sos-popup-vitals');
    await expect.poll(() => vital.textContent(), { timeout: 10_000 }).toContain('SpO2 (%) 84');
    expect(await vital.getByTestId('vital-age-text').first().textContent()).toBe(
      `${String(2 * SETTLE_MINUTES)} minutes ago`,
    );
    await expect.poll(() => dashboardCount(page, 'SOS')).toBe(sosBefore + 1);
    await page.waitForTimeout(400);
    await screenshot(page, 'status-down-popup');

    await popup.getByRole('button', { name: 'Open the case' }).click();
    await page.waitForURL('**/doctor/sos/*');
    const caseId = page.url().split('/').pop() ?? '';
    await expect
      .poll(() => page.getByRole('heading', { name: `Patient in SOS: ${patient.fullName}` }).count())
      .toBe(1);
    await expect.poll(() => page.getByTestId('sos-read-only').count()).toBe(1);
    // A doctor cannot open the SOS list: the back link says "Back", not the list's name.
    expect(await page.getByRole('link', { name: '← SOS call list' }).count()).toBe(0);
    await screenshot(page, 'status-down-case-doctor');

    // The case's ticket opens for the doctor too, read-only, and its back link returns to the case.
    await page.getByRole('link', { name: 'Open the ticket' }).click();
    await page.waitForURL('**/doctor/tickets/*');
    await expect.poll(() => page.getByTestId('ticket-read-only').count()).toBe(1);
    expect(await page.getByTestId('ticket-actions').getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: '← Tickets' }).count()).toBe(0);
    await screenshot(page, 'status-down-ticket-doctor');
    await page.getByRole('button', { name: '← Back' }).click();
    await page.waitForURL(`**/doctor/sos/${caseId}`);

    // An operator closes the case: the latest SpO2 is still 84 %, so the status stays SOS.
    await callAs(operatorCookie, 'PUT', `/account/sos-cases/${caseId}/close`, {
      reason: 'Patient reached by phone, oxygen given',
    });
    await expect
      .poll(() => page.getByTestId('sos-status').first().getAttribute('data-status'))
      .toBe('CLOSED');

    // Back where the doctor came from (the home), without a reload.
    await page.getByRole('button', { name: '← Back' }).click();
    await page.waitForURL('**/doctor');
    const rowOf = async () => (await worklistRows(page)).find((row) => row.id === patient.id);
    await expect.poll(async () => (await rowOf())?.attention).toBe('SOS');

    // Normal readings, the SOS one now older than the window: the status comes down at ingestion.
    const settled = await postSpo2(patient.id, [
      { value: 97, measuredAt: minutesAgo(1) },
      { value: 98, measuredAt: minutesAgo(0.5) },
    ]);
    expect(settled).toMatchObject({ accepted: 2, status: 'NORMAL' });
    await expect.poll(async () => (await rowOf())?.attention ?? 'NORMAL', { timeout: 10_000 }).toBe('NORMAL');
    await expect.poll(() => dashboardCount(page, 'SOS'), { timeout: 10_000 }).toBe(sosBefore);
    expect(await isSamePage(page)).toBe(true);
    await page.waitForTimeout(400);
    await screenshot(page, 'status-down-home');
  }, 120_000);

  it('a new SOS shows above an at-risk patient on the worklist live, without a reload', async () => {
    const page = await signInDoctor();
    const items = await withAtRiskPatient(page);
    const target = items.find((row) => row.status === 'NORMAL' && row.openSosCaseId === null);
    if (target === undefined) throw new Error('no normal patient to raise');
    await expect
      .poll(async () => (await worklistRows(page)).some((row) => row.attention === 'AT_RISK'), {
        timeout: 10_000,
      })
      .toBe(true);

    const isAboveAtRisk = async () => {
      const rows = await worklistRows(page);
      const index = rows.findIndex((row) => row.id === target.id && row.attention === 'OPEN_SOS_CASE');
      const firstAtRisk = rows.findIndex((row) => row.attention === 'AT_RISK');
      return index !== -1 && (firstAtRisk === -1 || index < firstAtRisk);
    };
    expect(await isAboveAtRisk()).toBe(false);
    const started = performance.now();
    await callFromPage(page, 'POST', '/health/sos/hotline', { patientId: target.id });
    const answered = Math.round(performance.now() - started);
    await expect.poll(isAboveAtRisk, { timeout: 5_000, interval: 20 }).toBe(true);
    const elapsed = Math.round(performance.now() - started);
    const delivered = liveFrames.find((frame) => frame.type === 'sos.opened' && frame.at >= started);
    console.log(
      `worklist: new SOS above the at-risk patient ${String(elapsed)} ms after the call was posted (the call answered in ${String(answered)} ms, sos.opened reached the browser at ${delivered === undefined ? '?' : String(Math.round(delivered.at - started))} ms)`,
    );
    // The figure is printed, not asserted: tests never fail on wall-clock time (the SOS-to-socket
    // latency is measured by tools/bench). Under light load it read 709–851 ms.
    expect(await isSamePage(page)).toBe(true);
    await screenshot(page, 'status-down-new-sos');
  }, 90_000);
});
