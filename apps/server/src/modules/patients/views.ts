import {
  ALERT_LEVELS,
  ALERT_TYPES,
  attentionOf,
  BLOOD_TYPES,
  GENDERS,
  PATIENT_STATUS_TRANSITIONS,
  PATIENT_STATUSES,
  PATIENT_FILE_TYPES,
  STATUS_REASON_CODES,
  type PatientDetail,
  type PatientFile,
  type PatientStatus,
  type PatientStatusHistoryEntry,
  type PatientSummary,
} from '@rpm/contracts';
import type { patientFiles, patientStatusChanges } from '../../db/schema.js';
import type { ListedPatient, PatientWithCenter } from './store.js';

export const fullNameOf = (person: { firstName: string; middleName: string; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter((part) => part.trim() !== '').join(' ');

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  values.find((candidate) => candidate === value) ?? null;
export const statusOf = (value: string): PatientStatus => oneOf(PATIENT_STATUSES, value) ?? 'NORMAL';

type PatientRecord = Omit<PatientSummary, keyof PatientTriage>;
type PatientTriage = Pick<
  PatientSummary,
  | 'attention'
  | 'noData'
  | 'lastReadingAt'
  | 'lastReadingAgeSeconds'
  | 'crossed'
  | 'openSosCaseId'
  | 'openTicketId'
  | 'missedDoses'
>;

/** A row of the list: the record and its triage columns; the age of the last reading is at `now`. */
export function toSummary(row: ListedPatient, now: Date): PatientSummary {
  const record = toRecord(row);
  const { patient, crossed } = row;
  const lastReadingAt = patient.lastReadingAt;
  const type = crossed === null ? null : oneOf(ALERT_TYPES, crossed.type);
  const level = crossed === null ? null : oneOf(ALERT_LEVELS, crossed.level);
  return {
    ...record,
    attention: attentionOf({ status: record.status, openSosCaseId: row.openSosCaseId, noData: row.noData }),
    noData: row.noData,
    lastReadingAt: lastReadingAt?.toISOString() ?? null,
    lastReadingAgeSeconds:
      lastReadingAt === null
        ? null
        : Math.max(0, Math.floor((now.getTime() - lastReadingAt.getTime()) / 1000)),
    crossed:
      crossed === null || type === null || level === null
        ? null
        : {
            alertId: crossed.id,
            type,
            level,
            readings: crossed.readings.map((reading) => ({
              measure: reading.measure,
              value: reading.value,
              measuredAt: new Date(reading.measuredAt).toISOString(),
            })),
            raisedAt: new Date(crossed.createdAt).toISOString(),
          },
    openSosCaseId: row.openSosCaseId,
    openTicketId: row.openTicketId,
    missedDoses: row.missedDoses,
  };
}

function toRecord({ patient, centerName, holder }: PatientWithCenter): PatientRecord {
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
    accountKind: patient.accountKind === 'SUB_USER' ? 'SUB_USER' : 'MAIN',
    holder: patient.accountKind === 'SUB_USER' ? (holder ?? { name: '', patientId: null }) : null,
  };
}

export function toDetail(row: PatientWithCenter): PatientDetail {
  const { patient } = row;
  const summary = toRecord(row);
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
    reasonCode: oneOf(STATUS_REASON_CODES, row.change.reasonCode),
    reasonParams: row.change.reasonParams,
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
