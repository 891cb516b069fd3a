import { expect, it } from 'vitest';
import { screenshot } from './support/console.js';
import { DEMO_LOGINS } from './support/console-pages.js';
import { useConsoleSuite } from './support/suite.js';

/**
 * Every demo login signs in and lands on its area's home, and every page it opens from the
 * navigation loads without a script error, a server error, or a call the console makes by itself
 * being refused (403) or not finding what it asked for (404): the access rules and the console
 * agree for every role.
 */

const suite = useConsoleSuite();

it.each(DEMO_LOGINS)('%s signs in to /%s and opens every page of its navigation without a refusal or an error', async (login, area) => {
  const page = await suite.driver.openPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('response', (response) => {
    const url = new URL(response.url());
    const isApi = /^\/(auth|account|manage|health|notification|collector)\//.test(url.pathname);
    // A wrong password or an expired access token is the login's business; the pages' own calls must succeed.
    if (isApi && (response.status() >= 500 || response.status() === 403 || response.status() === 404)) {
      problems.push(`${response.request().method()} ${url.pathname}: ${String(response.status())}`);
    }
  });
  await suite.driver.signIn(page, login);
  await page.waitForURL(`**/${area}`);
  await expect.poll(() => page.getByRole('heading', { name: /^Welcome, / }).isVisible()).toBe(true);

  const navigation = page.getByRole('navigation');
  const links = await navigation.getByRole('link').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  expect(links.length).toBeGreaterThan(0);
  for (const href of links.filter((link) => link.startsWith(`/${area}`))) {
    await page.goto(href);
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('heading', { name: "You don't have permission to access" }).count(), href).toBe(0);
  }
  await screenshot(page, `demo-role-${area}-${login.split('@')[0] ?? login}`);
  expect(problems).toEqual([]);
});
