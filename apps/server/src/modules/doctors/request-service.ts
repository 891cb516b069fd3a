import { notify } from '../notifications/notify.js';
import {
  CARE_REQUEST_KINDS,
  CARE_REQUEST_STATUSES,
  CARE_REQUEST_TRANSITIONS,
  canTransition,
  type CareRequest,
  type CareRequestAction,
  type CareRequestCreate,
  type CareRequestListQuery,
  type CareRequestStatus,
} from '@rpm/contracts';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { fullNameOf } from '../staff/detail.js';
import { assignableDoctor, linkDoctor, reachablePatient } from './care-team-service.js';
import type { DoctorEnvironment } from './doctor-service.js';
import * as store from './store.js';
import * as requests from './request-store.js';

const AUDIT_OF_ACTION = {
  approve: 'CARE_REQUEST_APPROVED',
  reject: 'CARE_REQUEST_REJECTED',
  cancel: 'CARE_REQUEST_CANCELED',
} as const;

const nameOrEmpty = (person: { firstName: string; middleName: string; lastName: string } | null) =>
  person === null ? '' : fullNameOf(person);

function toCareRequest(row: requests.RequestRow): CareRequest {
  const { request } = row;
  return {
    id: request.id,
    kind: CARE_REQUEST_KINDS.find((kind) => kind === request.kind) ?? 'PATIENT_REQUEST',
    status: CARE_REQUEST_STATUSES.find((status) => status === request.status) ?? 'WAITING',
    relation: request.relation === 'FAMILY' ? 'FAMILY' : 'SPECIALIST',
    message: request.message,
    rejectReason: request.rejectReason,
    patient: { id: row.patient.id, patientCode: row.patient.patientCode, fullName: fullNameOf(row.patient) },
    doctor: { id: request.doctorId, fullName: nameOrEmpty(row.doctor) },
    requester: { id: request.requesterId, fullName: nameOrEmpty(row.requester) },
    createdAt: request.createdAt.toISOString(),
    decidedAt: request.decidedAt?.toISOString() ?? null,
    decidedBy:
      request.decidedBy === null ? null : { id: request.decidedBy, fullName: nameOrEmpty(row.decider) },
  };
}

function receiverOf(environment: DoctorEnvironment): requests.ReceivedBy {
  const { auth } = environment;
  return { userId: auth.userId, role: auth.role, answersForPatients: auth.permissions.has('user.assign') };
}

function isDuplicateWaiting(error: unknown): boolean {
  let current: unknown = error;
  while (current instanceof Error) {
    if (
      current instanceof pg.DatabaseError &&
      current.code === '23505' &&
      current.constraint === 'care_requests_one_waiting'
    )
      return true;
    current = current.cause;
  }
  return false;
}

/** Who files the request and for whom: the parties of a new request, or the answer refusing it. */
async function partiesOf(
  tx: TenantTransaction,
  environment: DoctorEnvironment,
  input: CareRequestCreate,
  today: string,
) {
  const { auth } = environment;
  if (input.kind === 'DOCTOR_REQUEST') {
    // A doctor asks a patient to take them on; nobody files it for a doctor.
    if (auth.role !== 'DOCTOR' || (input.doctorId !== undefined && input.doctorId !== auth.userId))
      throw new AppError('auth.permissionDenied');
    const patient = await reachablePatient(tx, input.patientId, { lock: true });
    if (patient.userId === auth.userId) throw new AppError('request.toSelf');
    if ((await store.findDoctor(tx, auth.userId, today))?.user.status !== 'ACTIVE')
      throw new AppError('doctor.notFound');
    return { patient, doctorId: auth.userId, recipientId: patient.userId };
  }
  const isPatient = auth.role === 'PATIENT';
  if (!isPatient && !auth.permissions.has('user.assign')) throw new AppError('auth.permissionDenied');
  if (input.doctorId === undefined) {
    throw new AppError('common.invalidParameter', {
      fieldErrors: [
        { field: 'body.doctorId', code: 'invalid_type', message: 'the doctor asked is required' },
      ],
    });
  }
  if (input.doctorId === auth.userId) throw new AppError('request.toSelf');
  const patient = await reachablePatient(tx, input.patientId, { lock: true });
  // A patient files for their own record and the sub-users their account holds only.
  if (isPatient && patient.userId !== auth.userId && patient.holderUserId !== auth.userId)
    throw new AppError('patient.notFound');
  if ((await store.findDoctor(tx, input.doctorId, today))?.user.status !== 'ACTIVE')
    throw new AppError('doctor.notFound');
  return { patient, doctorId: input.doctorId, recipientId: input.doctorId };
}

/**
 * POST /account/requests: a doctor's request to a patient (DOCTOR_REQUEST), or a patient's request
 * to a doctor (PATIENT_REQUEST) filed by the patient or by staff who may assign doctors. A second
 * waiting request between the same patient and doctor in the same direction is request.duplicate
 * until the first is decided or canceled (unique index care_requests_one_waiting).
 */
export async function createRequest(
  environment: DoctorEnvironment,
  input: CareRequestCreate,
): Promise<CareRequest> {
  const today = store.todayOf(environment.clock.now());
  const id = uuidv7();
  try {
    return await withCaller(environment.database, environment.auth, async (tx) => {
      const { patient, doctorId, recipientId } = await partiesOf(tx, environment, input, today);
      if (patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
      if ((await store.findLink(tx, patient.id, doctorId)) !== undefined)
        throw new AppError('doctor.alreadyAssigned');
      const now = environment.clock.now();
      const { tenantId, userId } = environment.auth;
      await requests.insertRequest(tx, {
        tenantId,
        id,
        kind: input.kind,
        requesterId: userId,
        recipientId,
        patientId: patient.id,
        doctorId,
        relation: input.relation,
        message: input.message,
        createdAt: now,
      });
      await recordAudit(tx, tenantId, environment.audit, {
        action: 'CARE_REQUEST_CREATED',
        subjectUserId: doctorId,
        targetType: 'care_request',
        targetId: id,
        details: { kind: input.kind, patientId: patient.id, doctorId, relation: input.relation },
        at: now,
      });
      // The recipient hears of it: a doctor in the console, a patient (or a sub-user's holder) in the app.
      await notify(tx, tenantId, {
        recipients: [recipientId],
        kind: 'request.received',
        params: { name: environment.auth.fullName, requestId: id },
        link: input.kind === 'DOCTOR_REQUEST' ? '/doctors/requests' : '/requests',
        patientId: patient.id,
        senderId: userId,
        at: now,
      });
      const row = await requests.findRequest(tx, id);
      if (row === undefined) throw new Error('request not readable after insert');
      return toCareRequest(row);
    });
  } catch (error) {
    if (isDuplicateWaiting(error)) throw new AppError('request.duplicate', { cause: error });
    throw error;
  }
}

/**
 * GET /account/requests: the caller's sent or received requests, newest first (about one patient
 * when `patientId` is given). Each request names its patient, so the page is a PHI read (audited).
 */
export async function listRequests(
  environment: DoctorEnvironment,
  query: CareRequestListQuery & { patientId?: string },
) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { items, total } = await requests.listRequests(tx, receiverOf(environment), query);
    const page = items.map(toCareRequest);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'CARE_REQUESTS_LISTED',
        // About one patient: the read concerns that patient even when nothing is listed.
        patientIds: query.patientId === undefined ? page.map((request) => request.patient.id) : [query.patientId],
        details: { ...query, shown: page.length, total },
      },
      environment.clock.now(),
    );
    return { items: page, page: query.page, size: query.size, total };
  });
}

/**
 * GET /account/patients/:patientId/requests: the requests between the patient and doctors, both
 * directions, newest first, for a patient the caller may see (patient.notFound otherwise). A PHI
 * read: audited with the patient.
 */
export async function listPatientRequests(
  environment: DoctorEnvironment,
  patientId: string,
  query: { page: number; size: number },
) {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    const { items, total } = await requests.listRequestsOfPatient(tx, patient.id, query);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'CARE_REQUESTS_LISTED',
        patientIds: [patient.id],
        details: { ...query, patientId: patient.id, shown: items.length, total },
      },
      environment.clock.now(),
    );
    return { items: items.map(toCareRequest), page: query.page, size: query.size, total };
  });
}

/**
 * PUT /account/requests/:id/approve | reject | cancel, by CARE_REQUEST_TRANSITIONS: the recipient
 * approves or rejects, the requester cancels, and only a WAITING request changes
 * (request.alreadyDecided). Approving puts the doctor on the patient's care team in the same
 * transaction; a new FAMILY doctor replaces the current one. The doctor must hold a license that has
 * not expired (doctor.licenseExpired).
 */
export async function decideRequest(
  environment: DoctorEnvironment,
  id: string,
  action: CareRequestAction,
  reason?: string,
): Promise<CareRequest> {
  const transition = CARE_REQUEST_TRANSITIONS[action];
  const today = store.todayOf(environment.clock.now());
  const receiver = receiverOf(environment);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await requests.findRequest(tx, id, { lock: true });
    if (row === undefined) throw new AppError('request.notFound');
    const { request } = row;
    const isRequester = request.requesterId === environment.auth.userId;
    const isRecipient = await requests.isReceivedBy(tx, id, receiver);
    if (transition.by === 'requester' ? !isRequester : !isRecipient) {
      throw new AppError(isRequester || isRecipient ? 'auth.permissionDenied' : 'request.notFound');
    }
    const status = CARE_REQUEST_STATUSES.find((candidate) => candidate === request.status) ?? 'WAITING';
    if (!canTransition(action, status)) throw new AppError('request.alreadyDecided');
    if (transition.reasonRequired && (reason === undefined || reason.trim() === ''))
      throw new AppError('common.invalidParameter');
    const now = environment.clock.now();
    if (action === 'approve') {
      const patient = await reachablePatient(tx, request.patientId, { lock: true });
      if (patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
      await assignableDoctor(tx, request.doctorId, today);
      await linkDoctor(tx, environment, {
        patientId: request.patientId,
        doctorId: request.doctorId,
        relation: request.relation === 'FAMILY' ? 'FAMILY' : 'SPECIALIST',
        replace: true,
        via: request.kind,
        requestId: id,
      });
    }
    const to: CareRequestStatus = transition.to;
    await requests.decideRequest(tx, id, {
      status: to,
      decidedAt: now,
      decidedBy: environment.auth.userId,
      ...(action === 'reject' && reason !== undefined ? { rejectReason: reason } : {}),
    });
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: AUDIT_OF_ACTION[action],
      subjectUserId: request.doctorId,
      targetType: 'care_request',
      targetId: id,
      details: {
        kind: request.kind,
        patientId: request.patientId,
        doctorId: request.doctorId,
        relation: request.relation,
        from: status,
        to,
        reason: reason ?? null,
      },
      at: now,
    });
    const updated = await requests.findRequest(tx, id);
    if (updated === undefined) throw new Error('request not readable after update');
    return toCareRequest(updated);
  });
}
