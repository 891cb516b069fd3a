import { useEffect } from 'react';

/** The branded web manifest of a tenant (served by the API, in the tenant's name, colour and logo). */
export const tenantManifestUrl = (code: string) => `/manage/tenant/by-code/${encodeURIComponent(code)}/manifest.webmanifest`;

let applied: string | undefined;

/**
 * Points the page's manifest link (and its theme colour) at the tenant's branded manifest, so the
 * app installs with the tenant's name and icon. Only once the manifest answers: an unknown or
 * unreachable tenant leaves the app's own default manifest in place.
 */
export async function applyTenantManifest(code: string): Promise<void> {
  if (applied === code) return;
  const url = tenantManifestUrl(code);
  try {
    const response = await fetch(url, { headers: { Accept: 'application/manifest+json' } });
    if (!response.ok) return;
    const manifest = (await response.json()) as { theme_color?: unknown };
    applied = code;
    document.querySelector('link[rel="manifest"]')?.setAttribute('href', url);
    if (typeof manifest.theme_color === 'string')
      document.querySelector('meta[name="theme-color"]')?.setAttribute('content', manifest.theme_color);
  } catch {
    // Offline or a damaged answer: the default manifest stays.
  }
}

/** {@link applyTenantManifest} for a tenant code once it is known to name a tenant. */
export function useTenantManifest(code: string | undefined): void {
  useEffect(() => {
    if (code !== undefined) void applyTenantManifest(code);
  }, [code]);
}
