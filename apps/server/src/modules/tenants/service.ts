import { createHash } from 'node:crypto';
import {
  PUBLIC_TENANT_SETTING_KEYS,
  TENANT_CODE_PATTERN,
  TENANT_SETTING_DEFAULTS,
  type PublicTenant,
  type TenantLogoKind,
  type TenantSettingsResponse,
  type TenantSummary,
} from '@rpm/contracts';
import type { SystemStore } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { countThrottleFailure, readThrottle } from '../auth/store.js';
import { findActiveTenantByCode, findActiveTenantsByPublicHost, findTenantById, readTenantSettings, type TenantRow } from './store.js';

export function toTenantSummary(tenant: TenantRow): TenantSummary {
  return { id: tenant.id, code: tenant.code, name: tenant.name };
}

/**
 * Lookups of unknown tenant codes allowed per address in the window (shared by every server
 * process through login_throttle, under its own key). Found codes cost nothing, so a person who
 * mistypes a few times is never held up, while guessing codes runs out after a handful of tries.
 */
export const TENANT_LOOKUP_THROTTLE = { misses: 30, windowMilliseconds: 15 * 60_000 } as const;

function toPublicTenant(tenant: TenantRow): PublicTenant {
  const square = logoUrlOf(tenant, 'square');
  const horizontal = logoUrlOf(tenant, 'horizontal');
  return { code: tenant.code, name: tenant.name, logos: { ...(square ? { square } : {}), ...(horizontal ? { horizontal } : {}) } };
}

export interface TenantLookupEnvironment {
  system: SystemStore;
  clock: Clock;
  ip: string | undefined;
}

/**
 * The per-address budget of misses shared by every public call that answers per tenant code (the
 * lookup and the logos): refuses the call once spent (429 `tenant.lookupThrottled`, found or not),
 * and gives the caller the function that counts one miss.
 */
export async function enterTenantLookup(environment: TenantLookupEnvironment): Promise<{ countMiss: () => Promise<void> }> {
  const key = `tenant-lookup:${environment.ip ?? 'unknown'}`;
  const now = environment.clock.now();
  const misses = await readThrottle(environment.system, key, now, TENANT_LOOKUP_THROTTLE.windowMilliseconds);
  if (misses >= TENANT_LOOKUP_THROTTLE.misses) throw new AppError('tenant.lookupThrottled');
  return { countMiss: () => countThrottleFailure(environment.system, key, now, TENANT_LOOKUP_THROTTLE.windowMilliseconds).then(() => undefined) };
}

/**
 * GET /manage/tenant/by-code/:code: an active customer tenant by its exact code. Unknown,
 * inactive and platform codes get the same `tenant.notFound`, and each counts against the
 * caller's address; past the limit every lookup from it is refused, found or not.
 */
export async function findPublicTenantByCode(environment: TenantLookupEnvironment, code: string): Promise<PublicTenant> {
  const lookup = await enterTenantLookup(environment);
  const wanted = code.trim().toLowerCase();
  const tenant = TENANT_CODE_PATTERN.test(wanted) ? await findActiveTenantByCode(environment.system, wanted) : undefined;
  if (tenant === undefined || tenant.isPlatform) {
    await lookup.countMiss();
    throw new AppError('tenant.notFound');
  }
  return toPublicTenant(tenant);
}

/**
 * GET /manage/tenant/by-host: the one active customer tenant whose public URL has the host the
 * console was opened on (the request's Host header), so a tenant's own address needs no code.
 * No match, or several, answer `tenant.notFound`. Not counted: a host is no secret (it is the
 * tenant's published address) and most consoles are opened on a host no tenant claims.
 */
/** The one active tenant whose public URL has this host, or null (most hosts belong to no tenant). */
export async function findPublicTenantByHost(system: SystemStore, host: string): Promise<PublicTenant | null> {
  const wanted = host.trim().toLowerCase();
  const matches = wanted === '' || wanted.length > 255 ? [] : await findActiveTenantsByPublicHost(system, wanted);
  const tenant = matches.length === 1 ? matches[0] : undefined;
  return tenant === undefined ? null : toPublicTenant(tenant);
}

export function logoFileOf(tenant: TenantRow, kind: TenantLogoKind): string | null {
  switch (kind) {
    case 'square':
      return tenant.logoSquareFile;
    case 'horizontal':
      return tenant.logoHorizontalFile;
    case 'qr':
      return tenant.registrationQrFile;
  }
}

/**
 * The public URL of a tenant's image, or undefined when it has none. A short hash of the stored
 * file's key changes with every upload, so browsers and proxies may cache each version.
 */
export function logoUrlOf(tenant: TenantRow, kind: TenantLogoKind): string | undefined {
  const file = logoFileOf(tenant, kind);
  if (file === null || tenant.isPlatform) return undefined;
  const version = createHash('sha256').update(file).digest('hex').slice(0, 12);
  return `/manage/tenant/${encodeURIComponent(tenant.code)}/logo?kind=${kind}&v=${version}`;
}

/**
 * The settings a console needs at start: every public key, with the tenant's value or the spec's
 * default, and the tenant's logos. Secret keys (OCR, AI) never leave the server through this call.
 */
export async function readPublicSettings(system: SystemStore, tenantId: string): Promise<TenantSettingsResponse> {
  const tenant = await findTenantById(system, tenantId);
  const stored = tenant ? await readTenantSettings(system, tenant.id) : new Map<string, string>();
  const square = tenant && logoUrlOf(tenant, 'square');
  const horizontal = tenant && logoUrlOf(tenant, 'horizontal');
  return {
    tenant: tenant ? toTenantSummary(tenant) : null,
    settings: PUBLIC_TENANT_SETTING_KEYS.map((key) => ({ key, value: stored.get(key) ?? TENANT_SETTING_DEFAULTS[key] })),
    logos: { ...(square ? { square } : {}), ...(horizontal ? { horizontal } : {}) },
  };
}
