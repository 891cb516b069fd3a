import { describe, expect, it } from 'vitest';
import { DEVICE_IMPORT_HEADERS, deviceImportKind, parseDeviceRow } from './import-kind.js';

describe('device import rows', () => {
  it('has the template headers of spec §5 and an example row that parses', () => {
    expect(DEVICE_IMPORT_HEADERS).toEqual(['Account name', 'MAC', 'Device type', 'Serial']);
    expect(deviceImportKind.headers).toBe(DEVICE_IMPORT_HEADERS);
    for (const example of deviceImportKind.exampleRows) expect(parseDeviceRow(example, 'en').ok).toBe(true);
  });

  it('accepts a valid row, normalising the MAC and the device type', () => {
    expect(parseDeviceRow([' BNCS10001 ', 'aa-bb-cc-dd-ee-ff', 'gt5', 12345], 'en')).toEqual({
      ok: true,
      value: {
        accountName: 'BNCS10001',
        macAddress: 'AA:BB:CC:DD:EE:FF',
        model: 'GT5',
        serialNumber: '12345',
      },
    });
  });

  it('names every missing column', () => {
    expect(parseDeviceRow([null, '', null, '  '], 'en')).toEqual({
      ok: false,
      reasons: [
        'Account name: This field is required',
        'MAC: This field is required',
        'Device type: This field is required',
        'Serial: This field is required',
      ],
    });
  });

  it('refuses a bad MAC and an unsupported device type, in the user’s language', () => {
    expect(parseDeviceRow(['BNCS10001', 'AA:BB:CC', 'X9', 'SN1'], 'en')).toEqual({
      ok: false,
      reasons: ['MAC: Invalid MAC address format', 'Device type: Unsupported device type'],
    });
    const vietnamese = parseDeviceRow(['BNCS10001', 'not a mac', 'V19', 'SN1'], 'vi');
    expect(vietnamese).toEqual({ ok: false, reasons: ['MAC: Định dạng địa chỉ MAC không hợp lệ'] });
  });

  it('refuses over-long account names and serial numbers', () => {
    const parsed = parseDeviceRow(['a'.repeat(121), 'AA:BB:CC:DD:EE:FF', 'V19', 's'.repeat(65)], 'en');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reasons).toHaveLength(2);
  });
});
