import { queryOptions } from '@tanstack/react-query';
import {
  checkTokenResponseSchema,
  permissionListSchema,
  tenantSettingsResponseSchema,
  tenantSummarySchema,
  type CheckTokenResponse,
  type TenantSummary,
} from '@rpm/contracts';
import { api } from '../../api/client';
import type { TenantSettingsMap } from '../../theme';

/**
 * Everything cached for the signed-in user sits under this key, so ending the session can drop it
 * in one call and the next user never sees the previous one's data.
 */
export const SESSION_QUERY_ROOT = 'session';

export interface SignInRequest {
  tenant: string;
  username: string;
  password: string;
  rememberMe: boolean;
}

export interface TenantSettingsSnapshot {
  tenant: TenantSummary | null;
  settings: TenantSettingsMap;
  /** Addresses of the tenant's uploaded logos, for the header and the tab icon. */
  logos: { square?: string | undefined; horizontal?: string | undefined };
}

const tenantListSchema = tenantSummarySchema.array();

/** Startup step 1 (spec §1): who is signed in, if anyone. */
export const sessionQuery = () =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, 'check-token'],
    queryFn: ({ signal }) => api.get('/auth/check-token', { schema: checkTokenResponseSchema, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorDisplay: 'inline' },
  });

/** Startup step 2: the permission list, cached for the session (spec §7 "result cached"). */
export const permissionsQuery = (userId: string) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, userId, 'permissions'],
    queryFn: async ({ signal }) => {
      const result = await api.post('/auth/permission', {}, { schema: permissionListSchema, signal });
      return result.permissions;
    },
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorDisplay: 'inline' },
  });

/** Startup step 3: the tenant's branding and preferences. */
export const tenantSettingsQuery = (userId: string) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, userId, 'tenant-settings'],
    queryFn: async ({ signal }): Promise<TenantSettingsSnapshot> => {
      const result = await api.get('/account/tenant/setting/getAll', {
        schema: tenantSettingsResponseSchema,
        signal,
      });
      const settings: TenantSettingsMap = {};
      for (const { key, value } of result.settings) settings[key] = value;
      return { tenant: result.tenant, settings, logos: result.logos ?? {} };
    },
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorDisplay: 'inline' },
  });

/** Public list for the login screen's tenant picker; a failure falls back to typing the code. */
export const tenantListQuery = () =>
  queryOptions({
    queryKey: ['public', 'tenants'],
    queryFn: ({ signal }) => api.get('/manage/tenant/all', { schema: tenantListSchema, signal }),
    staleTime: 5 * 60_000,
    meta: { errorDisplay: 'inline' },
  });

export function signIn(request: SignInRequest): Promise<CheckTokenResponse> {
  return api.post(
    '/auth/oauth-token',
    {
      tenant: request.tenant,
      username: request.username,
      password: request.password,
      grant_type: 'password',
      remember_me: request.rememberMe,
    },
    { schema: checkTokenResponseSchema },
  );
}

export function signOut(): Promise<unknown> {
  return api.post('/auth/logout', {});
}
