import webPush from 'web-push';
import path from 'node:path';
import type { Config } from '../src/config.js';

/** Fixed key for tests: the app role's password is derived from it. */
export const TEST_SECRETS_KEY_HEX = '5d'.repeat(32);

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    environment: 'test',
    host: '127.0.0.1',
    port: 0,
    databaseUrl: undefined,
    databaseAppUrl: undefined,
    dataDir: path.resolve('.tmp/test-data'),
    secretsKey: Buffer.from(TEST_SECRETS_KEY_HEX, 'hex'),
    embeddedPostgresPort: 0,
    logLevel: 'silent',
    seedDemo: false,
    simulator: false,
    simulatorOperator: false,
    consoleDir: path.resolve('.tmp/no-console'),
    cookieSecure: false,
    allowedOrigins: [],
    sessionHours: 12,
    smtpUrl: undefined,
    mailFrom: 'RPM Test <no-reply@test.example>',
    smsProvider: 'local',
    outboxPollMilliseconds: 2000,
    jobsEnabled: false,
    serverProcesses: 1,
    replicaMaxLagMilliseconds: 5000,
    trustProxy: [],
    ice: { stunUrls: [], turnUrls: [], turnSecret: undefined },
    webPush: { ...TEST_VAPID_KEYS, subject: 'mailto:push@test.example' },
    ...overrides,
  };
}

/** One VAPID key pair for the test process. */
const TEST_VAPID_KEYS = webPush.generateVAPIDKeys();
