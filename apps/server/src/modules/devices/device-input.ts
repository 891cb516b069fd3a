import { isDeviceModel, isValidImei, normalizeMac, type DeviceModel, type ErrorCode } from '@rpm/contracts';
import { AppError } from '../../http/app-error.js';

/** A device's identity as stored: a supported model, MAC upper case with colons, IMEI checked. */
export interface DeviceIdentity {
  model: DeviceModel;
  serialNumber: string;
  macAddress: string | null;
  imei: string | null;
}

export interface DeviceProblem {
  field: 'model' | 'serialNumber' | 'macAddress' | 'imei';
  code: ErrorCode;
  /** A catalogue key of the errors namespace, rendered in the caller's language. */
  message: string;
}

export type CheckedIdentity = { ok: true; value: DeviceIdentity } | { ok: false; problems: DeviceProblem[] };

const blankToNull = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

/**
 * Checks what a person typed (the create and edit forms, an import row) against spec §5: a
 * supported model, a serial number, a well-formed MAC and/or a valid IMEI (at least one of them).
 * Every problem is reported, each with its catalogue code.
 */
export function checkDeviceIdentity(input: {
  model: string;
  serialNumber: string;
  macAddress?: string | null | undefined;
  imei?: string | null | undefined;
}): CheckedIdentity {
  const problems: DeviceProblem[] = [];
  const model = input.model.trim().toUpperCase();
  if (!isDeviceModel(model))
    problems.push({ field: 'model', code: 'device.unsupportedType', message: 'device.unsupportedType' });
  const serialNumber = input.serialNumber.trim();
  if (serialNumber === '')
    problems.push({ field: 'serialNumber', code: 'common.invalidParameter', message: 'validation.required' });
  const rawMac = blankToNull(input.macAddress);
  const macAddress = rawMac === null ? null : normalizeMac(rawMac);
  if (rawMac !== null && macAddress === null)
    problems.push({ field: 'macAddress', code: 'device.invalidMac', message: 'device.invalidMac' });
  const imei = blankToNull(input.imei);
  if (imei !== null && !isValidImei(imei))
    problems.push({ field: 'imei', code: 'device.invalidImei', message: 'device.invalidImei' });
  if (rawMac === null && imei === null)
    problems.push({ field: 'macAddress', code: 'common.invalidParameter', message: 'validation.required' });
  if (problems.length > 0 || !isDeviceModel(model)) return { ok: false, problems };
  return { ok: true, value: { model, serialNumber, macAddress, imei } };
}

/** The identity, or the AppError of its first problem with every problem as a field error. */
export function requireDeviceIdentity(input: Parameters<typeof checkDeviceIdentity>[0]): DeviceIdentity {
  const checked = checkDeviceIdentity(input);
  if (checked.ok) return checked.value;
  const [first] = checked.problems;
  throw new AppError(first?.code ?? 'common.invalidParameter', {
    fieldErrors: checked.problems.map((problem) => ({
      field: `body.${problem.field}`,
      code: problem.code,
      message: problem.message,
    })),
  });
}

/** Unique violations of devices (MAC, IMEI, serial number within a model) mean device.exists. */
export function isDeviceConflict(error: unknown): boolean {
  let current: unknown = error;
  while (current instanceof Error) {
    if (
      'code' in current &&
      current.code === '23505' &&
      'constraint' in current &&
      typeof current.constraint === 'string'
    ) {
      return ['devices_mac_key', 'devices_imei_key', 'devices_serial_key'].includes(current.constraint);
    }
    current = current.cause;
  }
  return false;
}
