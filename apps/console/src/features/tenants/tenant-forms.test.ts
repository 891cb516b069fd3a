import { describe, expect, it } from 'vitest';
import {
  emailTemplateInputSchema,
  messageGatewayUpdateSchema,
  TENANT_CONNECTION_KINDS,
  TENANT_LOGO_MAX_BYTES,
  TENANT_SETTING_KEYS,
  TENANT_SETTING_VALUE_SCHEMAS,
  tenantConnectionInputSchema,
  tenantCreateSchema,
} from '@rpm/contracts';
import { resources } from '@rpm/i18n';
import { ApiError } from '../../api/api-error';
import { canTestConnectionsAlone, connectionsInput, connectionsValues, isConnectionFailure } from './connections-model';
import { logoProblem } from './logo-file';
import { suggestTenantCode } from './tenant-code';
import { TENANT_CONTRACT_MESSAGES, tenantMessagesForIssues } from './tenant-form-errors';
import {
  BRANDING_KEYS,
  changedSettings,
  GENERAL_KEYS,
  SECURITY_KEYS,
  settingValues,
} from './tenant-settings-model';

function issuesOf(
  schema: { safeParse: (value: unknown) => { error?: { issues: unknown[] } } },
  value: unknown,
) {
  return (schema.safeParse(value).error?.issues ?? []) as Parameters<typeof tenantMessagesForIssues>[0];
}

describe('tenant form messages', () => {
  it('explains every tenant contract rule with its own message', () => {
    const seen = new Set<string>();
    const record = (schema: Parameters<typeof issuesOf>[0], value: unknown) => {
      for (const issue of issuesOf(schema, value)) seen.add(issue.message);
    };
    record(tenantCreateSchema, { name: 'A', code: 'Bad Code!', publicUrl: 'ftp://x' });
    record(TENANT_SETTING_VALUE_SCHEMAS.COLOR, 'teal');
    record(TENANT_SETTING_VALUE_SCHEMAS.FONT, 'Comic<Sans>');
    record(TENANT_SETTING_VALUE_SCHEMAS.COUNTRY, 'Area 51');
    record(TENANT_SETTING_VALUE_SCHEMAS.COUNTRY_CODE, 'vn');
    record(TENANT_SETTING_VALUE_SCHEMAS.DIAL_CODE, '84');
    record(TENANT_SETTING_VALUE_SCHEMAS.TAX_RATE, '1.234');
    record(TENANT_SETTING_VALUE_SCHEMAS.TAX_RATE, '101');
    record(TENANT_SETTING_VALUE_SCHEMAS.OCR_PRESCRIPTION_API_KEY, 'has space');
    record(TENANT_SETTING_VALUE_SCHEMAS.VITALS_COMPACT_AFTER_DAYS, '1.5');
    record(TENANT_SETTING_VALUE_SCHEMAS.VITALS_COMPACT_AFTER_DAYS, '400');
    record(TENANT_SETTING_VALUE_SCHEMAS.VITALS_RETENTION_DAYS, '30');
    record(tenantConnectionInputSchema, {
      kind: 'primary',
      host: 'bad host!',
      database: 'db name',
      user: 'u',
      password: 'p',
    });
    record(emailTemplateInputSchema, { subject: 'two\nlines', body: ' ' });
    record(emailTemplateInputSchema, { subject: 'Hi {{nobody}}', body: 'x' });
    record(messageGatewayUpdateSchema, { provider: 'twilio', sender: '0901', credentials: { accountSid: 'XY', authToken: 'has space' } });
    record(messageGatewayUpdateSchema, { provider: 'esms', sender: 'A brand name too long' });
    // A reworded contract message would no longer be found here and fall back to a vague one.
    for (const message of Object.keys(TENANT_CONTRACT_MESSAGES)) expect(seen, message).toContain(message);
  });

  it('gives the code field the code rule, not "invalid format"', () => {
    const messages = tenantMessagesForIssues(
      issuesOf(tenantCreateSchema, { name: 'Clinic', code: 'Bad Code!' }),
    );
    expect(messages.code).toEqual({ key: 'tenants:form.code', values: expect.any(Object) as unknown });
    expect(messages.name).toBeUndefined();
  });

  it('every mapped key exists in both languages of the tenants catalogue', () => {
    for (const language of ['en', 'vi'] as const) {
      const catalogue = resources[language].tenants as unknown as { form: Record<string, string> };
      for (const key of Object.values(TENANT_CONTRACT_MESSAGES).filter((item) => item.startsWith('tenants:')))
        expect(catalogue.form[key.replace('tenants:form.', '')], `${language} ${key}`).toBeTruthy();
    }
  });
});

describe('settings model', () => {
  const detail = {
    settings: [
      { key: 'COLOR' as const, value: '#123456' },
      { key: 'OCR_PRESCRIPTION_API_KEY' as const, value: '****abcd' },
    ],
  };

  it('splits every setting key between the tabs exactly once', () => {
    const all = [...BRANDING_KEYS, ...SECURITY_KEYS, ...GENERAL_KEYS];
    expect([...all].sort()).toEqual([...TENANT_SETTING_KEYS].sort());
  });

  it('sends only what changed and never a masked secret', () => {
    const initial = settingValues(detail);
    expect(changedSettings(GENERAL_KEYS, initial, { ...initial })).toEqual({});
    expect(changedSettings(GENERAL_KEYS, initial, { ...initial, DIAL_CODE: '+1' })).toEqual({
      DIAL_CODE: '+1',
    });
    expect(
      changedSettings(GENERAL_KEYS, initial, initial, {
        OCR_PRESCRIPTION_API_KEY: { mode: 'clear' },
        OCR_HEALTH_DEVICE_API_KEY: { mode: 'replace', value: ' new-key ' },
        AI_CLOUD_TENANT_ID: { mode: 'keep' },
      }),
    ).toEqual({ OCR_PRESCRIPTION_API_KEY: null, OCR_HEALTH_DEVICE_API_KEY: 'new-key' });
    // Branding saves leave the other tabs' keys alone.
    expect(
      changedSettings(BRANDING_KEYS, initial, { ...initial, COLOR: '#abcdef', DIAL_CODE: '+1' }),
    ).toEqual({
      COLOR: '#abcdef',
    });
  });
});

describe('connections model', () => {
  const stored = {
    connectionType: 'DEDICATED' as const,
    connections: [
      {
        kind: 'replica' as const,
        host: 'db2',
        port: 6543,
        database: 'r',
        user: 'u',
        sslMode: 'require' as const,
        hasPassword: true,
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ],
  };

  it('starts from the stored connections with empty passwords and sends them in a fixed order', () => {
    const values = connectionsValues(stored);
    expect(values.connections.replica).toMatchObject({ host: 'db2', port: 6543, password: '' });
    expect(values.connections.primary.host).toBe('');
    const input = connectionsInput(values);
    expect(input.connections.map((connection) => connection.kind)).toEqual([...TENANT_CONNECTION_KINDS]);
    expect(connectionsInput({ ...values, connectionType: 'SHARED' })).toEqual({
      connectionType: 'SHARED',
      connections: [],
    });
  });

  it('treats a failed test or save as one failure of the whole set, and keeps the test alone to ROOT and SUPER_ADMIN', () => {
    const error = new ApiError({
      kind: 'validation',
      status: 400,
      request: { method: 'POST', path: '/x' },
      code: 'tenant.connectionFailed',
      serverMessage: 'Could not contact the supplied server',
      fieldErrors: [],
    });
    expect(isConnectionFailure(error)).toBe(true);
    expect(isConnectionFailure(new Error('other'))).toBe(false);
    expect(['ROOT', 'SUPER_ADMIN', 'SYSTEM_ADMIN', 'ADMIN'].map((role) => canTestConnectionsAlone(role as 'ROOT'))).toEqual([true, true, false, false]);
  });
});

describe('logo checks', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);

  it('recognises PNG and JPEG by their first bytes, whatever the name says', async () => {
    expect(await logoProblem(new Blob([png]), 'png')).toBeNull();
    expect(await logoProblem(new Blob([jpeg], { type: 'image/png' }), 'png')).toBe('notPng');
    expect(await logoProblem(new Blob([jpeg]), 'pngOrJpeg')).toBeNull();
    expect(await logoProblem(new Blob(['GIF89a']), 'pngOrJpeg')).toBe('notPngOrJpeg');
  });

  it('refuses empty files and files over 1 MB before reading them', async () => {
    expect(await logoProblem(new Blob([]), 'png')).toBe('empty');
    expect(await logoProblem(new Blob([png, new Uint8Array(TENANT_LOGO_MAX_BYTES)]), 'png')).toBe('tooLarge');
  });
});

describe('suggestTenantCode', () => {
  it('turns a name into a login code the contract accepts', () => {
    expect(suggestTenantCode('Bệnh viện Đà Nẵng')).toBe('benh-vien-da-nang');
    expect(suggestTenantCode('  ACME Health, Inc.  ')).toBe('acme-health-inc');
    expect(tenantCreateSchema.shape.code.safeParse(suggestTenantCode('Phòng khám Số 1')).success).toBe(true);
  });
});

describe('tenants catalogue', () => {
  it('labels every setting key and is really translated', () => {
    const en = resources.en.tenants.settings as Record<string, string>;
    const vi = resources.vi.tenants.settings as Record<string, string>;
    for (const key of TENANT_SETTING_KEYS) {
      expect(en[key], key).toBeTruthy();
      expect(vi[key], key).not.toBe(en[key]);
    }
    expect(resources.vi.tenants.trial.submit).toBe('Gửi yêu cầu');
  });
});
