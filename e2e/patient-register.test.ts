import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_TENANT_CODE } from './support/harness.js';
import { waitForCode } from './support/mail.js';
import { pageWidth, PHONE, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Registering in the patient app on a phone (390×844, touch) with the code emailed to the test
 * SMTP server, then logging in by a one-time code. The password uses the app's own special
 * characters (spec §5: - _ , . ! @ # * %), which the server must accept for a patient.
 */

const suite = usePhoneSuite({ withMail: true });

describe('patient app registration', () => {
  it('registers with the emailed code, then logs in by a one-time code', async () => {
    const page = await suite.openPhone();
    const email = `lan.${randomBytes(4).toString('hex')}@example.org`;
    await page.goto('/app/register');
    await page.getByLabel('Tenant code').fill(DEMO_TENANT_CODE);
    await page.getByLabel('First name').fill('Lan');
    await page.getByLabel('Last name').fill('Tran');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Birthday').fill('1990-05-17');
    await page.getByLabel('Password', { exact: true }).fill('Lotus-garden.7');
    await page.getByLabel('Confirm password').fill('Lotus-garden.7');
    await page.getByLabel('Purpose of use').selectOption('PERSONAL_MONITORING');
    await page.getByText('I accept the terms of use').tap();
    await page.getByText('I accept the privacy policy').tap();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-register-form');

    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Create account' }).tap();
    const { code } = await waitForCode(suite.mail, email, since);
    await page.getByLabel('Code sent to your email').fill(code);
    await page.getByRole('button', { name: 'Verify' }).tap();
    await expect.poll(() => page.getByText('Your account is ready. You can log in now.').isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Back to log in' }).first().tap();
    await page.waitForURL('**/app/login');
    // The login page always asks for the tenant code (prefilled when remembered): filling it waits
    // for the page, where a visibility check made as the route loads could skip it.
    await page.getByLabel('Tenant code').fill(DEMO_TENANT_CODE);
    await page.getByRole('button', { name: 'One-time code' }).tap();
    await page.getByLabel('Email or phone number').fill(email);
    const loginSince = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Send code' }).tap();
    const login = await waitForCode(suite.mail, email, loginSince);
    await expect.poll(() => page.getByText(`A code was sent to ${email}`).isVisible()).toBe(true);
    await page.getByLabel('6-digit code').fill(login.code);
    await screenshot(page, 'patient-register-otp-login');
    await page.getByRole('button', { name: 'Log in with the code' }).tap();
    await page.waitForURL(/\/app\/?$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Hello, Lan Tran');
  });
});
