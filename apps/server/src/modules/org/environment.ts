import type { ErrorCode, OrgUser } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { users } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStorage } from '../../lib/file-storage.js';
import type { AuditContext } from '../audit/store.js';
import { asRole } from '../auth/sessions.js';

/** What a scope or health-center service needs for one request. */
export interface OrgEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
  storage: FileStorage;
  /** Where a failure after the commit goes (it must not turn a saved change into an error). */
  log: { warn(details: object, message: string): void };
}

/**
 * The `sadmin` calls manage the organisation of the whole acting tenant, so they need a caller
 * who sees all of it: platform staff or a tenant-wide admin, not narrowed by the level switcher.
 * Scope and center admins hold the same permissions for their own part and use the `smadmin`
 * calls instead; without this check a scope admin could reshape every scope of the tenant.
 */
export function seesWholeTenant(auth: AuthContext): boolean {
  return 'all' in auth.visibility;
}

export function requireWholeTenant(auth: AuthContext): void {
  if (!seesWholeTenant(auth)) throw new AppError('auth.permissionDenied');
}

/** The caller's transaction: their tenant, limited to the centers they may see (RLS). */
export function inCallerTransaction<T>(environment: OrgEnvironment, work: (tx: TenantTransaction) => Promise<T>): Promise<T> {
  return withCaller(environment.database, environment.auth, work);
}

/** The PostgreSQL error under a failed statement (Drizzle wraps the driver's error as `cause`). */
function databaseErrorOf(error: unknown): { code: string; constraint?: string } | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    if ('code' in current && typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) {
      const constraint = 'constraint' in current && typeof current.constraint === 'string' ? current.constraint : undefined;
      return { code: current.code, ...(constraint === undefined ? {} : { constraint }) };
    }
    current = current.cause;
  }
  return undefined;
}

/**
 * Runs `work` and turns the database's refusals into catalogue errors: a unique index into the
 * duplicate error, a foreign key into "in use", and the MAIN-admin trigger into its own code.
 */
export async function mappingDatabaseErrors<T>(codes: { duplicate: ErrorCode; inUse?: ErrorCode }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const found = databaseErrorOf(error);
    if (found?.constraint === 'center_admins_main_required') throw new AppError('center.mainAdminRequired', { cause: error });
    if (found?.code === '23505') throw new AppError(codes.duplicate, { cause: error });
    if (found?.code === '23503' && codes.inUse !== undefined) throw new AppError(codes.inUse, { cause: error });
    throw error;
  }
}

export type UserRow = typeof users.$inferSelect;

export function toOrgUser(user: Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'role'>): OrgUser {
  return {
    userId: user.id,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    phone: user.phone,
    role: asRole(user.role),
  };
}

/** Ids without repeats, in their first order. */
export const distinct = (ids: readonly string[]): string[] => [...new Set(ids)];
