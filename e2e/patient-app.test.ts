import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TENANT_CODE } from './support/harness.js';
import { logInPatient, pageWidth, PHONE, screenshot, submitPatientLogin, usePhoneSuite } from './support/phone.js';

/**
 * The patient app at /app/ on a phone (390×844, touch): tenant code, password login as the demo
 * patient to the home page, a staff account refused with the spec's permission message, and the
 * installable parts: the manifest (the tenant's once its code is entered), the service worker and
 * the shell opening offline.
 */

const suite = usePhoneSuite();

describe('patient app', () => {
  it('asks for the tenant code, then logs the demo patient in to the home page', async () => {
    const page = await suite.openPhone();
    await page.goto('/app/');
    await page.waitForURL('**/app/login');
    await page.getByLabel('Email or phone number').fill('patient@demo.example');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).tap();
    await expect.poll(() => page.getByText('A tenant code must be entered').isVisible()).toBe(true);

    await logInPatient(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Hello, /);
    expect(await page.getByRole('button', { name: 'Refresh' }).isVisible()).toBe(true);
    // The patient's own status and latest values, read without knowing its patient id.
    await expect
      .poll(() => page.getByText(/^Status: (Normal|At risk|High risk|SOS)$/).isVisible())
      .toBe(true);
    const shown = await page.locator('.readings li').count();
    if (shown === 0)
      expect(await page.getByText('No readings yet.', { exact: false }).isVisible()).toBe(true);
    else
      expect(await page.locator('.readings li').first().locator('.reading-age').textContent()).toMatch(
        /ago|just now/,
      );
    // Nothing wider than the phone.
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-app-home');
  });

  it("refuses a staff account with the spec's permission message", async () => {
    const page = await suite.openPhone();
    await submitPatientLogin(page, 'doctor@demo.example');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe("You don't have permission to access");
    expect(page.url()).toMatch(/\/app\/login$/);
  });

  it("links to the app from the console's desktop-only notice", async () => {
    const page = await suite.openPhone();
    await page.goto('/doctor');
    const link = page.getByRole('link', { name: 'Open the patient app' });
    await expect.poll(() => link.isVisible()).toBe(true);
    await link.tap();
    await page.waitForURL('**/app/login');
    await expect.poll(() => page.getByLabel('Tenant code').isVisible()).toBe(true);
  });

  it('serves a valid manifest and opens the shell offline once its service worker runs', async () => {
    const response = await fetch(`${suite.server.baseUrl}/app/manifest.webmanifest`);
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest.name).toBe('RPM Patient');
    expect(manifest.start_url).toBe('/app/');
    expect(manifest.icons.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons) {
      const image = await fetch(`${suite.server.baseUrl}${icon.src}`);
      expect(image.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await image.arrayBuffer());
      const size = Number(icon.sizes.split('x')[0]);
      // The PNG header's width and height.
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([size, size]);
    }

    const page = await suite.openPhone();
    await page.goto('/app/');
    await page.waitForURL('**/app/login');
    // With no tenant yet the app's own manifest; once the code names a tenant, the tenant's.
    const manifestLink = () => page.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute('href'));
    expect(await manifestLink()).toBe('/app/manifest.webmanifest');
    await page.getByLabel('Tenant code').fill(DEMO_TENANT_CODE);
    const tenantManifest = `/manage/tenant/by-code/${DEMO_TENANT_CODE}/manifest.webmanifest`;
    await expect.poll(manifestLink).toBe(tenantManifest);
    const branded = (await (await fetch(`${suite.server.baseUrl}${tenantManifest}`)).json()) as { name: string; theme_color: string; start_url: string };
    expect(branded).toMatchObject({ name: 'Demo Health', start_url: '/app/' });
    expect(await page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'))).toBe(branded.theme_color);
    // The index carries the same security policy as the console's, with a fresh nonce.
    const index = await fetch(`${suite.server.baseUrl}/app/`);
    expect(index.headers.get('content-security-policy')).toMatch(
      /script-src 'self'; style-src 'self' 'nonce-/,
    );
    expect(await index.text()).not.toContain('__RPM_CSP_NONCE__');

    await expect
      .poll(() =>
        page.evaluate(
          async () => (await navigator.serviceWorker.getRegistration('/app/'))?.active?.state ?? 'none',
        ),
      )
      .toBe('activated');
    await page.context().setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Log in' }).isVisible()).toBe(true);
    await page.context().setOffline(false);
  });
});
