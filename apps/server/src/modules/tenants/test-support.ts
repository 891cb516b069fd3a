import { multipart, type Part } from '../../../test/multipart.js';

export { multipart, type Part };
/** Test support for the tenant and trial-request tests: images, multipart bodies, staff sessions. */
import type { RoleCode } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { logIn } from '../../../test/app.js';
import type { TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenantUser } from '../../../test/factories.js';
import { platformStaffTenants } from '../../db/schema.js';

/** A real 1x1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);
/** The first bytes of a JPEG (enough for the type check). */
export const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64, 1), Buffer.from('ffd9', 'hex')]);
/** A PNG a little over 1 MB. */
export const BIG_PNG = Buffer.concat([PNG, Buffer.alloc(Math.round(1.05 * 1024 * 1024))]);


export const filePart = (name: string, content: Buffer, filename = 'logo.png', contentType = 'image/png'): Part => ({ name, content, filename, contentType });

/** A platform staff member with `role`, logged in inside `actingTenantCode`; a system admin is assigned to `assigned`. */
export async function staffSession(app: FastifyInstance, testDb: TestDatabase, role: RoleCode, actingTenantCode: string, assigned: string[] = []) {
  const user = await createPlatformUser(testDb.database, { role });
  if (assigned.length > 0) await testDb.database.system.insert(platformStaffTenants).values(assigned.map((tenantId) => ({ userId: user.id, tenantId })));
  return { user, token: await logIn(app, actingTenantCode, user.email ?? '') };
}

/** A user of a customer tenant with a tenant role, logged in. */
export async function tenantSession(app: FastifyInstance, testDb: TestDatabase, tenant: { id: string; code: string }, role: RoleCode) {
  const user = await createTenantUser(testDb.database, tenant.id, { role });
  return { user, token: await logIn(app, tenant.code, user.email ?? '') };
}

export interface ErrorBody {
  code: string;
  message: string;
  fieldErrors?: { field: string; code: string; message: string }[];
}
export const errorOf = (response: LightMyRequestResponse) => ({ status: response.statusCode, ...response.json<ErrorBody>() });
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the data's shape, as with response.json<T>()
export const dataOf = <T>(response: LightMyRequestResponse): T => {
  if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
  return response.json<{ data: T }>().data;
};
