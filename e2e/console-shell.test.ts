import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, startServer } from './support/harness.js';

/**
 * The console shell driven as a person would, against the real built server: the startup order
 * of spec §1, the public pages, the language switch, signing in and out, and the reactions of
 * spec §7 to an ended session and to an unreachable server.
 */

const SCREENSHOTS = path.resolve(import.meta.dirname, '../.tmp/screenshots');
const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** The demo tenant's name, as the login page shows it once its code is typed. */
let demoTenantName: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startServer();
  browser = await launchBrowser();
  const found = await fetch(`${server.baseUrl}/manage/tenant/by-code/${DEMO_TENANT_CODE}`);
  if (!found.ok) throw new Error(`tenant "${DEMO_TENANT_CODE}" was not found (${found.status})`);
  demoTenantName = ((await found.json()) as { data: { name: string } }).data.name;
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function openPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  contexts.push(context);
  return context.newPage();
}

function screenshot(page: Page, name: string) {
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Fills the login form; the tenant code is typed and the page names the tenant. */
async function fillLogin(page: Page, username: string, password: string) {
  await page.getByRole('textbox', { name: 'Tenant code' }).fill(DEMO_TENANT_CODE);
  await page.getByTestId('tenant-name').filter({ hasText: demoTenantName }).waitFor();
  await page.getByLabel('Email or phone number').fill(username);
  await page.getByLabel(/^Password/).fill(password);
}

async function signIn(page: Page, username: string) {
  await page.goto('/login');
  await fillLogin(page, username, DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('console shell', () => {
  it('checks the session first and, without one, lands on the login page', async () => {
    const page = await openPage();
    const checked = page.waitForResponse((response) => response.url().endsWith('/auth/check-token'));
    await page.goto('/');
    expect((await checked).status()).toBe(401);

    await page.waitForURL('**/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Please login to continue').isVisible()).toBe(true);
    expect(await page.title()).toBe('Sign in · RPM Console');
    await screenshot(page, 'login-en');
  });

  it('shows the required-field messages without asking the server', async () => {
    const page = await openPage();
    await page.goto('/login');
    let signInCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/auth/oauth-token')) signInCalls += 1;
    });
    await page.getByLabel('Email or phone number').fill('doctor');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect.poll(() => page.getByText('Enter your tenant code').isVisible()).toBe(true);
    expect(
      await page.getByText('Enter a valid email address or a phone number of 3 to 16 digits').isVisible(),
    ).toBe(true);
    expect(await page.getByText('Enter your password').isVisible()).toBe(true);
    expect(signInCalls).toBe(0);
  });

  it('switches to Vietnamese, keeps the choice after a reload and sets <html lang>', async () => {
    const page = await openPage();
    await page.goto('/login');
    await page.getByText('Tiếng Việt').first().click();

    await expect
      .poll(() => page.getByRole('heading', { name: 'Đăng nhập', level: 1 }).isVisible())
      .toBe(true);
    expect(await page.getByLabel('Email hoặc số điện thoại').isVisible()).toBe(true);
    expect(await page.locator('html').getAttribute('lang')).toBe('vi');
    await screenshot(page, 'login-vi');

    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Đăng nhập', level: 1 }).isVisible())
      .toBe(true);
    expect(await page.locator('html').getAttribute('lang')).toBe('vi');
    expect(await page.getByRole('button', { name: 'Đăng nhập' }).isVisible()).toBe(true);
  });

  it('shows the 404 page for an unknown address without starting a session check', async () => {
    const page = await openPage();
    let sessionChecks = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/auth/check-token')) sessionChecks += 1;
    });
    await page.goto('/no-such-page');

    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(page.url()).toBe(`${server.baseUrl}/no-such-page`);
    expect(sessionChecks).toBe(0);
    await screenshot(page, 'not-found');
  });

  it('signs the demo doctor in and lands on the doctor area home with their name', async () => {
    const page = await openPage();
    await page.goto('/login');
    await fillLogin(page, 'doctor@demo.example', DEMO_PASSWORD);
    const answer = page.waitForResponse((response) => response.url().endsWith('/auth/oauth-token'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const body = (await (await answer).json()) as { data: { fullName: string; role: string } };
    expect(body.data.role).toBe('DOCTOR');

    await page.waitForURL('**/doctor');
    await expect
      .poll(() => page.getByRole('heading', { name: `Welcome, ${body.data.fullName}` }).isVisible())
      .toBe(true);
    expect(await page.getByTestId('user-name').textContent()).toBe(body.data.fullName);
    expect(await page.getByTestId('home-role').textContent()).toBe('Doctor');
    const navigation = page.getByRole('navigation');
    expect(await navigation.getByRole('link').allTextContents()).toEqual([
      'Home',
      'Patients',
      'Doctors',
      'Requests',
      'Devices',
      'Appointments',
      'Check-in',
      'My schedule',
      'Account',
      'Privacy terms',
    ]);
    await screenshot(page, 'area-home');

    // Another role's area is refused inside the shell, not half shown.
    await page.goto('/sadmin');
    await expect
      .poll(() => page.getByRole('heading', { name: "You don't have permission to access" }).isVisible())
      .toBe(true);
  });

  it('returns to the page first asked for after signing in', async () => {
    const page = await openPage();
    await page.goto('/doctor/account');
    await page.waitForURL('**/login');
    await fillLogin(page, 'doctor@demo.example', DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/doctor/account');
    await expect.poll(() => page.getByRole('heading', { name: 'Your account' }).isVisible()).toBe(true);
  });

  it("shows the server's message when the password is wrong", async () => {
    const page = await openPage();
    await page.goto('/login');
    await fillLogin(page, 'coach@demo.example', 'Wrong@2026x');
    const answer = page.waitForResponse((response) => response.url().endsWith('/auth/oauth-token'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const response = await answer;
    const body = (await response.json()) as { message: string };
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(body.message).not.toBe('');

    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await expect.poll(() => alert.textContent()).toContain(body.message);
    expect(page.url()).toBe(`${server.baseUrl}/login`);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    await screenshot(page, 'login-wrong-password');
  });

  it('lists no tenants: a typed code names its tenant, an unknown one names nothing', async () => {
    const page = await openPage();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const byHost = page.waitForResponse((response) => response.url().endsWith('/manage/tenant/by-host'));
    await page.goto('/login');
    // Nothing remembered and no tenant claims this host: the field starts empty, with its hint.
    const hostAnswer = await byHost;
    expect(hostAnswer.status()).toBe(200);
    expect(((await hostAnswer.json()) as { data: unknown }).data).toBeNull();
    const tenantCode = page.getByRole('textbox', { name: 'Tenant code' });
    expect(await tenantCode.inputValue()).toBe('');
    expect(await page.getByRole('combobox').count()).toBe(0);
    expect(await page.getByText('Enter the tenant code your organisation gave you').isVisible()).toBe(true);

    const miss = page.waitForResponse((response) => response.url().includes('/manage/tenant/by-code/no-such-tenant'));
    await tenantCode.fill('no-such-tenant');
    expect((await miss).status()).toBe(400);
    expect(await page.getByTestId('tenant-name').count()).toBe(0);
    expect(await page.getByText('Enter the tenant code your organisation gave you').isVisible()).toBe(true);

    await tenantCode.fill(` ${DEMO_TENANT_CODE.toUpperCase()}`);
    await expect.poll(() => page.getByTestId('tenant-name').textContent()).toBe(demoTenantName);
    await screenshot(page, 'login-tenant-code');
    expect(asked.filter((pathname) => pathname.endsWith('/tenant/all'))).toEqual([]);
  });

  it('fills the tenant from a link and remembers it for the next visit', async () => {
    const page = await openPage();
    await page.goto(`/login?tenant=${DEMO_TENANT_CODE}`);
    const tenantCode = page.getByRole('textbox', { name: 'Tenant code' });
    await expect.poll(() => tenantCode.inputValue()).toBe(DEMO_TENANT_CODE);
    await expect.poll(() => page.getByTestId('tenant-name').textContent()).toBe(demoTenantName);

    await page.goto('/login');
    await expect.poll(() => tenantCode.inputValue()).toBe(DEMO_TENANT_CODE);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await expect.poll(() => page.getByRole('textbox', { name: 'Tenant code' }).inputValue()).toBe(DEMO_TENANT_CODE);
  });

  it('fills the tenant whose public address the console is opened on', async () => {
    const page = await openPage();
    // This test server's host is no tenant's public address, so the answer is stood in for.
    await page.route('**/manage/tenant/by-host', (route) =>
      route.fulfill({ json: { resultCode: 200, data: { code: DEMO_TENANT_CODE, name: demoTenantName, logos: {} } } }),
    );
    await page.goto('/login');
    await expect.poll(() => page.getByRole('textbox', { name: 'Tenant code' }).inputValue()).toBe(DEMO_TENANT_CODE);
    await expect.poll(() => page.getByTestId('tenant-name').textContent()).toBe(demoTenantName);
  });

  it('signs in with a typed code when the tenant cannot be looked up', async () => {
    const page = await openPage();
    await page.route('**/manage/tenant/by-*', (route) => route.abort('connectionrefused'));
    await page.goto('/login');
    const tenantCode = page.getByRole('textbox', { name: 'Tenant code' });
    await tenantCode.fill(DEMO_TENANT_CODE);
    await page.getByLabel('Email or phone number').fill('cskh@demo.example');
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/cskh');
  });

  it('ends the session with the logged-in-elsewhere message when the account signs in again elsewhere', async () => {
    const first = await openPage();
    await signIn(first, 'operator@demo.example');
    await first.waitForURL('**/operator');

    const second = await openPage();
    await signIn(second, 'operator@demo.example');
    await second.waitForURL('**/operator');

    await first.goto('/operator/account');
    await first.waitForURL('**/login');
    await expect
      .poll(() =>
        first.getByText('Your account was logged in somewhere else. Please login to continue').isVisible(),
      )
      .toBe(true);
  });

  it('signs out to the login page and forgets the session', async () => {
    const page = await openPage();
    await signIn(page, 'doctor@demo.example');
    await page.waitForURL('**/doctor');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByText('You have signed out.').isVisible()).toBe(true);

    await page.goto('/doctor');
    await page.waitForURL('**/login');
  });

  it('keeps "You have signed out." when calls of the ended session come back 401 afterwards', async () => {
    const page = await openPage();
    await signIn(page, 'doctor@demo.example');
    await page.waitForURL('**/doctor');
    // Opened by its address, the doctor's home asks for its worklist: hold that call until the
    // session has been signed out, then answer it as the server does for an ended session.
    let release: () => void = () => undefined;
    const signedOut = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/account\/patients\?/, async (route) => {
      await signedOut;
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ resultCode: 401, code: 'auth.unauthorized', message: 'Please login to continue' }),
      });
    });
    const worklistAsked = page.waitForRequest((request) => request.url().includes('/account/patients?'));
    await page.goto('/doctor');
    await worklistAsked;
    const loggedOut = page.waitForResponse((response) => response.url().endsWith('/auth/logout'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await loggedOut;
    release();
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByText('You have signed out.').isVisible()).toBe(true);
    // The held answer has arrived by now and changed nothing.
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.getByText('Please login to continue').count()).toBe(0);
    expect(await page.getByText('You have signed out.').isVisible()).toBe(true);
  });

  it('names the failed startup step with the network message and a Retry that recovers', async () => {
    const page = await openPage();
    await page.route('**/auth/check-token', (route) => route.abort('connectionrefused'));
    await page.goto('/doctor');

    const failure = page.getByRole('alert').filter({ hasText: 'Could not check your session' });
    // Three attempts (two retries, 1 s and 2 s apart) before the error is shown.
    await expect.poll(() => failure.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await failure.textContent()).toContain(
      'Cannot reach the server. Please check your connection and try again',
    );
    await screenshot(page, 'startup-error');

    await page.unroute('**/auth/check-token');
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL('**/login');
  });

  it('shows the desktop-only notice on a phone instead of the console', async () => {
    const page = await openPage(PHONE);
    let apiCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/auth/')) apiCalls += 1;
    });
    await page.goto('/doctor');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Please use a computer' }).isVisible())
      .toBe(true);
    expect(
      await page.getByText('This console is designed for desktop screens.', { exact: false }).isVisible(),
    ).toBe(true);
    expect(apiCalls).toBe(0);
    await screenshot(page, 'phone-notice');
  });
});
