import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'rpm-config-'));

function problemsOf(environment: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('configuration from the environment', () => {
  it('has working defaults: port 8080, embedded database, ./data', () => {
    const directory = dataDir();
    const config = loadConfig({ DATA_DIR: directory });
    expect(config).toMatchObject({ port: 8080, databaseUrl: undefined, dataDir: directory, seedDemo: true, environment: 'development' });
    expect(loadConfig({}).dataDir).toBe(path.resolve('data'));
  });

  it('runs one server process unless SERVER_PROCESSES says more, and refuses a count it cannot run', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).serverProcesses).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir(), SERVER_PROCESSES: '2' }).serverProcesses).toBe(2);
    expect(problemsOf({ DATA_DIR: dataDir(), SERVER_PROCESSES: '0' })).toEqual(['SERVER_PROCESSES: must be at least 1 (got "0")']);
    expect(problemsOf({ DATA_DIR: dataDir(), SERVER_PROCESSES: 'two' })).toEqual(['SERVER_PROCESSES: must be a number (got "two")']);
    expect(problemsOf({ DATA_DIR: dataDir(), SERVER_PROCESSES: '65' })).toEqual(['SERVER_PROCESSES: must be at most 64 (got "65")']);
  });

  it('generates a secrets key once outside production and keeps it in the data directory', () => {
    const directory = dataDir();
    const first = loadConfig({ DATA_DIR: directory }).secretsKey;
    expect(first).toHaveLength(32);
    expect(readFileSync(path.join(directory, 'secrets.key'), 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadConfig({ DATA_DIR: directory }).secretsKey.equals(first)).toBe(true);
  });

  it('names every bad value with what it must look like, all at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://nope',
      SECRETS_KEY: 'short',
      LOG_LEVEL: 'loud',
      SEED_DEMO: 'maybe',
      DATA_DIR: dataDir(),
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT: must be a number (got "eighty")',
        'DATABASE_URL: must be a URL like postgres://user:password@host:5432/database',
        expect.stringMatching(/^SECRETS_KEY: must be 64 hexadecimal characters/),
        expect.stringMatching(/^LOG_LEVEL: must be one of .* \(got "loud"\)$/),
        'SEED_DEMO: must be true or false (got "maybe")',
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('never echoes secrets or URLs with passwords in its messages', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres//user:hunter2@host', SECRETS_KEY: 'hunter2', DATA_DIR: dataDir() });
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('runs the demo simulator with the demo tenant outside production, unless SIMULATOR=off', () => {
    const directory = dataDir();
    expect(loadConfig({ DATA_DIR: directory }).simulator).toBe(true);
    expect(loadConfig({ DATA_DIR: directory, SIMULATOR: 'off' }).simulator).toBe(false);
    expect(loadConfig({ DATA_DIR: directory, SEED_DEMO: 'false' }).simulator).toBe(false);
    expect(loadConfig({ DATA_DIR: directory }).simulatorOperator).toBe(true);
    expect(loadConfig({ DATA_DIR: directory, SIMULATOR_OPERATOR: 'off' }).simulatorOperator).toBe(false);
    expect(problemsOf({ DATA_DIR: directory, SIMULATOR_OPERATOR: 'maybe' })).toEqual([
      'SIMULATOR_OPERATOR: must be on or off (got "maybe")',
    ]);
    const production = { NODE_ENV: 'production', SECRETS_KEY: 'ab'.repeat(32), DATA_DIR: directory };
    expect(loadConfig(production).simulator).toBe(false);
    expect(loadConfig({ ...production, SIMULATOR: 'on' }).simulator).toBe(true);
    expect(problemsOf({ DATA_DIR: directory, SIMULATOR: 'maybe' })).toEqual(['SIMULATOR: must be on or off (got "maybe")']);
  });

  it('trusts no proxy by default; TRUST_PROXY takes off or a list of addresses and CIDR ranges', () => {
    const directory = dataDir();
    expect(loadConfig({ DATA_DIR: directory }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: directory, TRUST_PROXY: 'off' }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: directory, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['true', 'proxy.local', '10.0.0.0/33', '::1/129', '127.0.0.1,', '10.0.0.1/8/8']) {
      expect(problemsOf({ DATA_DIR: directory, TRUST_PROXY: bad })).toEqual([
        `TRUST_PROXY: must be off or a comma-separated list of proxy addresses or CIDR ranges, like 127.0.0.1,10.0.0.0/8 (got "${bad}")`,
      ]);
    }
  });

  it('rejects out-of-range ports', () => {
    expect(problemsOf({ PORT: '70000', DATA_DIR: dataDir() })).toEqual(['PORT: must be between 0 and 65535 (got "70000")']);
  });

  it('lets a DEDICATED tenant’s replica lag 5 s by default; REPLICA_MAX_LAG_MS takes 0 to 600000 ms', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).replicaMaxLagMilliseconds).toBe(5000);
    expect(loadConfig({ DATA_DIR: dataDir(), REPLICA_MAX_LAG_MS: '0' }).replicaMaxLagMilliseconds).toBe(0);
    expect(problemsOf({ REPLICA_MAX_LAG_MS: '-1', DATA_DIR: dataDir() })).toEqual(['REPLICA_MAX_LAG_MS: must be between 0 and 600000 milliseconds (got "-1")']);
  });

  it('requires an explicit SECRETS_KEY in production', () => {
    expect(problemsOf({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toEqual([
      'SECRETS_KEY: is required in production (64 hexadecimal characters)',
    ]);
    const key = 'ab'.repeat(32);
    const config = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key, DATABASE_URL: 'postgres://u:p@db:5432/rpm' });
    expect(config.secretsKey.toString('hex')).toBe(key);
    expect(config.cookieSecure).toBe('auto');
  });

  it('makes cookies Secure except over plain HTTP to localhost unless COOKIE_SECURE says otherwise', () => {
    const directory = dataDir();
    expect(loadConfig({ DATA_DIR: directory }).cookieSecure).toBe('auto');
    expect(loadConfig({ DATA_DIR: directory, COOKIE_SECURE: 'true' }).cookieSecure).toBe(true);
    expect(loadConfig({ DATA_DIR: directory, COOKIE_SECURE: 'false' }).cookieSecure).toBe(false);
  });

  it('reads ALLOWED_ORIGINS as a list of origins', () => {
    const directory = dataDir();
    expect(loadConfig({ DATA_DIR: directory }).allowedOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: directory, ALLOWED_ORIGINS: 'https://Console.Example.com:443, http://10.0.0.5:8080' }).allowedOrigins).toEqual([
      'https://console.example.com',
      'http://10.0.0.5:8080',
    ]);
    for (const bad of ['console.example.com', 'https://console.example.com/path', 'ftp://files.example.com', 'https://a.example,']) {
      expect(problemsOf({ DATA_DIR: directory, ALLOWED_ORIGINS: bad })).toEqual([
        `ALLOWED_ORIGINS: must be a comma-separated list of origins like https://console.example.com,https://rpm.example.org:8443 (got "${bad}")`,
      ]);
    }
  });
});
