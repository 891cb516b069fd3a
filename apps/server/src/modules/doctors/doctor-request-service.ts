import type { DoctorRequest, DoctorRequestListQuery } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { revokeUserSessions } from '../auth/store.js';
import { fullNameOf } from '../staff/detail.js';
import type { DoctorEnvironment } from './doctor-service.js';
import * as store from './doctor-request-store.js';

function toDoctorRequest({ user, centerName, kind }: store.WaitingDoctorRow): DoctorRequest {
  const isDeactivation = kind === 'DEACTIVATION';
  return {
    id: user.id,
    kind,
    doctor: {
      id: user.id,
      fullName: fullNameOf(user),
      email: user.email,
      phone: user.phone,
      center:
        user.healthCenterId !== null && centerName !== null
          ? { id: user.healthCenterId, name: centerName }
          : null,
    },
    requestedAt: (isDeactivation
      ? (user.deactivationRequestedAt ?? user.createdAt)
      : user.createdAt
    ).toISOString(),
    until: isDeactivation ? (user.deactivationRequestedUntil?.toISOString() ?? null) : null,
  };
}

/** GET /account/admin/doctor-requests: registrations and deactivations waiting, oldest first. */
export async function listDoctorRequests(environment: DoctorEnvironment, query: DoctorRequestListQuery) {
  const { items, total } = await withCaller(environment.database, environment.auth, (tx) =>
    store.listWaitingDoctors(tx, query),
  );
  return { items: items.map(toDoctorRequest), page: query.page, size: query.size, total };
}

const noPending = () => new AppError('request.notFound');

/**
 * PUT /account/admin/doctor-requests/:id/approve. A registration makes the account ACTIVE in a
 * health center (its own, or `centerId`, which a doctor registering without one needs); a
 * deactivation disables the account for the period asked and ends its sessions.
 */
export async function approveDoctorRequest(
  environment: DoctorEnvironment,
  id: string,
  input: { centerId?: string | undefined },
): Promise<DoctorRequest> {
  const now = environment.clock.now();
  const decided = await withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findWaitingDoctor(tx, id);
    if (row === undefined) throw noPending();
    const { tenantId } = environment.auth;
    if (row.kind === 'REGISTRATION') {
      const centerId = input.centerId ?? row.user.healthCenterId;
      if (centerId === null || (await store.findCenter(tx, centerId)) === undefined) {
        throw new AppError('common.invalidParameter', {
          fieldErrors: [
            {
              field: 'body.centerId',
              code: 'invalid_value',
              message: 'a health center the doctor joins is required',
            },
          ],
        });
      }
      await store.updateDoctorAccount(tx, id, { status: 'ACTIVE', healthCenterId: centerId }, now);
      await recordAudit(tx, tenantId, environment.audit, {
        action: 'DOCTOR_REGISTRATION_APPROVED',
        subjectUserId: id,
        targetType: 'user',
        targetId: id,
        details: { centerId },
        at: now,
      });
    } else {
      const until = row.user.deactivationRequestedIndefinite ? null : row.user.deactivationRequestedUntil;
      await store.updateDoctorAccount(
        tx,
        id,
        {
          status: 'DISABLED',
          disabledUntil: until,
          deactivationRequestedAt: null,
          deactivationRequestedUntil: null,
          deactivationRequestedIndefinite: false,
        },
        now,
      );
      await recordAudit(tx, tenantId, environment.audit, {
        action: 'DOCTOR_DEACTIVATION_APPROVED',
        subjectUserId: id,
        targetType: 'user',
        targetId: id,
        details: { until: until?.toISOString() ?? null },
        at: now,
      });
    }
    return row;
  });
  if (decided.kind === 'DEACTIVATION')
    await revokeUserSessions(environment.database.system, [id], 'disabled', now);
  return toDoctorRequest(decided);
}

/**
 * PUT /account/admin/doctor-requests/:id/reject (reason required). A rejected registration is
 * closed (the account is marked DELETED and cannot log in); a rejected deactivation leaves the
 * account active. The reason is kept in the audit row.
 */
export async function rejectDoctorRequest(
  environment: DoctorEnvironment,
  id: string,
  reason: string,
): Promise<DoctorRequest> {
  const now = environment.clock.now();
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findWaitingDoctor(tx, id);
    if (row === undefined) throw noPending();
    const { tenantId } = environment.auth;
    if (row.kind === 'REGISTRATION') {
      await store.updateDoctorAccount(tx, id, { status: 'DELETED', deletedAt: now }, now);
      await recordAudit(tx, tenantId, environment.audit, {
        action: 'DOCTOR_REGISTRATION_REJECTED',
        subjectUserId: id,
        targetType: 'user',
        targetId: id,
        details: { reason },
        at: now,
      });
    } else {
      await store.updateDoctorAccount(
        tx,
        id,
        {
          deactivationRequestedAt: null,
          deactivationRequestedUntil: null,
          deactivationRequestedIndefinite: false,
        },
        now,
      );
      await recordAudit(tx, tenantId, environment.audit, {
        action: 'DOCTOR_DEACTIVATION_REJECTED',
        subjectUserId: id,
        targetType: 'user',
        targetId: id,
        details: { reason },
        at: now,
      });
    }
    return toDoctorRequest(row);
  });
}
