import { queryOptions } from '@tanstack/react-query';
import type { CheckTokenResponse, TenantSummary } from '@rpm/contracts';
import { api, type LazyResponseSchema, type ResponseSchema } from '../../api/client';
import type { TenantSettingsMap } from '../../theme';
import type * as AuthSchemaModule from './auth-schemas';
import { rememberTenant } from './remembered-tenant';

/**
 * Everything cached for the signed-in user sits under this key, so ending the session can drop it
 * in one call and the next user never sees the previous one's data.
 */
export const SESSION_QUERY_ROOT = 'session';

type AuthSchemas = typeof AuthSchemaModule;

/**
 * The schemas of the sign-in and startup calls, fetched with the first of them: the login page
 * itself loads no schema library (zod), whose code weighs more than the page.
 */
function authSchema<K extends keyof AuthSchemas>(
  name: K,
): LazyResponseSchema<AuthSchemas[K] extends ResponseSchema<infer T> ? T : never> {
  return () => import('./auth-schemas').then((schemas) => schemas[name] as never);
}

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

/** Startup step 1 (spec §1): who is signed in, if anyone. */
export const sessionQuery = () =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, 'check-token'],
    queryFn: ({ signal }) => api.get('/auth/check-token', { schema: authSchema('checkTokenResponseSchema'), signal }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorDisplay: 'inline' },
  });

/** Startup step 2: the permission list, cached for the session (spec §7 "result cached"). */
export const permissionsQuery = (userId: string) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, userId, 'permissions'],
    queryFn: async ({ signal }) => {
      const result = await api.post('/auth/permission', {}, { schema: authSchema('permissionListSchema'), signal });
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
        schema: authSchema('tenantSettingsResponseSchema'),
        signal,
      });
      const settings: TenantSettingsMap = {};
      for (const { key, value } of result.settings) settings[key] = value;
      return { tenant: result.tenant, settings, logos: result.logos ?? {} };
    },
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorDisplay: 'inline' },
  });

/**
 * The tenant a typed code names (name and logos), shown under the tenant field. A failure
 * (unknown code, too many lookups, no network) only means nothing is shown: it never blocks
 * signing in, where the server gives its own answer.
 */
export const publicTenantQuery = (code: string) =>
  queryOptions({
    queryKey: ['public', 'tenant-by-code', code],
    queryFn: ({ signal }) =>
      api.get(`/manage/tenant/by-code/${encodeURIComponent(code)}`, { schema: authSchema('publicTenantSchema'), signal }),
    staleTime: 5 * 60_000,
    retry: false,
    meta: { errorDisplay: 'inline' },
  });

/** The tenant whose own address the console was opened on, if any. */
export const tenantByHostQuery = () =>
  queryOptions({
    queryKey: ['public', 'tenant-by-host'],
    queryFn: ({ signal }) => api.get('/manage/tenant/by-host', { schema: authSchema('nullablePublicTenantSchema'), signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    meta: { errorDisplay: 'inline' },
  });

export async function signIn(request: SignInRequest): Promise<CheckTokenResponse> {
  const signedIn = await api.post(
    '/auth/oauth-token',
    {
      tenant: request.tenant,
      username: request.username,
      password: request.password,
      grant_type: 'password',
      remember_me: request.rememberMe,
    },
    { schema: authSchema('checkTokenResponseSchema') },
  );
  // The next visit starts with this tenant's code already filled in.
  rememberTenant(request.tenant);
  return signedIn;
}

export function signOut(): Promise<unknown> {
  return api.post('/auth/logout', {});
}
