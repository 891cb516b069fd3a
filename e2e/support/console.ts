import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEMO_PASSWORD,
  DEMO_TENANT_CODE,
  SCREENSHOT_DIR,
  startServer,
  type RunningServer,
} from './harness.js';

/** Helpers shared by the identity browser tests: contexts, the tenant code, sign-in, screenshots. */
export const DESKTOP = { width: 1366, height: 860 };

/** The real server for a browser test (the migrator itself handles concurrent starts). */
export function startTestServer(environment: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(environment);
}

export class ConsoleDriver {
  private readonly contexts: BrowserContext[] = [];
  private tenantName: string | undefined;

  constructor(
    private readonly browser: Browser,
    readonly baseUrl: string,
  ) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }

  /** The demo tenant's name, as the login pages show it once its code is typed. */
  async demoTenantName(): Promise<string> {
    if (this.tenantName !== undefined) return this.tenantName;
    const response = await fetch(`${this.baseUrl}/manage/tenant/by-code/${DEMO_TENANT_CODE}`);
    if (!response.ok) throw new Error(`tenant "${DEMO_TENANT_CODE}" was not found (${response.status})`);
    const answer = (await response.json()) as { data: { code: string; name: string } };
    this.tenantName = answer.data.name;
    return answer.data.name;
  }

  /** A fresh browser context (own cookies and storage), like another person on another computer. */
  async openPage(options: { locale?: string } = {}): Promise<Page> {
    const context = await this.browser.newContext({
      viewport: DESKTOP,
      baseURL: this.baseUrl,
      locale: options.locale ?? 'en-GB',
    });
    this.contexts.push(context);
    return context.newPage();
  }

  async closeAll(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.close();
  }

  /** Types the demo tenant's code, as a person does, and waits for the page to name the tenant. */
  async enterDemoTenant(page: Page, label = 'Tenant code'): Promise<void> {
    const name = await this.demoTenantName();
    await page.getByRole('textbox', { name: label }).fill(DEMO_TENANT_CODE);
    await page.getByTestId('tenant-name').filter({ hasText: name }).waitFor();
  }

  /** Signs in with a password through the login form, as a person would. */
  async signIn(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
    await page.goto('/login');
    await this.enterDemoTenant(page);
    await page.getByLabel('Email or phone number').fill(username);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
}

/** Closes the toasts (they never close by themselves, spec §9), as a person would before going on. */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close the message' });
  while ((await close.count()) > 0) {
    // Wait for the toast that was clicked to go (it animates out), not for the count to drop:
    // another toast may appear at the same moment.
    const button = await close.first().elementHandle();
    try {
      await button.click();
      await button.waitForElementState('hidden');
    } catch (error) {
      // The toast list re-rendered under the pointer (a toast came or went): look again.
      if (!String(error).includes('not attached')) throw error;
    }
  }
}

/** Types a code into the six boxes the way a person does: click the first, type the digits. */
export async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: /^(Digit|Chữ số) 1 / }).click();
  await page.keyboard.type(code);
}

/**
 * Screenshot of the whole page. Not Playwright's `fullPage`: in Chromium it briefly changes the
 * emulated width, which trips the console's desktop-only media query and remounts the app (a
 * form would lose what was typed). Making the window taller keeps the width as it is.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? DESKTOP;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
  if (height > viewport.height) await page.setViewportSize(viewport);
}
