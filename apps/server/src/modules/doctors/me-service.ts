import {
  CARE_RELATIONS,
  type AppCareRequestCreate,
  type AppCareRequestListQuery,
  type AppCareTeamEntry,
  type AppDoctorDetail,
  type AppDoctorListQuery,
  type AppDoctorSummary,
  type CareRelation,
  type CareRequest,
} from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { withVitalsPatient, type VitalsPatient } from '../vitals/patient-access.js';
import { profileTextOf, toDoctorSummary, type DoctorEnvironment } from './doctor-service.js';
import { waitingPatientRequest } from './me-store.js';
import { createRequest, decideRequest, listRequests } from './request-service.js';
import * as store from './store.js';

/*
 * The patient app's family doctor and specialists (spec §2): the doctor search and detail, the
 * care team and the care requests of the record the app shows. The rules are the console's
 * (request-service.ts, care-team-service.ts); these calls only find the record from the session.
 */

const relationOf = (value: string): CareRelation =>
  CARE_RELATIONS.find((relation) => relation === value) ?? 'SPECIALIST';

/** Patient sessions only: a staff account has no record of its own (health.noPatientProfile). */
function requirePatientSession(environment: DoctorEnvironment): void {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
}

/** Runs `work` for the record the app shows (the session's own record or its chosen profile). */
function withAppPatient<T>(
  environment: DoctorEnvironment,
  write: boolean,
  work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>,
): Promise<T> {
  requirePatientSession(environment);
  return withVitalsPatient(environment, { patientId: undefined, permission: 'health.view', lock: false, write }, work);
}

function toAppDoctorSummary(row: store.DoctorRow): AppDoctorSummary {
  const summary = toDoctorSummary(row);
  return {
    id: summary.id,
    fullName: summary.fullName,
    specialties: summary.specialties,
    degreeCode: summary.degreeCode,
    kind: summary.kind,
    yearsOfExperience: summary.yearsOfExperience,
    ratingAverage: summary.ratingAverage,
    ratingCount: summary.ratingCount,
    centerName: summary.center?.name ?? null,
  };
}

/** A doctor a patient may choose: an active doctor of the tenant, else doctor.notFound. */
async function activeDoctor(tx: TenantTransaction, doctorId: string, today: string): Promise<store.DoctorRow> {
  const row = await store.findDoctor(tx, doctorId, today);
  if (row?.user.status !== 'ACTIVE') throw new AppError('doctor.notFound');
  return row;
}

/**
 * GET /health/me/doctors: the tenant's active doctors (a patient subject reads staff accounts and
 * doctor profiles by the database rule), searched by name only, by specialty and kind, by name.
 */
export async function searchDoctors(environment: DoctorEnvironment, query: AppDoctorListQuery) {
  requirePatientSession(environment);
  const today = store.todayOf(environment.clock.now());
  const { items, total } = await withCaller(environment.database, environment.auth, (tx) =>
    store.listDoctors(tx, {
      ...query,
      status: 'ACTIVE',
      isNameSearch: true,
      sortField: 'name',
      sortType: 'asc',
      today,
    }),
  );
  return { items: items.map(toAppDoctorSummary), page: query.page, size: query.size, total };
}

/**
 * GET /health/me/doctors/:id: the profile a patient chooses by (licenses flagged expired by the
 * server clock, no images), with the doctor's place on the record's care team and the waiting
 * request to them. Audited: it says who cares for the patient.
 */
export function readAppDoctor(environment: DoctorEnvironment, doctorId: string): Promise<AppDoctorDetail> {
  const today = store.todayOf(environment.clock.now());
  return withAppPatient(environment, false, async (tx, patient) => {
    const row = await activeDoctor(tx, doctorId, today);
    const licenses = await store.licensesOf(tx, doctorId);
    const link = await store.findLink(tx, patient.id, doctorId);
    const waiting = await waitingPatientRequest(tx, patient.id, doctorId);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'CARE_TEAM_VIEWED',
        patientIds: [patient.id],
        subjectUserId: patient.userId,
        targetId: patient.id,
        details: { doctorId, onCareTeam: link !== undefined },
      },
      environment.clock.now(),
    );
    return {
      ...toAppDoctorSummary(row),
      ...profileTextOf(row),
      licenses: licenses.map((license) => ({
        name: license.name,
        expiresOn: license.expiresOn,
        expired: license.expiresOn < today,
      })),
      licenseState: row.licenseState,
      careTeamRelation: link === undefined ? null : relationOf(link.relation),
      waitingRequest:
        waiting === undefined
          ? null
          : {
              id: waiting.id,
              relation: relationOf(waiting.relation),
              createdAt: waiting.createdAt.toISOString(),
              canCancel: waiting.requesterId === environment.auth.userId,
            },
    };
  });
}

/** GET /health/me/care-team: the family doctor first, then the specialists by name. Audited. */
export function readAppCareTeam(environment: DoctorEnvironment): Promise<AppCareTeamEntry[]> {
  const today = store.todayOf(environment.clock.now());
  return withAppPatient(environment, false, async (tx, patient) => {
    const links = await store.careTeamOf(tx, patient.id);
    const doctors = new Map(
      (
        await store.doctorsByIds(
          tx,
          links.map(({ link }) => link.doctorId),
          today,
        )
      ).map((row) => [row.user.id, row]),
    );
    const entries = links.flatMap(({ link }): AppCareTeamEntry[] => {
      const row = doctors.get(link.doctorId);
      if (row === undefined) return [];
      return [
        { doctor: toAppDoctorSummary(row), relation: relationOf(link.relation), assignedAt: link.assignedAt.toISOString() },
      ];
    });
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'CARE_TEAM_VIEWED',
        patientIds: [patient.id],
        subjectUserId: patient.userId,
        targetId: patient.id,
        details: { shown: entries.length },
      },
      environment.clock.now(),
    );
    return entries.sort((left, right) =>
      left.relation === right.relation
        ? left.doctor.fullName.localeCompare(right.doctor.fullName)
        : left.relation === 'FAMILY'
          ? -1
          : 1,
    );
  });
}

/**
 * POST /health/me/requests: the record's request to a doctor (a PATIENT_REQUEST), by the console's
 * rules: request.toSelf, request.duplicate while one waits, doctor.alreadyAssigned, doctor.notFound.
 */
export async function sendAppRequest(environment: DoctorEnvironment, input: AppCareRequestCreate): Promise<CareRequest> {
  const patientId = await withAppPatient(environment, true, (_tx, patient) => Promise.resolve(patient.id));
  return createRequest(environment, { kind: 'PATIENT_REQUEST', patientId, ...input });
}

/**
 * GET /health/me/requests: about the record the app shows, the caller's requests to doctors (sent)
 * or doctors' requests to it (received).
 */
export async function listAppRequests(environment: DoctorEnvironment, query: AppCareRequestListQuery) {
  const patientId = await withAppPatient(environment, false, (_tx, patient) => Promise.resolve(patient.id));
  return listRequests(environment, { ...query, patientId });
}

/** PUT /health/me/requests/:id/approve | reject | cancel: the console's state machine. */
export function decideAppRequest(
  environment: DoctorEnvironment,
  id: string,
  action: 'approve' | 'reject' | 'cancel',
  reason?: string,
): Promise<CareRequest> {
  requirePatientSession(environment);
  return decideRequest(environment, id, action, reason);
}
