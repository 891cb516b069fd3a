import { createHash } from 'node:crypto';
import { TENANT_CODE_PATTERN, TENANT_SETTING_DEFAULTS, TENANT_SETTING_VALUE_SCHEMAS } from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { FileStorage } from '../../lib/file-storage.js';
import { enterTenantLookup, logoUrlOf } from './service.js';
import { findActiveTenantByCode, readTenantSettings, type TenantRow } from './store.js';

type ManageApp = Parameters<FastifyPluginAsyncZod>[0];

export interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose: string;
}

/** The parts of the patient app's web manifest that follow the tenant's branding. */
export interface TenantManifest {
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  background_color: string;
  theme_color: string;
  icons: ManifestIcon[];
}

/** The app's own icons (apps/patient/public/manifest.webmanifest), listed after a tenant's logo. */
export const DEFAULT_APP_ICONS: readonly ManifestIcon[] = [
  { src: '/app/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/app/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
];

const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Width and height in pixels from a PNG's IHDR chunk or a JPEG's frame header, or undefined. */
export function imagePixelSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR')
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes, and markers that stand alone without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      offset += 2;
      continue;
    }
    if (JPEG_FRAME_MARKERS.has(marker)) {
      if (offset + 9 > bytes.length) return undefined;
      return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}

/** The square logo as an icon of its real size, or undefined when it is missing or unreadable. */
async function logoIcon(storage: FileStorage, tenant: TenantRow): Promise<ManifestIcon | undefined> {
  const src = logoUrlOf(tenant, 'square');
  if (src === undefined || tenant.logoSquareFile === null) return undefined;
  const opened = await storage.open(tenant.logoSquareFile);
  if (opened === undefined) return undefined;
  // Logos are at most 1 MB (TENANT_LOGO_MAX_BYTES); a JPEG's frame header may follow its metadata.
  const size = imagePixelSize(Buffer.concat((await opened.stream.toArray()) as Buffer[]));
  if (size === undefined || size.width === 0 || size.height === 0) return undefined;
  return { src, sizes: `${String(size.width)}x${String(size.height)}`, type: opened.contentType, purpose: 'any' };
}

export function tenantManifest(tenant: Pick<TenantRow, 'name'>, color: string, logo: ManifestIcon | undefined): TenantManifest {
  return {
    name: tenant.name,
    short_name: tenant.name,
    description: tenant.name,
    start_url: '/app/',
    scope: '/app/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: color,
    // The logo first; the app's own 192 and 512 px icons always follow, so a small logo never
    // leaves the browser without an icon large enough to offer installation.
    icons: logo ? [logo, ...DEFAULT_APP_ICONS] : [...DEFAULT_APP_ICONS],
  };
}

/**
 * GET /manage/tenant/by-code/:code/manifest.webmanifest: the patient app's manifest in a tenant's
 * branding (name, colour, square logo), for installing the app once the tenant code is known.
 * Public like the lookup by code, and it spends the same per-address budget: a miss (unknown,
 * inactive or platform code) counts as one, and past the limit every call is refused.
 */
export function registerTenantManifestRoute(app: ManageApp, storage: FileStorage): void {
  app.get(
    '/tenant/by-code/:code/manifest.webmanifest',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tenants'],
        summary: 'The patient app’s web manifest in an active tenant’s branding (application/manifest+json)',
        description:
          'Unknown, inactive and platform codes answer 404 common.notFound and count against the caller’s address with the misses of GET /manage/tenant/by-code/:code; past 30 in 15 minutes every call from it answers 429 tenant.lookupThrottled.',
        params: z.object({ code: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const lookup = await enterTenantLookup({ system: app.database.system, clock: app.clock, ip: request.ip });
      const wanted = request.params.code.trim().toLowerCase();
      const tenant = TENANT_CODE_PATTERN.test(wanted) ? await findActiveTenantByCode(app.database.system, wanted) : undefined;
      if (tenant === undefined || tenant.isPlatform) {
        await lookup.countMiss();
        throw new AppError('common.notFound');
      }
      const stored = (await readTenantSettings(app.database.system, tenant.id)).get('COLOR');
      const color = TENANT_SETTING_VALUE_SCHEMAS.COLOR.safeParse(stored).success && stored !== undefined ? stored : TENANT_SETTING_DEFAULTS.COLOR;
      const body = JSON.stringify(tenantManifest(tenant, color, await logoIcon(storage, tenant)));
      // The branding version: any change of name, colour or logo gives another tag.
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      void reply.header('cache-control', 'public, max-age=300').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('application/manifest+json; charset=utf-8').send(body);
    },
  );
}
