import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres, superuserPasswordFileOf } from './embedded.js';

const parent = mkdtempSync(path.join(tmpdir(), 'rpm-embedded-'));
// PostgreSQL runs as its own user, which must be able to enter the directory.
chmodSync(parent, 0o755);
const directory = path.join(parent, 'pg');
afterAll(() => {
  rmSync(parent, { recursive: true, force: true });
});

const withPassword = (adminUrl: string, password: string) => {
  const url = new URL(adminUrl);
  url.password = password;
  return url.toString();
};

/** The SQLSTATE of a login with `url`, or 'ok'. */
async function logInWith(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (error) {
    return error instanceof pg.DatabaseError ? (error.code ?? 'unknown') : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

it('gives the embedded superuser a generated password kept in a 0600 file, and moves a directory made with the old one', { timeout: 120_000 }, async () => {
  const port = await getPort();
  const passwordFile = superuserPasswordFileOf(directory);
  expect(passwordFile).toBe(path.join(parent, 'pg-superuser.password'));

  // A new directory: the password is generated, kept, and the only one that works.
  let server = await startEmbeddedPostgres({ directory, port });
  const password = readFileSync(passwordFile, 'utf8').trim();
  try {
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(decodeURIComponent(new URL(server.adminUrl).password)).toBe(password);
    expect(await logInWith(server.adminUrl)).toBe('ok');
    expect(await logInWith(withPassword(server.adminUrl, 'postgres'))).toBe('28P01');
  } finally {
    await server.stop();
  }

  // The next start keeps it.
  server = await startEmbeddedPostgres({ directory, port });
  try {
    expect(new URL(server.adminUrl).password).toBe(password);
    // A directory as it was before: the fixed password and no password file.
    const client = new pg.Client({ connectionString: server.adminUrl });
    await client.connect();
    await client.query(`ALTER ROLE postgres PASSWORD 'postgres'`);
    await client.end();
  } finally {
    await server.stop();
  }
  rmSync(passwordFile);

  server = await startEmbeddedPostgres({ directory, port });
  try {
    expect(existsSync(passwordFile)).toBe(true);
    const moved = readFileSync(passwordFile, 'utf8').trim();
    expect(moved).not.toBe(password);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(await logInWith(server.adminUrl)).toBe('ok');
    expect(decodeURIComponent(new URL(server.adminUrl).password)).toBe(moved);
    expect(await logInWith(withPassword(server.adminUrl, 'postgres'))).toBe('28P01');
  } finally {
    await server.stop();
  }
});
