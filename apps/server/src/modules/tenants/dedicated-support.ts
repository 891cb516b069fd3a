/** Test support for DEDICATED tenants: their own databases on the test server, cleaned up afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { urlOfDatabase } from '../../../test/database.js';

export async function asAdmin(statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** A tenant's own server as an operator hands it over: a login role owning a primary and a vitals database. */
export interface TenantServer {
  host: string;
  port: number;
  role: string;
  password: string;
  primary: string;
  vitals: string;
  /** The primary database as the superuser sees it (to check or plant rows). */
  primaryOwnerUrl: string;
}

/**
 * Makes tenant servers and drops them all with `dropAll`. `attributes` change the role afterwards
 * (e.g. 'BYPASSRLS' or 'CREATEROLE', for servers that must be refused). `track` adds a role or a
 * database made by the test itself to the clean-up.
 */
export function tenantServers() {
  const roles: string[] = [];
  const databases: string[] = [];
  const url = new URL(inject('adminUrl'));
  return {
    async create(attributes = ''): Promise<TenantServer> {
      const suffix = randomBytes(4).toString('hex');
      const role = `rpm_ded_${suffix}`;
      const password = `Dedicated#${suffix}`;
      const primary = `rpm_ded_${suffix}_main`;
      const vitals = `rpm_ded_${suffix}_vitals`;
      await asAdmin(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB PASSWORD '${password}'`);
      roles.push(role);
      if (attributes !== '') await asAdmin(`ALTER ROLE ${role} ${attributes}`);
      for (const name of [primary, vitals]) {
        await asAdmin(`CREATE DATABASE ${name} OWNER ${role}`);
        databases.push(name);
      }
      return { host: url.hostname, port: Number(url.port || '5432'), role, password, primary, vitals, primaryOwnerUrl: urlOfDatabase(inject('adminUrl'), primary) };
    },
    track(kind: 'role' | 'database', name: string) {
      (kind === 'role' ? roles : databases).push(name);
    },
    async dropAll() {
      for (const name of databases.splice(0)) await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      for (const role of roles.splice(0)) {
        // Grants made by the migrations (rpm_app membership, CONNECT) go with the role's objects.
        await asAdmin(`DROP OWNED BY ${role}`).catch(() => undefined);
        await asAdmin(`DROP ROLE IF EXISTS ${role}`);
      }
    },
  };
}

type Overrides = Partial<Record<'primary' | 'replica' | 'vitals', Record<string, unknown>>>;

/** The body of a DEDICATED save or test on `server` (replica = the primary database). */
export const dedicatedSetOn = (server: TenantServer, overrides: Overrides = {}) => {
  const base = { host: server.host, port: server.port, user: server.role, password: server.password, sslMode: 'disable' };
  return {
    connectionType: 'DEDICATED',
    connections: [
      { kind: 'primary', ...base, database: server.primary, ...overrides.primary },
      { kind: 'replica', ...base, database: server.primary, ...overrides.replica },
      { kind: 'vitals', ...base, database: server.vitals, ...overrides.vitals },
    ],
  };
};
