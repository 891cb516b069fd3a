import { TENANT_CODE_PATTERN } from '@rpm/contracts';

/** Where the console keeps the tenant code of the last sign-in or tenant link (this browser only). */
export const TENANT_STORAGE_KEY = 'rpm.tenant';

/** A tenant code in the form codes have (lower case), or null for anything else. */
export function asTenantCode(value: string | null | undefined): string | null {
  const code = value?.trim().toLowerCase() ?? '';
  return TENANT_CODE_PATTERN.test(code) ? code : null;
}

/**
 * The code to start the tenant field with: a link's `?tenant=` wins (and is remembered), then the
 * code this browser remembers. Null: nothing known, so the console asks the server whether its
 * host belongs to a tenant.
 */
export function initialTenantCode(search: string, stored: string | null): { code: string; fromLink: boolean } | null {
  const fromLink = asTenantCode(new URLSearchParams(search).get('tenant'));
  if (fromLink !== null) return { code: fromLink, fromLink: true };
  const remembered = asTenantCode(stored);
  return remembered === null ? null : { code: remembered, fromLink: false };
}

export function readRememberedTenant(): string | null {
  try {
    return globalThis.localStorage.getItem(TENANT_STORAGE_KEY);
  } catch {
    // Storage can be disabled (privacy mode); the code is then typed each time.
    return null;
  }
}

export function rememberTenant(value: string): void {
  const code = asTenantCode(value);
  if (code === null) return;
  try {
    globalThis.localStorage.setItem(TENANT_STORAGE_KEY, code);
  } catch {
    // Not remembering is acceptable.
  }
}
