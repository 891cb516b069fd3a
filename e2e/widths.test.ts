import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { horizontalOverflow } from './support/accessibility.js';
import { screenshot, typeCode } from './support/console.js';
import {
  DEMO_AREAS,
  firstDetailPage,
  navigationLinks,
  openInApp,
  settle,
  trackRequests,
} from './support/console-pages.js';
import { waitForCode } from './support/mail.js';
import { useConsoleSuite } from './support/suite.js';

/**
 * Screen widths (spec §2, architecture "front ends"): the public pages work on a 360 px phone,
 * the signed-in console from 768 px, and nothing makes the page scroll sideways; below 768 px the
 * console shows the desktop-only notice, which a person may pass for the rest of the session.
 */

const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };
const WIDE = { width: 1440, height: 900 };

const suite = useConsoleSuite({ withMail: true });

async function openAt(viewport: { width: number; height: number }): Promise<Page> {
  const page = await suite.driver.openPage();
  await page.setViewportSize(viewport);
  return page;
}

/** Records the sideways overflow of the page as it is now, with what sticks out. */
async function checkOverflow(page: Page, where: string, problems: string[]): Promise<void> {
  const { overflow, culprits } = await horizontalOverflow(page);
  if (overflow > 0)
    problems.push(`${where}: ${String(overflow)} px too wide\n    ${culprits.join('\n    ')}`);
}

const noticeHeading = (page: Page) => page.getByRole('heading', { name: 'Please use a computer' });

describe('public pages on a 360 px phone', () => {
  it('have no sideways scrolling and no desktop-only notice', async () => {
    const page = await openAt(PHONE);
    const problems: string[] = [];
    const visit = async (where: string) => {
      await settle(page);
      expect(await noticeHeading(page).count(), where).toBe(0);
      await checkOverflow(page, where, problems);
      await screenshot(page, `widths-360-${where.replace(/\W+/g, '-')}`);
    };

    for (const path of [
      '/login',
      '/forgot-password',
      '/register',
      '/trial-request',
      '/privacy',
      '/terms',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await visit(path);
    }

    // Doctor registration: the form with the doctor's fields.
    await page.goto('/register');
    await page.getByText('Doctor', { exact: true }).click();
    await page.getByTestId('doctor-approval-note').waitFor();
    await visit('register as doctor');

    // Sign-in by one-time code, at the code entry.
    await page.goto('/login');
    await page.getByRole('tab', { name: 'One-time code' }).click();
    await visit('login by code');
    await suite.driver.enterDemoTenant(page);
    await page.getByLabel('Email address').fill('operator@demo.example');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByTestId('otp-expiry').waitFor();
    await visit('code entry');

    // Forgot password: the code, then the new password.
    await page.goto('/forgot-password');
    await suite.driver.enterDemoTenant(page);
    await page.getByLabel('Email address').fill('main-admin@demo.example');
    const since = suite.mail.messages.length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const { code } = await waitForCode(suite.mail, 'main-admin@demo.example', since);
    await visit('forgot password code');
    await typeCode(page, code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel(/^New password/).waitFor();
    await visit('reset password');

    expect(problems, problems.join('\n')).toEqual([]);
  });
});

describe('the console below 768 px', () => {
  it('shows the desktop-only notice; "Continue anyway" opens the console for the rest of the session', async () => {
    const page = await openAt({ width: 767, height: 900 });
    // Signing in is a public page; the console it leads to is not.
    await suite.driver.signIn(page, 'doctor@demo.example');
    await expect.poll(() => noticeHeading(page).isVisible()).toBe(true);
    expect(await page.getByRole('navigation').count()).toBe(0);
    await screenshot(page, 'widths-767-notice');

    await page.getByRole('button', { name: 'Continue anyway' }).click();
    await page.waitForURL('**/doctor');
    await expect.poll(() => page.getByRole('heading', { name: /^Welcome, / }).isVisible()).toBe(true);
    expect(await noticeHeading(page).count()).toBe(0);

    // Remembered for the session: a reload goes straight to the console.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: /^Welcome, / }).isVisible()).toBe(true);
    expect(await noticeHeading(page).count()).toBe(0);

    // A new session (another browser context) asks again; 768 px is wide enough without asking.
    const fresh = await openAt(PHONE);
    await fresh.goto('/doctor');
    await expect.poll(() => noticeHeading(fresh).isVisible()).toBe(true);
    await fresh.setViewportSize(TABLET);
    await expect.poll(() => noticeHeading(fresh).count()).toBe(0);
  });
});

/** The console's widths: each page is opened once and measured at both. */
const CONSOLE_WIDTHS = [
  ['768', TABLET],
  ['1440', WIDE],
] as const;

/**
 * Sets the window's width and lets the page lay itself out again: media-query hooks re-render on
 * the next frames, and a panel that animates to its new width is given its transition's time
 * before the width is measured a second time.
 */
async function measureAt(
  page: Page,
  viewport: { width: number; height: number },
  where: string,
  problems: string[],
): Promise<void> {
  await page.setViewportSize(viewport);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  if ((await horizontalOverflow(page)).overflow > 0) await page.waitForTimeout(500);
  await checkOverflow(page, `${where} at ${String(viewport.width)} px`, problems);
}

describe('the console at 768 and 1440 px', () => {
  it.each(DEMO_AREAS.filter(([, area]) => ['root', 'smadmin', 'operator', 'doctor'].includes(area)))(
    '%s: every page of the navigation and a record of each list fit without sideways scrolling',
    async (login, area) => {
      const page = await openAt(TABLET);
      trackRequests(page);
      await suite.driver.signIn(page, login);
      await page.waitForURL(`**/${area}`);
      await expect.poll(() => page.getByRole('heading', { name: /^Welcome, / }).isVisible()).toBe(true);
      const problems: string[] = [];
      // The header keeps language, live status, user menu and sign-out on screen.
      for (const [, viewport] of CONSOLE_WIDTHS) {
        await page.setViewportSize(viewport);
        for (const control of [
          page.getByRole('radiogroup', { name: 'Language' }),
          page.getByTestId('live-status'),
          page.getByRole('button', { name: 'Sign out' }),
        ]) {
          const box = await control.first().boundingBox();
          if (!box || box.x < 0 || box.x + box.width > viewport.width)
            problems.push(`header control off screen at ${String(viewport.width)} px: ${String(control)}`);
        }
      }
      const measure = async (where: string) => {
        for (const [, viewport] of CONSOLE_WIDTHS) await measureAt(page, viewport, where, problems);
      };
      // Each page is opened as the navigation opens it, inside the running console (the startup
      // sequence ran once, at sign-in), and measured once its calls are done and no loader spins.
      for (const path of await navigationLinks(page, area)) {
        await openInApp(page, path);
        await measure(path);
        if (path === `/${area}` || /\/(account|privacy|terms|imports)$/.test(path)) continue;
        const detail = await firstDetailPage(page, path);
        if (detail) {
          await openInApp(page, detail);
          await measure(detail);
        }
      }
      for (const [label, viewport] of CONSOLE_WIDTHS) {
        await page.setViewportSize(viewport);
        await screenshot(page, `widths-${label}-${area}`);
      }
      expect(problems, problems.join('\n')).toEqual([]);
    },
    // Root opens some thirty pages; on a loaded machine that takes more than the default two minutes.
    300_000,
  );
});
