import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, screenshot, typeCode, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';
import { startMailCatcher, waitForCode, type MailCatcher } from './support/mail.js';

/**
 * Registration (spec §2 register and doctor registration, §5 rules): the form checks the
 * contract's rules before sending, the emailed code activates the account, a patient can then
 * sign in and a doctor is told to wait for their health center's admin.
 */

let mail: MailCatcher;
let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;

beforeAll(async () => {
  mail = await startMailCatcher();
  server = await startTestServer({ SMTP_URL: mail.url });
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});

afterEach(async () => {
  await driver.closeAll();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
  await mail.stop();
});

const uniqueEmail = (prefix: string) => `${prefix}.${randomBytes(4).toString('hex')}@example.org`;

async function typeDate(page: Page, label: string, digits: string) {
  await page.getByLabel(new RegExp(`^${label}`)).click();
  await page.keyboard.type(digits);
}

async function fillForm(
  page: Page,
  values: { email: string; birthday: string; role?: 'Patient' | 'Doctor' },
) {
  await driver.enterDemoTenant(page);
  if (values.role === 'Doctor') await page.getByText('Doctor', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Purpose of use' }).click();
  await page.getByRole('option', { name: 'Monitor my own health' }).click();
  await page.getByLabel(/^First name/).fill('Lan');
  await page.getByLabel(/^Last name/).fill('Tran');
  await page.getByLabel(/^Email/).fill(values.email);
  await typeDate(page, 'Date of birth', values.birthday);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Lan#Health2026');
  await page.getByLabel(/^Confirm the password/).fill('Lan#Health2026');
  await page.getByRole('checkbox', { name: 'I accept the terms of use' }).check();
  await page.getByRole('checkbox', { name: 'I accept the privacy policy' }).check();
}

describe('registration', () => {
  it('checks the rules before sending anything', async () => {
    const page = await driver.openPage();
    let registerCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/account/register')) registerCalls += 1;
    });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/register');

    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText('Please accept the terms of use').isVisible()).toBe(true);
    expect(await page.getByText('Please accept the privacy policy').isVisible()).toBe(true);
    expect(await page.getByText('Enter a valid email address').isVisible()).toBe(true);
    expect(await page.getByText('Choose one of the options').isVisible()).toBe(true);

    // Under 18 is refused by the form itself (spec §1: the product serves only adults).
    const recent = new Date();
    const tooYoung = `0101${String(recent.getFullYear() - 10)}`;
    await typeDate(page, 'Date of birth', tooYoung);
    await page.getByLabel(/^First name/).fill('Lan2');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => page.getByText('You must be 18 years or older', { exact: true }).isVisible())
      .toBe(true);
    expect(await page.getByText('Names may not contain digits').isVisible()).toBe(true);
    await screenshot(page, 'identity-register-errors');
    expect(registerCalls).toBe(0);
  });

  it('registers a patient, verifies the emailed code and signs in', async () => {
    const page = await driver.openPage();
    const email = uniqueEmail('patient');
    await page.goto('/register');
    await fillForm(page, { email, birthday: '15061990' });
    expect(await page.getByTestId('password-checklist').locator('[data-met="false"]').count()).toBe(0);
    await screenshot(page, 'identity-register-form');

    const since = mail.messages.length;
    await page.getByRole('button', { name: 'Create account' }).click();
    const { code, mail: message } = await waitForCode(mail, email, since);
    expect(message.subject).toContain('verify your email');
    await expect
      .poll(() => page.getByText(`Enter the 6-digit code sent to ${email}.`).isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByTestId('otp-resend').textContent())
      .toMatch(/^Resend code in \d:\d{2}$/);
    await screenshot(page, 'identity-register-verify');

    await typeCode(page, code);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('register-done').textContent())
      .toContain('You can sign in now.');
    await screenshot(page, 'identity-register-done');

    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await page.waitForURL('**/login');
    await driver.signIn(page, email, 'Lan#Health2026');
    await page.waitForURL('**/user');
    await expect.poll(() => page.getByTestId('user-name').textContent()).toBe('Lan Tran');
  });

  it("tells a registering doctor to wait for the health center's admin", async () => {
    const page = await driver.openPage();
    const email = uniqueEmail('doctor');
    await page.goto('/register');
    await fillForm(page, { email, birthday: '01021985', role: 'Doctor' });
    expect(await page.getByTestId('doctor-approval-note').isVisible()).toBe(true);
    const since = mail.messages.length;
    await page.getByRole('button', { name: 'Create account' }).click();
    const { code } = await waitForCode(mail, email, since);
    await typeCode(page, code);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('register-done').textContent())
      .toContain("Your account awaits approval by your health center's admin");
  });

  it('offers to sign in when the email already has an account', async () => {
    const page = await driver.openPage();
    await page.goto('/register');
    await fillForm(page, { email: 'doctor@demo.example', birthday: '01021985' });
    await page.getByRole('button', { name: 'Create account' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Registration failed' });
    await expect.poll(() => alert.textContent()).toContain('Email already exists');
    await alert.getByRole('link', { name: 'Go to sign in' }).click();
    await page.waitForURL('**/login');
  });

  it('shows the terms of use in both languages', async () => {
    const page = await driver.openPage();
    await page.goto('/terms');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Terms of use', level: 1 }).isVisible())
      .toBe(true);
    await page.getByText('Tiếng Việt').first().click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Điều khoản sử dụng', level: 1 }).isVisible())
      .toBe(true);
    expect(await page.getByText('Không phải dịch vụ cấp cứu').isVisible()).toBe(true);
  });
});
