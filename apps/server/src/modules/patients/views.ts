import {
  BLOOD_TYPES,
  GENDERS,
  PATIENT_STATUS_TRANSITIONS,
  PATIENT_STATUSES,
  PATIENT_FILE_TYPES,
  type PatientDetail,
  type PatientFile,
  type PatientStatus,
  type PatientStatusHistoryEntry,
  type PatientSummary,
} from '@rpm/contracts';
import type { patientFiles, patientStatusChanges } from '../../db/schema.js';
import type { PatientWithCenter } from './store.js';

export const fullNameOf = (person: { firstName: string; middleName: string; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter((part) => part.trim() !== '').join(' ');

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  values.find((candidate) => candidate === value) ?? null;
export const statusOf = (value: string): PatientStatus => oneOf(PATIENT_STATUSES, value) ?? 'NORMAL';

export function toSummary({ patient, centerName }: PatientWithCenter): PatientSummary {
  return {
    id: patient.id,
    patientCode: patient.patientCode,
    firstName: patient.firstName,
    lastName: patient.lastName,
    fullName: fullNameOf(patient),
    phone: patient.phone,
    email: patient.email,
    status: statusOf(patient.status),
    birthday: patient.birthday,
    gender: oneOf(GENDERS, patient.gender),
    healthCenter:
      patient.healthCenterId !== null && centerName !== null
        ? { id: patient.healthCenterId, name: centerName }
        : null,
    packageCode: patient.packageCode,
    createdAt: patient.createdAt.toISOString(),
    accountState: patient.accountState === 'DISABLED' ? 'DISABLED' : 'ACTIVE',
  };
}

export function toDetail(row: PatientWithCenter): PatientDetail {
  const { patient } = row;
  const summary = toSummary(row);
  return {
    ...summary,
    middleName: patient.middleName,
    heightCm: patient.heightCm,
    weightKg: patient.weightKg,
    bloodType: oneOf(BLOOD_TYPES, patient.bloodType),
    address: {
      line: patient.addressLine,
      ward: patient.addressWard,
      district: patient.addressDistrict,
      province: patient.addressProvince,
      country: patient.addressCountry,
    },
    medicalNotes: patient.medicalNotes,
    contractId: patient.contractId,
    packageExpiresAt: patient.packageExpiresAt,
    hasAvatar: patient.avatarFile !== null,
    userId: patient.userId,
    updatedAt: patient.updatedAt.toISOString(),
    allowedStatuses: summary.accountState === 'ACTIVE' ? [...PATIENT_STATUS_TRANSITIONS[summary.status]] : [],
  };
}

interface PersonNames {
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
}

const personOf = (id: string | null, names: PersonNames) =>
  id === null
    ? null
    : {
        id,
        fullName:
          names.firstName === null
            ? ''
            : fullNameOf({
                firstName: names.firstName,
                middleName: names.middleName ?? '',
                lastName: names.lastName ?? '',
              }),
      };

export function toHistoryEntry(
  row: { change: typeof patientStatusChanges.$inferSelect } & PersonNames,
): PatientStatusHistoryEntry {
  return {
    id: row.change.id,
    fromStatus: statusOf(row.change.fromStatus),
    toStatus: statusOf(row.change.toStatus),
    reason: row.change.reason,
    changedBy: personOf(row.change.changedBy, row),
    changedAt: row.change.changedAt.toISOString(),
  };
}

export function toFile(row: { file: typeof patientFiles.$inferSelect } & PersonNames): PatientFile {
  return {
    id: row.file.id,
    name: row.file.name,
    contentType: oneOf(PATIENT_FILE_TYPES, row.file.contentType) ?? 'application/pdf',
    size: row.file.sizeBytes,
    uploadedBy: personOf(row.file.uploadedBy, row),
    uploadedAt: row.file.uploadedAt.toISOString(),
  };
}
