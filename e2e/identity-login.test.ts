import { describe, expect, it } from 'vitest';
import { screenshot, typeCode } from './support/console.js';
import { waitForCode } from './support/mail.js';
import { useConsoleSuite } from './support/suite.js';

/**
 * Signing in (spec §2 login by password or OTP, §8 messages): password login lands on the role's
 * area, the one-time code arrives by real SMTP and is typed into the six boxes, five wrong
 * passwords lock the account, and the OTP screen speaks Vietnamese.
 */

const suite = useConsoleSuite({ withMail: true });

describe('password login', () => {
  it('lands the demo doctor on /doctor and the super admin on /sadmin', async () => {
    const doctor = await suite.driver.openPage();
    await suite.driver.signIn(doctor, 'doctor@demo.example');
    await doctor.waitForURL('**/doctor');
    await expect.poll(() => doctor.getByTestId('home-role').textContent()).toBe('Doctor');

    const superAdmin = await suite.driver.openPage();
    await suite.driver.signIn(superAdmin, 'super-admin@demo.example');
    await superAdmin.waitForURL('**/sadmin');
    await expect.poll(() => superAdmin.getByTestId('home-role').textContent()).toBe('Super admin');
    // Platform staff hold permission.view: their menu offers role management.
    expect(await superAdmin.getByRole('navigation').getByRole('link').allTextContents()).toContain(
      'Roles & permissions',
    );
  });

  it("shows 'This account has been locked' after five wrong passwords, then unlocks it with an emailed code", async () => {
    const page = await suite.driver.openPage();
    await page.goto('/login');
    await suite.driver.enterDemoTenant(page);
    await page.getByLabel('Email or phone number').fill('cskh@demo.example');
    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel(/^Password/).fill(`Wrong@${String(2020 + attempt)}x`);
      const answer = page.waitForResponse((response) => response.url().endsWith('/auth/oauth-token'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await answer;
      await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
      if (attempt < 5) await expect.poll(() => alert.textContent()).toContain('Wrong login information');
    }
    await expect.poll(() => alert.textContent()).toContain('This account has been locked');

    // Locked means locked: even the right password is refused now.
    await page.getByLabel(/^Password/).fill('Demo@2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => alert.textContent()).toContain('This account has been locked');
    expect(page.url()).toBe(`${suite.server.baseUrl}/login`);

    // The owner is not kept out: a code sent to the account's own email lifts the lock.
    await page.getByRole('button', { name: 'Unlock with a code sent to you' }).click();
    await expect.poll(() => page.getByTestId('unlock-form').textContent()).toContain('cskh@demo.example');
    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Send unlock code' }).click();
    const { code, mail: message } = await waitForCode(suite.mail, 'cskh@demo.example', since);
    expect(message.subject).toContain('unlock your account');
    await typeCode(page, code);
    await screenshot(page, 'identity-login-unlock');
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await expect.poll(() => page.getByTestId('unlock-done').textContent()).toBe(
      'Your account is unlocked. Sign in with your password.',
    );
    await page.getByLabel(/^Password/).fill('Demo@2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/cskh');
  });
});

describe('one-time code login', () => {
  it('sends the code by email, takes it in the six boxes and lands in the area', async () => {
    const page = await suite.driver.openPage();
    await page.goto('/login');
    await page.getByRole('tab', { name: 'One-time code' }).click();
    await suite.driver.enterDemoTenant(page);
    await page.getByLabel('Email address').fill('Operator@Demo.example');

    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const { code, mail: message } = await waitForCode(suite.mail, 'operator@demo.example', since);
    expect(message.subject).toContain('login code');

    // The resend button waits out the server's cooldown, with the time shown; the expiry is shown too.
    const resend = page.getByTestId('otp-resend');
    await expect.poll(() => resend.textContent()).toMatch(/^Resend code in \d:\d{2}$/);
    expect(await resend.isDisabled()).toBe(true);
    expect(await page.getByTestId('otp-expiry').textContent()).toMatch(/^The code expires in \d:\d{2}$/);

    // An incomplete code is refused before asking the server.
    await typeCode(page, code.slice(0, 4));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expect.poll(() => page.getByText('Enter all 6 digits of the code').isVisible()).toBe(true);

    // A wrong code: the server's message under the boxes, which are emptied for the next try.
    const wrong = code === '000000' ? '111111' : '000000';
    await typeCode(page, wrong);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expect.poll(() => page.getByText('Wrong OTP').isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Digit 1 of 6' }).inputValue()).toBe('');
    await screenshot(page, 'identity-login-otp');

    await typeCode(page, code);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.waitForURL('**/operator');
    await expect.poll(() => page.getByTestId('home-role').textContent()).toBe('Operator');
  });

  it('asks for a new code after too many wrong codes', async () => {
    const page = await suite.driver.openPage();
    await page.goto('/login?method=otp');
    await suite.driver.enterDemoTenant(page);
    await page.getByLabel('Email address').fill('doctor-assistant@demo.example');
    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const { code } = await waitForCode(suite.mail, 'doctor-assistant@demo.example', since);
    const wrong = code === '000000' ? '111111' : '000000';
    const verify = page.getByRole('button', { name: 'Verify code' });
    const answers: string[] = [];
    for (let attempt = 0; attempt < 6 && answers.at(-1) !== 'otp.tooManyAttempts'; attempt++) {
      // The button is busy while an answer is shown; the next try waits for it.
      await expect.poll(() => verify.getAttribute('data-loading')).toBeNull();
      await typeCode(page, wrong);
      const answer = page.waitForResponse((response) => response.url().endsWith('/otp/token-web'));
      await verify.click();
      answers.push(((await (await answer).json()) as { code: string }).code);
    }
    await screenshot(page, 'identity-login-otp-too-many');
    expect(answers.at(-1)).toBe('otp.tooManyAttempts');
    await expect
      .poll(() => page.getByText('Too many wrong OTPs. Please request a new code').isVisible())
      .toBe(true);
    expect(await verify.isDisabled()).toBe(true);
  });

  it('shows the OTP screen in Vietnamese', async () => {
    const page = await suite.driver.openPage();
    await page.goto('/login');
    await page.getByText('Tiếng Việt').first().click();
    await page.getByRole('tab', { name: 'Mã dùng một lần' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Gửi mã' }).isVisible()).toBe(true);
    expect(await page.getByText('Gửi mã qua').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Quên mật khẩu?' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Tạo tài khoản' }).isVisible()).toBe(true);

    // Validation messages too, without a round trip.
    await page.getByRole('button', { name: 'Gửi mã' }).click();
    await expect.poll(() => page.getByText('Nhập địa chỉ email hợp lệ').isVisible()).toBe(true);

    await suite.driver.enterDemoTenant(page, 'Mã tổ chức');
    await page.getByLabel('Địa chỉ email').fill('coach@demo.example');
    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Gửi mã' }).click();
    // The mail itself goes out in the account's saved language; only the screen is checked here.
    await waitForCode(suite.mail, 'coach@demo.example', since);
    await expect.poll(() => page.getByText('Mã xác minh').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Xác minh mã' }).isVisible()).toBe(true);
    expect(await page.getByTestId('otp-resend').textContent()).toMatch(/^Gửi lại mã sau \d:\d{2}$/);
    await screenshot(page, 'identity-login-otp-vi');
  });
});

describe('forgot password', () => {
  it('resets the password with an emailed code and signs in with the new one', async () => {
    const page = await suite.driver.openPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    // The address changes before the new page is drawn; typing at once could land in the sign-in
    // form's tenant field that is about to go away.
    await page.getByRole('form', { name: 'Reset password' }).waitFor();
    await suite.driver.enterDemoTenant(page);
    await page.getByLabel('Email address').fill('main-admin@demo.example');
    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const { code } = await waitForCode(suite.mail, 'main-admin@demo.example', since);
    await typeCode(page, code);
    await page.getByRole('button', { name: 'Continue' }).click();

    // The live checklist and the confirmation rule.
    const newPassword = page.getByLabel(/^New password/);
    await newPassword.fill('short');
    expect(await page.getByTestId('password-checklist').locator('[data-met="true"]').count()).toBeGreaterThan(
      0,
    );
    await page.getByLabel('Confirm the password').fill('different');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect
      .poll(() => page.getByText('The password does not meet the requirements below').isVisible())
      .toBe(true);
    expect(await page.getByText('The passwords do not match').isVisible()).toBe(true);
    await screenshot(page, 'identity-forgot-password');

    await newPassword.fill('Reset#Admin42');
    await page.getByLabel('Confirm the password').fill('Reset#Admin42');
    expect(await page.getByTestId('password-checklist').locator('[data-met="false"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect.poll(() => page.getByText('Your password has been reset').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.waitForURL('**/login');

    await suite.driver.signIn(page, 'main-admin@demo.example', 'Reset#Admin42');
    await page.waitForURL('**/smadmin');
  });
});
