import { describe, expect, it } from 'vitest';
import { parseHeartRateMeasurement } from './heart-rate';

const view = (...bytes: number[]) => new DataView(new Uint8Array(bytes).buffer);

describe('the Heart Rate Measurement characteristic (0x2A37)', () => {
  it('reads an 8-bit heart rate with no other fields', () => {
    expect(parseHeartRateMeasurement(view(0x00, 72))).toEqual({ heartRate: 72, sensorContact: null, energyExpendedKj: null, rrIntervalsMs: [] });
  });

  it('reads a 16-bit heart rate (little-endian) with contact detected', () => {
    expect(parseHeartRateMeasurement(view(0x07, 0x2c, 0x01))).toMatchObject({ heartRate: 300, sensorContact: true });
  });

  it('reports a supported sensor without contact', () => {
    expect(parseHeartRateMeasurement(view(0x04, 80))?.sensorContact).toBe(false);
  });

  it('reads energy expended and RR intervals in 1/1024 s', () => {
    // flags: energy + RR; HR 65; energy 0x0123 = 291 kJ; RR 1024 (1000 ms) and 512 (500 ms).
    expect(parseHeartRateMeasurement(view(0x18, 65, 0x23, 0x01, 0x00, 0x04, 0x00, 0x02))).toEqual({
      heartRate: 65,
      sensorContact: null,
      energyExpendedKj: 291,
      rrIntervalsMs: [1000, 500],
    });
  });

  it('ignores a dangling odd byte after the RR intervals', () => {
    expect(parseHeartRateMeasurement(view(0x10, 70, 0x00, 0x04, 0x01))?.rrIntervalsMs).toEqual([1000]);
  });

  it('refuses notifications too short for their flags', () => {
    expect(parseHeartRateMeasurement(view(0x00))).toBeNull();
    expect(parseHeartRateMeasurement(view(0x01, 0x48))).toBeNull();
    expect(parseHeartRateMeasurement(view(0x08, 70, 0x01))).toBeNull();
  });
});
