import { PROFILE_HEADER, type Permission, type RoleCode } from '@rpm/contracts';
import type { CenterVisibility } from '../db/database.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Who may call a route: anyone ('public'), anyone with a valid session ('session'), a session
 * whose role grants the named permission, or one that grants any of a list of permissions (a read
 * shared by two roles' work, such as an SOS case: `health.sos` handles it, `health.view` reads it).
 * Every route under the API prefixes must say which (enforced at registration), so no route is
 * left unchecked by accident.
 */
export type Access = 'public' | 'session' | Permission | readonly [Permission, ...Permission[]];

/** Does a role holding `held` pass a route's access rule (past authentication)? */
export function accessGrants(access: Access, held: { has: (permission: Permission) => boolean } | readonly string[]): boolean {
  if (access === 'public' || access === 'session') return true;
  const holds = (permission: Permission) => ('has' in held ? held.has(permission) : held.includes(permission));
  return typeof access === 'string' ? holds(access) : access.some(holds);
}

export interface AuthContext {
  sessionId: string;
  /** All access tokens issued from one login share a family (refresh rotation). */
  familyId: string;
  userId: string;
  /** The tenant holding the user's account (the platform tenant for platform staff). */
  accountTenantId: string;
  /** The tenant the session acts in: every data-plane query of the request is limited to it. */
  tenantId: string;
  role: RoleCode;
  fullName: string;
  /** When this access token stops working (the client then refreshes). */
  accessExpiresAt: Date;
  /** When the session itself ends (refreshing stops working). */
  sessionExpiresAt: Date;
  permissions: ReadonlySet<Permission>;
  /** The extra level the session acts at (null: the user's main level). */
  levelId: string | null;
  /** The level's scope or health center (null: tenant-wide), after any narrowing by the switcher. */
  scopeId: string | null;
  centerId: string | null;
  /** The health centers this caller may see; withCaller applies it to every query. */
  visibility: CenterVisibility;
  /**
   * A patient session's chosen profile (the `x-patient-profile` header: a sub-user it holds or a
   * patient it follows); absent: the account's own record. Staff sessions never carry one.
   * Resolved against the access rule by modules/followers/profile.ts.
   */
  profilePatientId?: string;
  /** The caller wrote moments ago: reads a replica could serve go to the primary (http/read-your-writes.ts). */
  isFreshReadRequired?: boolean;
  /**
   * The user's own unit choices as the session's user row held them (account settings; null: the
   * tenant's unit applies). What the user enters is read in these units (vitals/units.ts).
   */
  unitChoices: UnitChoices;
}

export interface UnitChoices {
  unitSystem: string | null;
  thermalUnit: string | null;
  bloodGlucoseUnit: string | null;
  uricAcidUnit: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The call reshapes or reads the whole tenant (the spec's `sadmin` calls): besides the
     * permission, the caller's level must see every health center of the tenant.
     */
    wholeTenant?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every API route with its access rule, for checks over the whole API (tests, docs). */
    apiRoutes: { method: string; url: string; access: Access; wholeTenant: boolean }[];
  }
}

export const API_PREFIXES = ['/auth', '/account', '/manage', '/health', '/notification', '/collector'] as const;

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`));
}

export const SESSION_COOKIE = 'rpm_session';
/** Sent only to /auth, where the refresh call lives. */
export const REFRESH_COOKIE = 'rpm_refresh';

export function readSessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || undefined;
  return request.cookies[SESSION_COOKIE];
}

/** Resolves a token to its session, or throws the AppError the caller should see. */
export type SessionResolver = (token: string) => Promise<AuthContext>;

export function installAccessControl(app: FastifyInstance, resolveSession: SessionResolver) {
  app.decorateRequest('auth', null);
  const apiRoutes: FastifyInstance['apiRoutes'] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const access = route.config?.access;
    if (access === undefined) throw new Error(`route ${String(route.method)} ${route.url} declares no access rule`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, access, wholeTenant: route.config?.wholeTenant === true });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    const token = readSessionToken(request);
    if (token === undefined) throw new AppError('auth.unauthorized');
    request.auth = withProfile(await resolveSession(token), request.headers[PROFILE_HEADER]);
    if (!accessGrants(access, request.auth.permissions)) {
      throw new AppError('auth.permissionDenied');
    }
    if (request.routeOptions.config.wholeTenant === true && !('all' in request.auth.visibility)) {
      throw new AppError('auth.permissionDenied');
    }
  });
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Carries a patient session's profile header into its context (staff sessions ignore it). A value
 * that cannot name a patient is a profile the session cannot use: profile.notFound.
 */
function withProfile(auth: AuthContext, header: string | string[] | undefined): AuthContext {
  if (auth.role !== 'PATIENT' || header === undefined || header === '') return auth;
  if (typeof header !== 'string' || !UUID_PATTERN.test(header)) throw new AppError('profile.notFound');
  return { ...auth, profilePatientId: header.toLowerCase() };
}

/** The authenticated caller; for handlers of routes whose access is not 'public'. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (request.auth === null) throw new AppError('auth.unauthorized');
  return request.auth;
}
