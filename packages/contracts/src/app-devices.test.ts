import { describe, expect, it } from 'vitest';
import { parseDeviceQr, watchSettingsSchema } from './app-devices.js';

describe('a watch QR code', () => {
  it.each([
    ['V19:SN10001', { model: 'V19', serialNumber: 'SN10001' }],
    [' gt5 | A-77 ', { model: 'GT5', serialNumber: 'A-77' }],
    ['{"model":"J2025E","serialNumber":"X1"}', { model: 'J2025E', serialNumber: 'X1' }],
    ['{"model":"GT2","serial":"X2"}', { model: 'GT2', serialNumber: 'X2' }],
    ['https://watch.example/pair?model=J2025B&serial=SN%2042', { model: 'J2025B', serialNumber: 'SN 42' }],
  ])('reads %s', (text, expected) => {
    expect(parseDeviceQr(text)).toEqual(expected);
  });

  it.each(['', 'V20:SN1', 'V19:', '{"model":"V19"}', '{broken', 'https://x.example/?model=V19', 'https://x.example/?model=V19&serial=%E0%A4%A'])(
    'refuses %j',
    (text) => {
      expect(parseDeviceQr(text)).toBeNull();
    },
  );
});

it('fills missing watch settings with their defaults', () => {
  expect(watchSettingsSchema.parse({})).toEqual({ nightSpo2Detection: true, fallDetection: true });
  expect(watchSettingsSchema.parse({ fallDetection: false })).toEqual({ nightSpo2Detection: true, fallDetection: false });
});
