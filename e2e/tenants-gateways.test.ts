import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio, type FakeTwilio } from '../apps/server/test/fake-gateways.js';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * A tenant's SMS and call gateways (spec §1 SOS calls and SMS): the super admin chooses Twilio for
 * the demo tenant's SMS, the credentials are kept write-only (shown masked), and a test SMS goes
 * to a local server speaking Twilio's API, first refused for a bad token, then accepted.
 */
const ACCOUNT = { accountSid: `AC${'fedcba9876543210'.repeat(2)}`, authToken: 'demo-twilio-token-7781' };

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
let twilio: FakeTwilio;

beforeAll(async () => {
  twilio = await startFakeTwilio(ACCOUNT);
  server = await startTestServer({ TWILIO_API_URL: twilio.url, PUBLIC_URL: 'https://rpm.example.test' });
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});
afterEach(async () => {
  await driver.closeAll();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  await twilio.close();
});

async function openGatewaysTab(page: Page) {
  await driver.signIn(page, 'super-admin@demo.example');
  await page.waitForURL('**/sadmin');
  await page.getByRole('navigation').getByRole('link', { name: 'Tenants' }).click();
  await page.getByTestId('tenants-table').getByRole('link', { name: await driver.demoTenantName() }).click();
  await page.getByRole('tab', { name: 'SMS and calls' }).click();
  await expect.poll(() => page.getByRole('tab', { name: 'SMS and calls', selected: true }).count()).toBe(1);
}

describe('SMS and call gateways', () => {
  it('chooses Twilio with write-only credentials and sends a test SMS through it', async () => {
    const page = await driver.openPage();
    await openGatewaysTab(page);
    const sms = page.getByTestId('gateway-SMS');
    await expect.poll(() => sms.getByRole('radio', { name: /^Local/ }).isChecked()).toBe(true);

    await sms.getByRole('radio', { name: /^Twilio/ }).check();
    // The form's rules first: a national number is not an international sender.
    await sms.getByLabel('Twilio number (sender)').fill('0901234567');
    await sms.getByLabel('Account SID').fill(ACCOUNT.accountSid);
    await sms.getByLabel('Auth token').fill('wrong-token-0000');
    await sms.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => sms.getByText('Enter the number in international form, like +84901234567').isVisible()).toBe(true);
    await sms.getByLabel('Twilio number (sender)').fill('+15005550006');
    await sms.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Gateway saved').first().isVisible()).toBe(true);
    await dismissToasts(page);
    // Stored and masked: the token is never shown back, only its last characters.
    await expect.poll(() => sms.getByText('Stored: ****0000').isVisible()).toBe(true);
    expect(await sms.getByLabel('Auth token').inputValue()).toBe('');
    await expect.poll(() => sms.getByText(/^https:\/\/rpm\.example\.test\/collector\/gateway\/twilio\/[A-Za-z0-9_-]{43}\/sms$/).isVisible()).toBe(true);

    // The wrong token: Twilio refuses, and its words are shown.
    await sms.getByLabel('Test number').fill('+84901234567');
    await sms.getByRole('button', { name: 'Send a test SMS' }).click();
    await expect.poll(() => sms.getByTestId('gateway-test-SMS').textContent()).toContain('Authenticate');

    // The right token (typed again; the sender and SID are kept).
    await sms.getByLabel('Auth token').fill(ACCOUNT.authToken);
    await sms.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => sms.getByText('Stored: ****7781').isVisible()).toBe(true);
    await sms.getByLabel('Test number').fill('+84901234567');
    await sms.getByRole('button', { name: 'Send a test SMS' }).click();
    await expect.poll(() => sms.getByTestId('gateway-test-SMS').textContent()).toMatch(/Twilio accepted it \(SM[0-9a-f]{32}\)/);
    // The test message itself (the tenant's other messages go through the gateway it chose too).
    const sent = twilio.requests.filter(
      (request) => request.authorized && request.resource === 'Messages' && (request.form.get('Body') ?? '').includes(': test message'),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.form.get('To')).toBe('+84901234567');
    expect(sent[0]?.form.get('From')).toBe('+15005550006');
    await screenshot(page, 'tenant-gateways');
  });
});
