import type { CareRelation, CareTeamAssign, CareTeamEntry } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { fullNameOf } from '../staff/detail.js';
import { toDoctorSummary, type DoctorEnvironment } from './doctor-service.js';
import * as store from './store.js';

type Patient = NonNullable<Awaited<ReturnType<typeof store.findPatient>>>;

/** A patient the caller may see, locked when the care team is about to change; else patient.notFound. */
export async function reachablePatient(
  tx: TenantTransaction,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<Patient> {
  const patient = await store.findPatient(tx, patientId, options);
  if (patient === undefined) throw new AppError('patient.notFound');
  return patient;
}

/**
 * A doctor who may join a care team: a live, active doctor the caller may see (anyone else is
 * doctor.notFound), holding at least one license that has not expired when they hold any
 * (doctor.licenseExpired).
 */
export async function assignableDoctor(
  tx: TenantTransaction,
  doctorId: string,
  today: string,
): Promise<store.DoctorRow> {
  const doctor = await store.findDoctor(tx, doctorId, today);
  if (doctor?.user.status !== 'ACTIVE') throw new AppError('doctor.notFound');
  if (doctor.licenseState === 'EXPIRED') throw new AppError('doctor.licenseExpired');
  return doctor;
}

/**
 * Puts a doctor on a patient's care team. A FAMILY doctor takes the place of the current one when
 * `replace` is set (spec §4: accepting a new family doctor replaces the current one), otherwise
 * careTeam.limitReached (spec §9: 1 family doctor). The unique index patient_doctors_one_family
 * holds the limit against concurrent writers.
 */
export async function linkDoctor(
  tx: TenantTransaction,
  environment: DoctorEnvironment,
  input: {
    patientId: string;
    doctorId: string;
    relation: CareRelation;
    replace: boolean;
    via: string;
    requestId?: string;
  },
): Promise<void> {
  if ((await store.findLink(tx, input.patientId, input.doctorId)) !== undefined)
    throw new AppError('doctor.alreadyAssigned');
  const now = environment.clock.now();
  const { tenantId } = environment.auth;
  let replaced: string | null = null;
  if (input.relation === 'FAMILY') {
    const family = await store.findFamilyLink(tx, input.patientId);
    if (family !== undefined) {
      if (!input.replace) throw new AppError('careTeam.limitReached');
      await store.deleteLink(tx, input.patientId, family.doctorId);
      replaced = family.doctorId;
      await recordAudit(tx, tenantId, environment.audit, {
        action: 'CARE_TEAM_UNASSIGNED',
        subjectUserId: family.doctorId,
        targetType: 'patient',
        targetId: input.patientId,
        details: {
          doctorId: family.doctorId,
          relation: 'FAMILY',
          replacedBy: input.doctorId,
          via: input.via,
        },
        at: now,
      });
    }
  }
  await store.insertLink(tx, {
    tenantId,
    patientId: input.patientId,
    doctorId: input.doctorId,
    relation: input.relation,
    assignedAt: now,
    assignedBy: environment.auth.userId,
  });
  await recordAudit(tx, tenantId, environment.audit, {
    action: 'CARE_TEAM_ASSIGNED',
    subjectUserId: input.doctorId,
    targetType: 'patient',
    targetId: input.patientId,
    details: {
      doctorId: input.doctorId,
      relation: input.relation,
      replaced,
      via: input.via,
      requestId: input.requestId ?? null,
    },
    at: now,
  });
}

/**
 * GET /account/patients/:patientId/doctors: the family doctor first, then the specialists by name.
 * A PHI read, audited (CARE_TEAM_VIEWED); the answer of a change made in this request is covered
 * by the change's own audit row (`audited: false`).
 */
export function readCareTeam(
  environment: DoctorEnvironment,
  patientId: string,
  options: { audited: boolean } = { audited: true },
): Promise<CareTeamEntry[]> {
  const today = store.todayOf(environment.clock.now());
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    const links = await store.careTeamOf(tx, patientId);
    const doctors = new Map(
      (
        await store.doctorsByIds(
          tx,
          links.map((row) => row.link.doctorId),
          today,
        )
      ).map((row) => [row.user.id, row]),
    );
    const entries = links.flatMap(
      ({ link, assignedByFirst, assignedByMiddle, assignedByLast }): CareTeamEntry[] => {
        const row = doctors.get(link.doctorId);
        // A doctor the caller cannot see (another center) stays off the caller's view of the team.
        if (row === undefined) return [];
        const summary = toDoctorSummary(row);
        return [
          {
            doctor: {
              id: summary.id,
              fullName: summary.fullName,
              email: summary.email,
              phone: summary.phone,
              center: summary.center,
              specialties: summary.specialties,
              kind: summary.kind,
              licenseState: summary.licenseState,
            },
            relation: link.relation === 'FAMILY' ? 'FAMILY' : 'SPECIALIST',
            assignedAt: link.assignedAt.toISOString(),
            assignedBy:
              link.assignedBy !== null && assignedByFirst !== null
                ? {
                    id: link.assignedBy,
                    fullName: fullNameOf({
                      firstName: assignedByFirst,
                      middleName: assignedByMiddle ?? '',
                      lastName: assignedByLast ?? '',
                    }),
                  }
                : null,
          },
        ];
      },
    );
    if (options.audited) {
      await recordPatientReads(
        tx,
        environment.auth.tenantId,
        environment.audit,
        {
          action: 'CARE_TEAM_VIEWED',
          patientIds: [patientId],
          subjectUserId: patient.userId,
          targetId: patientId,
          details: { shown: entries.length },
        },
        environment.clock.now(),
      );
    }
    return entries.sort((left, right) =>
      left.relation === right.relation
        ? left.doctor.fullName.localeCompare(right.doctor.fullName)
        : left.relation === 'FAMILY'
          ? -1
          : 1,
    );
  });
}

/** POST /account/patients/:patientId/doctors (user.assign). */
export async function assignDoctor(
  environment: DoctorEnvironment,
  patientId: string,
  input: CareTeamAssign,
): Promise<CareTeamEntry[]> {
  const today = store.todayOf(environment.clock.now());
  await withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId, { lock: true });
    if (patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
    await assignableDoctor(tx, input.doctorId, today);
    await linkDoctor(tx, environment, {
      patientId,
      doctorId: input.doctorId,
      relation: input.relation,
      replace: input.replace,
      via: 'ASSIGNMENT',
    });
  });
  return readCareTeam(environment, patientId, { audited: false });
}

/** DELETE /account/patients/:patientId/doctors/:doctorId (user.assign); doctor.noRelationship when not on the team. */
export async function unassignDoctor(
  environment: DoctorEnvironment,
  patientId: string,
  doctorId: string,
): Promise<CareTeamEntry[]> {
  await withCaller(environment.database, environment.auth, async (tx) => {
    await reachablePatient(tx, patientId, { lock: true });
    const link = await store.findLink(tx, patientId, doctorId);
    if (link === undefined) throw new AppError('doctor.noRelationship');
    await store.deleteLink(tx, patientId, doctorId);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'CARE_TEAM_UNASSIGNED',
      subjectUserId: doctorId,
      targetType: 'patient',
      targetId: patientId,
      details: { doctorId, relation: link.relation, via: 'ASSIGNMENT' },
      at: environment.clock.now(),
    });
  });
  return readCareTeam(environment, patientId, { audited: false });
}
