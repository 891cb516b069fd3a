import { isRestorable, restoreDaysLeft, restoreDeadlineOf, type DeactivatedDoctor } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { reactivateUser } from '../auth/store.js';
import { fullNameOf } from '../staff/detail.js';
import type { DoctorEnvironment } from './doctor-service.js';
import * as store from './doctor-request-store.js';

/** When a disabled account was deactivated: one disabled before those times were kept counts from its last change. */
function deactivatedAtOf(user: { deactivatedAt: Date | null; updatedAt: Date }): Date {
  return user.deactivatedAt ?? user.updatedAt;
}

/**
 * Spec §4 on every call that turns a deactivated doctor back on (the restore call, the staff
 * enable call): only within 30 days of the deactivation, doctor.restorePeriodOver after that.
 * Other roles and accounts that are not disabled are not concerned.
 */
export function assertDoctorRestorable(
  user: { role: string; status: string; deactivatedAt: Date | null; updatedAt: Date },
  now: Date,
): void {
  if (user.role !== 'DOCTOR' || user.status !== 'DISABLED') return;
  if (!isRestorable(deactivatedAtOf(user), now)) throw new AppError('doctor.restorePeriodOver');
}

function toDeactivatedDoctor(row: store.DeactivatedDoctorRow, now: Date): DeactivatedDoctor {
  const { user, centerName } = row;
  const deactivatedAt = deactivatedAtOf({ deactivatedAt: row.deactivatedAt, updatedAt: user.updatedAt });
  return {
    id: user.id,
    fullName: fullNameOf(user),
    email: user.email,
    phone: user.phone,
    center:
      user.healthCenterId !== null && centerName !== null
        ? { id: user.healthCenterId, name: centerName }
        : null,
    deactivatedAt: deactivatedAt.toISOString(),
    disabledUntil: user.disabledUntil?.toISOString() ?? null,
    restoreUntil: restoreDeadlineOf(deactivatedAt).toISOString(),
    daysLeft: restoreDaysLeft(deactivatedAt, now),
    restorable: isRestorable(deactivatedAt, now),
  };
}

/** GET /account/admin/deactivated-doctors: deactivated doctors the caller sees, with the days left to restore. */
export async function listDeactivatedDoctors(
  environment: DoctorEnvironment,
  query: { search?: string | undefined; page: number; size: number },
) {
  const now = environment.clock.now();
  const { items, total } = await withCaller(environment.database, environment.auth, (tx) =>
    store.listDeactivatedDoctors(tx, query),
  );
  return {
    items: items.map((row) => toDeactivatedDoctor(row, now)),
    page: query.page,
    size: query.size,
    total,
  };
}

/**
 * PUT /account/admin/deactivated-doctors/:id/restore (spec §4): a deactivated doctor is active
 * again, within 30 days of the deactivation (doctor.restorePeriodOver after that;
 * doctor.notDeactivated for a doctor who is not deactivated).
 */
export async function restoreDoctor(environment: DoctorEnvironment, id: string): Promise<DeactivatedDoctor> {
  const now = environment.clock.now();
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findDeactivatedDoctor(tx, id);
    if (row === undefined) throw new AppError('doctor.notFound');
    if (row.user.status !== 'DISABLED') throw new AppError('doctor.notDeactivated');
    assertDoctorRestorable({ ...row.user, deactivatedAt: row.deactivatedAt }, now);
    const restored = toDeactivatedDoctor(row, now);
    await reactivateUser(tx, id, now);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'STAFF_ENABLED',
      subjectUserId: id,
      targetType: 'user',
      targetId: id,
      details: {
        trigger: 'doctorRestore',
        deactivatedAt: restored.deactivatedAt,
        disabledUntil: restored.disabledUntil,
      },
      at: now,
    });
    return restored;
  });
}
