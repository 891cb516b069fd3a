/** Test support for the staff and level tests: an organisation to work in, calls, stored state. */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { logIn, withSession } from '../../../test/app.js';
import { asOwner, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createTenant, createTenantUser } from '../../../test/factories.js';
import { scopes } from '../../db/schema.js';

/**
 * A tenant with two root scopes (north, south), a health center in each (A in north, B in south),
 * a tenant-wide ADMIN, an MHSC admin of each center and a doctor in each center.
 */
export async function organisation(testDb: TestDatabase) {
  const { database } = testDb;
  const tenant = await createTenant(database);
  const north = uuidv7();
  const south = uuidv7();
  await database.withTenant(tenant.id, (tx) =>
    tx.insert(scopes).values([
      { tenantId: tenant.id, id: north, name: 'North', level: 1 },
      { tenantId: tenant.id, id: south, name: 'South', level: 1 },
    ]),
  );
  const centerA = await createHealthCenter(database, tenant.id, 'Center A');
  const centerB = await createHealthCenter(database, tenant.id, 'Center B');
  await database.withTenant(tenant.id, async (tx) => {
    await tx.execute(sql`UPDATE health_centers SET scope_id = ${north} WHERE id = ${centerA.id}`);
    await tx.execute(sql`UPDATE health_centers SET scope_id = ${south} WHERE id = ${centerB.id}`);
  });
  const admin = await createTenantUser(database, tenant.id, { role: 'ADMIN', firstName: 'Tenant', lastName: 'Admin' });
  const adminA = await createTenantUser(database, tenant.id, { role: 'MHSC_ADMIN', healthCenterId: centerA.id, firstName: 'Admin', lastName: 'Anh' });
  const adminB = await createTenantUser(database, tenant.id, { role: 'MHSC_ADMIN', healthCenterId: centerB.id, firstName: 'Admin', lastName: 'Binh' });
  const doctorA = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerA.id, firstName: 'Doctor', lastName: 'Anh' });
  const doctorB = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerB.id, firstName: 'Doctor', lastName: 'Binh' });
  return { tenant, north, south, centerA, centerB, admin, adminA, adminB, doctorA, doctorB };
}
export type Organisation = Awaited<ReturnType<typeof organisation>>;

/** Logs a user (made by the factories, with their email) in to a tenant. */
export function logInAs(app: FastifyInstance, tenantCode: string, user: { email: string | null }): Promise<string> {
  return logIn(app, tenantCode, user.email ?? '');
}

/** Calls the API as the holder of `token`. */
export function call(app: FastifyInstance, token: string, method: NonNullable<InjectOptions['method']>, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }), ...withSession(token) });
}

export interface ListBody {
  data: { items: { id: string; fullName: string; status: string; doctors?: { id: string }[]; tenants?: { id: string }[] }[]; page: number; size: number; total: number };
}

export const idsOf = (response: LightMyRequestResponse) => response.json<ListBody>().data.items.map((item) => item.id);

export interface StoredUser {
  tenant_id: string;
  role: string;
  custom_role_id: string | null;
  health_center_id: string | null;
  scope_id: string | null;
  status: string;
  disabled_until: Date | null;
  first_name: string;
  email: string | null;
  phone: string | null;
  password_hash: string | null;
}

/** The user row as stored (read as the owner, past row level security). */
export async function storedUser(ownerUrl: string, id: string): Promise<StoredUser | undefined> {
  const [row] = await asOwner<StoredUser>(ownerUrl, 'SELECT * FROM users WHERE id = $1', [id]);
  return row;
}

export async function usersByEmail(ownerUrl: string, email: string): Promise<StoredUser[]> {
  return asOwner<StoredUser>(ownerUrl, 'SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
}

/** Audit rows about an account, oldest first, its own logins left out. */
export async function auditActions(ownerUrl: string, subjectUserId: string): Promise<{ action: string; actor_user_id: string | null; details: Record<string, unknown> }[]> {
  return asOwner(
    ownerUrl,
    `SELECT action, actor_user_id, details FROM audit_log WHERE subject_user_id = $1 AND action <> 'ACCOUNT_LOGIN' ORDER BY occurred_at, id`,
    [subjectUserId],
  );
}

export async function doctorLinks(ownerUrl: string, assistantId: string): Promise<string[]> {
  const rows = await asOwner<{ doctor_id: string }>(ownerUrl, 'SELECT doctor_id FROM doctor_assistants WHERE assistant_id = $1 ORDER BY doctor_id', [assistantId]);
  return rows.map((row) => row.doctor_id);
}

/** Active (not revoked) sessions of a user. */
export async function activeSessions(ownerUrl: string, userId: string): Promise<{ id: string; revoked_reason: string | null }[]> {
  return asOwner(ownerUrl, 'SELECT id, revoked_reason FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
}

export async function revokedReasons(ownerUrl: string, userId: string): Promise<string[]> {
  const rows = await asOwner<{ revoked_reason: string }>(ownerUrl, 'SELECT DISTINCT revoked_reason FROM sessions WHERE user_id = $1 AND revoked_at IS NOT NULL', [userId]);
  return rows.map((row) => row.revoked_reason);
}

/** A valid create body for a doctor at a center; tests change one field at a time. */
export function doctorBody(centerId: string, overrides: Record<string, unknown> = {}) {
  const unique = uuidv7().slice(-8);
  return { firstName: 'Lan', lastName: 'Tran', email: `staff-${unique}@test.example`, role: 'DOCTOR', centerId, ...overrides };
}
