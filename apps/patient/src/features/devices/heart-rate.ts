/**
 * The Heart Rate Measurement characteristic (0x2A37) of the Bluetooth Heart Rate service (0x180D),
 * as the Bluetooth GATT specification lays it out:
 * - byte 0, flags: bit 0 heart rate as UINT16 (else UINT8); bits 1-2 sensor contact (bit 2 says
 *   whether it is supported, bit 1 whether there is contact); bit 3 energy expended present;
 *   bit 4 RR intervals present;
 * - the heart rate (bpm), then energy expended (UINT16, kJ) when present, then RR intervals
 *   (UINT16 each, in 1/1024 s) up to the end. All little-endian.
 */
export interface HeartRateMeasurement {
  heartRate: number;
  /** null when the sensor does not report contact. */
  sensorContact: boolean | null;
  energyExpendedKj: number | null;
  /** RR intervals in milliseconds. */
  rrIntervalsMs: number[];
}

/** Parses one notification; null when it is too short to hold what its flags announce. */
export function parseHeartRateMeasurement(view: DataView): HeartRateMeasurement | null {
  if (view.byteLength < 2) return null;
  const flags = view.getUint8(0);
  const is16Bit = (flags & 0x01) !== 0;
  const contactSupported = (flags & 0x04) !== 0;
  const hasEnergy = (flags & 0x08) !== 0;
  const hasRr = (flags & 0x10) !== 0;
  let offset = 1;
  if (view.byteLength < offset + (is16Bit ? 2 : 1)) return null;
  const heartRate = is16Bit ? view.getUint16(offset, true) : view.getUint8(offset);
  offset += is16Bit ? 2 : 1;
  let energyExpendedKj: number | null = null;
  if (hasEnergy) {
    if (view.byteLength < offset + 2) return null;
    energyExpendedKj = view.getUint16(offset, true);
    offset += 2;
  }
  const rrIntervalsMs: number[] = [];
  if (hasRr) {
    for (; offset + 2 <= view.byteLength; offset += 2) rrIntervalsMs.push(Math.round((view.getUint16(offset, true) * 1000) / 1024));
  }
  return {
    heartRate,
    sensorContact: contactSupported ? (flags & 0x02) !== 0 : null,
    energyExpendedKj,
    rrIntervalsMs,
  };
}
