import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'rpm-messaging-config-'));

function problemsOf(environment: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...environment });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('messaging settings', () => {
  it('work out of the box: local email and SMS, a 2-second poll', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      smtpUrl: undefined,
      mailFrom: 'Remote patient monitoring <no-reply@localhost>',
      smsProvider: 'local',
      outboxPollMilliseconds: 2000,
    });
  });

  it('accept an SMTP URL, a From address with or without a name, and a poll interval', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SMTP_URL: 'smtps://mailer:secret@mail.example.com:465',
      MAIL_FROM: 'no-reply@clinic.example',
      OUTBOX_POLL_MS: '500',
    });
    expect(config).toMatchObject({ smtpUrl: 'smtps://mailer:secret@mail.example.com:465', mailFrom: 'no-reply@clinic.example', outboxPollMilliseconds: 500 });
    expect(loadConfig({ DATA_DIR: dataDir(), MAIL_FROM: 'Clinic A <no-reply@clinic.example>' }).mailFrom).toBe('Clinic A <no-reply@clinic.example>');
  });

  it('name every bad value with what it must look like, never echoing the SMTP URL', () => {
    const problems = problemsOf({
      SMTP_URL: 'http://mailer:hunter2@mail.example.com',
      MAIL_FROM: 'nobody',
      SMS_PROVIDER: 'carrier-pigeon',
      OUTBOX_POLL_MS: '5',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SMTP_URL: must be a URL like smtp:\/\/user:password@host:587/),
      'MAIL_FROM: must be an address like no-reply@example.com or "Clinic <no-reply@example.com>" (got "nobody")',
      'SMS_PROVIDER: must be local (the only SMS provider built in so far) (got "carrier-pigeon")',
      'OUTBOX_POLL_MS: must be between 100 and 60000 milliseconds (got "5")',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
  });
});
