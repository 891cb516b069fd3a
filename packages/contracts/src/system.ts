import { z } from 'zod';
import { ROLE_CODES } from './roles.js';
import { tenantSettingSchema } from './tenant-settings.js';

export const healthzResponseSchema = z.object({ status: z.literal('ok') });
export const readyzResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ database: z.enum(['up', 'down']) }),
});

/** The tenant a session acts in, as its settings name it. */
export const tenantSummarySchema = z.object({
  id: z.uuid(),
  code: z.string().describe('Tenant code typed at login'),
  name: z.string(),
});
export type TenantSummary = z.infer<typeof tenantSummarySchema>;

/**
 * One active tenant found by its exact code or by the host of its public URL, for the login pages
 * to show whose console this is (GET /manage/tenant/by-code/:code, /manage/tenant/by-host).
 * Name and public branding only: no id, no settings.
 */
export const publicTenantSchema = z.object({
  code: z.string().describe('Tenant code typed at login'),
  name: z.string(),
  logos: z.object({ square: z.string().optional(), horizontal: z.string().optional() }),
});
export type PublicTenant = z.infer<typeof publicTenantSchema>;

export const checkTokenResponseSchema = z.object({
  userId: z.uuid(),
  tenantId: z.uuid().describe("The tenant the session acts in"),
  role: z.enum(ROLE_CODES),
  fullName: z.string(),
  expiresAt: z.iso.datetime(),
});
export type CheckTokenResponse = z.infer<typeof checkTokenResponseSchema>;

export const permissionListSchema = z.object({ permissions: z.array(z.string()) });
export type PermissionList = z.infer<typeof permissionListSchema>;

export const tenantSettingsResponseSchema = z.object({
  tenant: tenantSummarySchema.nullable(),
  settings: z.array(tenantSettingSchema),
  /** Branding images of the tenant that exist (URLs of the public logo call). */
  logos: z.object({ square: z.string().optional(), horizontal: z.string().optional() }).optional(),
});
export type TenantSettingsResponse = z.infer<typeof tenantSettingsResponseSchema>;
