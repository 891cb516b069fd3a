import type { PatientCreateInput, PatientDetail } from '@rpm/contracts';
import { displayDateForSchema, toDisplayDate } from '../../lib/format';

/** The form's values as typed (text, or null for an unchosen select). */
export interface PatientValues {
  patientCode: string;
  firstName: string;
  middleName: string;
  lastName: string;
  birthday: string;
  gender: string | null;
  phone: string;
  email: string;
  heightCm: string;
  weightKg: string;
  bloodType: string | null;
  addressLine: string;
  ward: string;
  district: string;
  province: string;
  country: string;
  medicalNotes: string;
  healthCenterId: string | null;
  contractId: string;
  packageCode: string;
  packageExpiresAt: string;
}

export const EMPTY_PATIENT: PatientValues = {
  patientCode: '',
  firstName: '',
  middleName: '',
  lastName: '',
  birthday: '',
  gender: null,
  phone: '',
  email: '',
  heightCm: '',
  weightKg: '',
  bloodType: null,
  addressLine: '',
  ward: '',
  district: '',
  province: '',
  country: 'Vietnam',
  medicalNotes: '',
  healthCenterId: null,
  contractId: '',
  packageCode: '',
  packageExpiresAt: '',
};

export function patientValuesOf(patient: PatientDetail): PatientValues {
  return {
    patientCode: patient.patientCode,
    firstName: patient.firstName,
    middleName: patient.middleName,
    lastName: patient.lastName,
    birthday: toDisplayDate(patient.birthday),
    gender: patient.gender,
    phone: patient.phone ?? '',
    email: patient.email ?? '',
    heightCm: patient.heightCm === null ? '' : String(patient.heightCm),
    weightKg: patient.weightKg === null ? '' : String(patient.weightKg),
    bloodType: patient.bloodType,
    addressLine: patient.address.line,
    ward: patient.address.ward,
    district: patient.address.district,
    province: patient.address.province,
    country: patient.address.country,
    medicalNotes: patient.medicalNotes,
    healthCenterId: patient.healthCenter?.id ?? null,
    contractId: patient.contractId ?? '',
    packageCode: patient.packageCode ?? '',
    packageExpiresAt: toDisplayDate(patient.packageExpiresAt),
  };
}

const optionalText = (value: string): string | null => (value.trim() === '' ? null : value.trim());
/** A typed number as a number; text that is not one stays text, so the schema says "invalid". */
const optionalNumber = (value: string): number | string | null => {
  const trimmed = value.trim().replace(',', '.');
  if (trimmed === '') return null;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : trimmed;
};

/** The payload before the contract's schema has checked it (typed text may still be wrong). */
export type PatientPayload = Omit<
  PatientCreateInput,
  'birthday' | 'gender' | 'heightCm' | 'weightKg' | 'bloodType'
> & {
  birthday: string | undefined;
  gender: string | undefined;
  heightCm: number | string | null;
  weightKg: number | string | null;
  bloodType: string | null;
};

/** What the contract schema checks and the API receives: empty fields become null. */
export function patientPayload(values: PatientValues): PatientPayload {
  const birthday = displayDateForSchema(values.birthday);
  return {
    patientCode: optionalText(values.patientCode),
    firstName: values.firstName,
    middleName: values.middleName,
    lastName: values.lastName,
    // Left undefined when empty: the schema then says "required".
    birthday,
    gender: values.gender ?? undefined,
    phone: optionalText(values.phone),
    email: optionalText(values.email),
    heightCm: optionalNumber(values.heightCm),
    weightKg: optionalNumber(values.weightKg),
    bloodType: values.bloodType,
    address: {
      line: values.addressLine,
      ward: values.ward,
      district: values.district,
      province: values.province,
      country: values.country,
    },
    medicalNotes: values.medicalNotes,
    healthCenterId: values.healthCenterId,
    contractId: optionalText(values.contractId),
    packageCode: optionalText(values.packageCode),
    packageExpiresAt:
      values.packageExpiresAt.trim() === '' ? null : (displayDateForSchema(values.packageExpiresAt) ?? null),
  };
}
