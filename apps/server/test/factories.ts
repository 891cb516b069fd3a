import { randomBytes } from 'node:crypto';
import type { RoleCode } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { Database } from '../src/db/database.js';
import { healthCenters, patients, tenants, users } from '../src/db/schema.js';
import { findPlatformTenant } from '../src/modules/tenants/store.js';
import { hashPassword } from '../src/modules/auth/passwords.js';

export const TEST_PASSWORD = 'Test@1234';
let cachedHash: Promise<string> | undefined;
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

const suffix = () => randomBytes(4).toString('hex');

export async function createTenant(database: Database, overrides: Partial<typeof tenants.$inferInsert> = {}) {
  const code = `t-${suffix()}`;
  const [tenant] = await database.system
    .insert(tenants)
    .values({ id: uuidv7(), code, name: `Tenant ${code}`, ...overrides })
    .returning();
  if (!tenant) throw new Error('tenant not created');
  return tenant;
}

export async function createTenantUser(
  database: Database,
  tenantId: string,
  overrides: Partial<typeof users.$inferInsert> & { role?: RoleCode } = {},
) {
  const hash = await passwordHash();
  return database.withTenant(tenantId, async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        tenantId,
        id: uuidv7(),
        email: `user-${suffix()}@test.example`,
        firstName: 'Test',
        lastName: 'User',
        role: 'DOCTOR',
        passwordHash: hash,
        ...overrides,
      })
      .returning();
    if (!user) throw new Error('user not created');
    return user;
  });
}

/** A platform staff member: a user of the platform tenant with a platform role. */
export async function createPlatformUser(database: Database, overrides: Partial<typeof users.$inferInsert> & { role?: RoleCode } = {}) {
  const platform = await findPlatformTenant(database.system);
  return createTenantUser(database, platform.id, { role: 'SUPER_ADMIN', firstName: 'Platform', lastName: 'Staff', ...overrides });
}

export async function createHealthCenter(database: Database, tenantId: string, name = `Center ${suffix()}`) {
  return database.withTenant(tenantId, async (tx) => {
    const [center] = await tx.insert(healthCenters).values({ tenantId, id: uuidv7(), name }).returning();
    if (!center) throw new Error('center not created');
    return center;
  });
}

export async function createPatient(database: Database, tenantId: string, overrides: Partial<typeof patients.$inferInsert> = {}) {
  return database.withTenant(tenantId, async (tx) => {
    const [patient] = await tx
      .insert(patients)
      .values({ tenantId, id: uuidv7(), patientCode: `P${suffix()}`, firstName: 'Pat', lastName: 'Ient', ...overrides })
      .returning();
    if (!patient) throw new Error('patient not created');
    return patient;
  });
}
