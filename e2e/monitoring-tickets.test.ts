import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Tickets and the no-data window in the console: an operator assigns a support ticket to itself
 * once (the action is then gone, one "Assigned" entry) and the ticket never speaks of an SOS; the
 * super admin sets the tenant's no-data window to a preset and to a custom number of minutes.
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

describe('tickets', () => {
  it('an operator assigns a support ticket to itself once; the ticket has no SOS wording', async () => {
    const patients = await callApi<{ items: { id: string }[] }>(
      'GET',
      '/account/patients?sortField=code&sortType=asc&size=1',
    );
    const patientId = patients.items[0]?.id;
    if (patientId === undefined) throw new Error('no demo patient');
    const ticket = await callApi<{ id: string; number: number }>('POST', '/account/tickets', {
      patientId,
      type: 'SUPPORT',
      title: 'Watch strap replacement',
    });

    const page = await signIn('operator@demo.example', 'operator');
    await page.goto(`/operator/tickets/${ticket.id}`);
    const actions = page.getByTestId('ticket-actions');
    await poll(() => actions.getByRole('button', { name: 'Assign to me' }).count()).toBe(1);
    const main = page.getByRole('main');
    await poll(() => main.getByText('No health indicators are attached to this ticket.').count()).toBe(1);
    expect(await main.innerText()).not.toMatch(/SOS/);

    await actions.getByRole('button', { name: 'Assign to me' }).click();
    await poll(() => actions.getByRole('button', { name: 'Start' }).count()).toBe(1);
    expect(await actions.getByRole('button', { name: 'Assign to me' }).count()).toBe(0);
    const history = page.getByTestId('ticket-history');
    await poll(() => history.getByText('Assigned', { exact: true }).count()).toBe(1);
    await dismissToasts(page);
    await screenshot(page, 'monitoring-ticket-support');
  }, 90_000);
});

describe('no-data window', () => {
  it('the super admin picks a preset and a custom window on the tenant settings screen', async () => {
    const page = await signIn('super-admin@demo.example', 'sadmin');
    await page.getByRole('navigation').getByRole('link', { name: 'Tenants' }).click();
    await page.waitForURL('**/sadmin/tenants');
    const demoName = await driver.demoTenantName();
    await page.getByTestId('tenants-table').getByRole('link', { name: demoName }).click();
    await page.waitForURL(/\/sadmin\/tenants\/[0-9a-f-]{36}$/);
    await page.getByRole('tab', { name: 'Settings' }).click();

    const windowField = page.getByRole('combobox', { name: 'No-data alert after' });
    await poll(() => windowField.inputValue()).toBe('60 minutes');
    await windowField.click();
    await page.getByRole('option', { name: '30 minutes' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Settings saved.').isVisible()).toBe(true);
    await dismissToasts(page);

    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await poll(() => page.getByRole('combobox', { name: 'No-data alert after' }).inputValue()).toBe('30 minutes');
    await page.getByRole('combobox', { name: 'No-data alert after' }).click();
    await page.getByRole('option', { name: 'Custom' }).click();
    await page.getByLabel(/^Minutes/).fill('45');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Settings saved.').isVisible()).toBe(true);
    await dismissToasts(page);
    await screenshot(page, 'tenants-no-data-window');

    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await poll(() => page.getByRole('combobox', { name: 'No-data alert after' }).inputValue()).toBe('Custom');
    expect(await page.getByLabel(/^Minutes/).inputValue()).toBe('45');
  }, 90_000);
});
