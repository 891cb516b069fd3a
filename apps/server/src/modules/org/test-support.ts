import { multipart, type Part } from '../../../test/multipart.js';

export { multipart, type Part };
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { RoleCode } from '@rpm/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { logIn, withSession } from '../../../test/app.js';
import type { TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { healthCenters, scopes } from '../../db/schema.js';

/** Helpers shared by the organisation module's integration tests. */

/** A real 1x1 PNG (one blue pixel). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);


/** The form fields of an object (arrays as repeated fields), plus optional file parts. */
export function formOf(fields: Record<string, string | number | string[]>, files: Part[] = []) {
  const parts: Part[] = Object.entries(fields).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((item) => ({ name, content: item })) : [{ name, content: String(value) }],
  );
  return multipart([...parts, ...files]);
}

/** Every file stored under a data directory (to prove that a refused upload left nothing). */
export async function filesUnder(directory: string): Promise<string[]> {
  try {
    const entries = await readdir(directory, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

export interface Organisation {
  tenant: Awaited<ReturnType<typeof createTenant>>;
  admin: Awaited<ReturnType<typeof createTenantUser>>;
  token: string;
  /** A request as the tenant-wide admin. */
  call: (options: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>;
  userWith: (role: RoleCode, overrides?: Parameters<typeof createTenantUser>[2]) => ReturnType<typeof createTenantUser>;
  logInAs: (user: { email: string | null }) => Promise<string>;
  /** Scopes and centers written directly (setup that is not under test). */
  insertScope: (name: string, level: number, parentId?: string | null) => Promise<string>;
  insertCenter: (name: string, scopeId?: string | null) => Promise<string>;
}

/** A tenant with a tenant-wide admin (ADMIN: tenant.scope and tenant.center) logged in. */
export async function organisation(testDb: TestDatabase, app: FastifyInstance): Promise<Organisation> {
  const { database } = testDb;
  const tenant = await createTenant(database);
  const admin = await createTenantUser(database, tenant.id, { role: 'ADMIN', firstName: 'Tenant', lastName: 'Admin' });
  const token = await logIn(app, tenant.code, admin.email ?? '');
  return {
    tenant,
    admin,
    token,
    call: ({ token: as, ...options }) => app.inject({ ...options, ...withSession(as ?? token) }),
    userWith: (role, overrides = {}) => createTenantUser(database, tenant.id, { role, ...overrides }),
    logInAs: (user) => logIn(app, tenant.code, user.email ?? ''),
    insertScope: async (name, level, parentId = null) => {
      const id = uuidv7();
      await database.withTenant(tenant.id, (tx) => tx.insert(scopes).values({ tenantId: tenant.id, id, name, level, parentId }));
      return id;
    },
    insertCenter: async (name, scopeId = null) => {
      const id = uuidv7();
      await database.withTenant(tenant.id, (tx) => tx.insert(healthCenters).values({ tenantId: tenant.id, id, name, scopeId }));
      return id;
    },
  };
}

/** A request with a multipart body as one caller. */
export function sendForm(app: FastifyInstance, token: string, method: 'POST' | 'PUT', url: string, body: ReturnType<typeof multipart>) {
  return app.inject({ method, url, payload: body.payload, headers: { ...body.headers, cookie: `rpm_session=${token}` } });
}

/** The `data` of a success envelope; the caller names the shape it expects, as with response.json<T>(). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape is the caller's expectation
export const dataOf = <T>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;
