import {
  ACCOUNT_STATUSES,
  DOCTOR_KINDS,
  LIMITS,
  SPECIALTY_CODES,
  isSpecialtyCode,
  type DoctorListQuery,
  type DoctorProfile,
  type DoctorProfileUpdate,
  type DoctorSummary,
  type SpecialtyCode,
} from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { fullNameOf } from '../staff/detail.js';
import * as store from './store.js';

export interface DoctorEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

const knownSpecialties = (codes: readonly string[]): SpecialtyCode[] => codes.filter(isSpecialtyCode);
const kindOf = (kind: string | undefined) =>
  DOCTOR_KINDS.find((candidate) => candidate === kind) ?? 'SPECIALIST';

export function toDoctorSummary({ user, profile, centerName, licenseState }: store.DoctorRow): DoctorSummary {
  return {
    id: user.id,
    fullName: fullNameOf(user),
    email: user.email,
    phone: user.phone,
    status: ACCOUNT_STATUSES.find((status) => status === user.status) ?? 'ACTIVE',
    center:
      user.healthCenterId !== null && centerName !== null
        ? { id: user.healthCenterId, name: centerName }
        : null,
    hasProfile: profile !== null,
    specialties: knownSpecialties(profile?.specialties ?? []),
    degreeCode: profile?.degreeCode ?? null,
    kind: kindOf(profile?.kind),
    yearsOfExperience: profile?.yearsOfExperience ?? null,
    ratingAverage: profile?.ratingAverage ?? 0,
    ratingCount: profile?.ratingCount ?? 0,
    licenseState,
    createdAt: user.createdAt.toISOString(),
  };
}

/** GET /account/doctors: the doctors of the caller's level (center visibility by the database). */
export async function listDoctors(environment: DoctorEnvironment, query: DoctorListQuery) {
  const today = store.todayOf(environment.clock.now());
  const { items, total } = await withCaller(environment.database, environment.auth, (tx) =>
    store.listDoctors(tx, { ...query, today }),
  );
  return { items: items.map(toDoctorSummary), page: query.page, size: query.size, total };
}

/** A doctor's education, fee, office and introduction as the profile answers show them (blank without a profile). */
export function profileTextOf({ profile }: store.DoctorRow) {
  return {
    placeOfEducation: profile?.placeOfEducation ?? '',
    examinationCost: profile?.examinationCost ?? null,
    officeAddress: profile?.officeAddress ?? '',
    officeEmail: profile?.officeEmail ?? '',
    officePhone: profile?.officePhone ?? '',
    introduction: profile?.introduction ?? '',
  };
}

async function profileOf(tx: TenantTransaction, row: store.DoctorRow, today: string): Promise<DoctorProfile> {
  // One after the other: a transaction is one connection.
  const licenses = await store.licensesOf(tx, row.user.id);
  const patientsCount = await store.countPatientsOf(tx, row.user.id);
  const assistants = await store.assistantsOf(tx, row.user.id);
  return {
    ...toDoctorSummary(row),
    ...profileTextOf(row),
    licenses: licenses.map((license) => ({
      id: license.id,
      name: license.name,
      expiresOn: license.expiresOn,
      expired: license.expiresOn < today,
      hasImage: license.imageFile !== null,
      createdAt: license.createdAt.toISOString(),
    })),
    patientsCount,
    assistants: assistants.map((assistant) => ({ id: assistant.id, fullName: fullNameOf(assistant) })),
    updatedAt: row.profile?.updatedAt.toISOString() ?? null,
  };
}

/** Runs `work` on a doctor the caller may see; anyone else (other tenant, other center, not a doctor) is doctor.notFound. */
export async function withDoctor<T>(
  environment: DoctorEnvironment,
  doctorId: string,
  options: { lock?: boolean },
  work: (tx: TenantTransaction, row: store.DoctorRow, today: string) => Promise<T>,
): Promise<T> {
  const today = store.todayOf(environment.clock.now());
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findDoctor(tx, doctorId, today, options);
    if (row === undefined) throw new AppError('doctor.notFound');
    return work(tx, row, today);
  });
}

/** GET /account/doctors/:id: profile, licenses flagged expired by the server clock, patients count, assistants. */
export function readDoctor(environment: DoctorEnvironment, doctorId: string): Promise<DoctorProfile> {
  return withDoctor(environment, doctorId, {}, (tx, row, today) => profileOf(tx, row, today));
}

/** Specialties: known codes (doctor.unknownSpecialty), at most 5 (doctor.tooManySpecialties), each once. */
export function checkSpecialties(codes: readonly string[]): SpecialtyCode[] {
  const unique = [...new Set(codes)];
  const unknown = unique.findIndex((code) => !isSpecialtyCode(code));
  if (unknown >= 0) {
    throw new AppError('doctor.unknownSpecialty', {
      fieldErrors: [
        {
          field: `body.specialties.${String(codes.indexOf(unique[unknown] ?? ''))}`,
          code: 'invalid_value',
          message: `one of the ${String(SPECIALTY_CODES.length)} specialty codes`,
        },
      ],
    });
  }
  if (unique.length > LIMITS.maxSpecialtiesPerDoctor) {
    throw new AppError('doctor.tooManySpecialties', {
      fieldErrors: [
        {
          field: 'body.specialties',
          code: 'too_big',
          message: `at most ${String(LIMITS.maxSpecialtiesPerDoctor)} specialties`,
        },
      ],
    });
  }
  return knownSpecialties(unique);
}

async function saveDoctorProfile(
  environment: DoctorEnvironment,
  doctorId: string,
  input: DoctorProfileUpdate,
): Promise<DoctorProfile> {
  const specialties = checkSpecialties(input.specialties);
  return withDoctor(environment, doctorId, { lock: true }, async (tx, row, today) => {
    const now = environment.clock.now();
    const { specialties: _given, ...fields } = input;
    await store.saveProfile(tx, environment.auth.tenantId, doctorId, { ...fields, specialties }, now);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'DOCTOR_PROFILE_UPDATED',
      subjectUserId: doctorId,
      targetType: 'doctor_profile',
      targetId: doctorId,
      details: {
        specialties,
        degreeCode: input.degreeCode,
        kind: input.kind,
        bySelf: environment.auth.userId === doctorId,
      },
      at: now,
    });
    const updated = await store.findDoctor(tx, doctorId, today);
    return profileOf(tx, updated ?? row, today);
  });
}

/** PUT /account/doctors/:id/profile (admins). */
export function updateDoctorProfile(
  environment: DoctorEnvironment,
  doctorId: string,
  input: DoctorProfileUpdate,
): Promise<DoctorProfile> {
  return saveDoctorProfile(environment, doctorId, input);
}

/** POST /account/doctor/v2/register/qualification: the calling doctor's own qualification. */
export function saveOwnQualification(
  environment: DoctorEnvironment,
  input: DoctorProfileUpdate,
): Promise<DoctorProfile> {
  return saveDoctorProfile(environment, environment.auth.userId, input);
}

/** GET /account/doctor/me/qualification. */
export function readOwnQualification(environment: DoctorEnvironment): Promise<DoctorProfile> {
  return readDoctor(environment, environment.auth.userId);
}
