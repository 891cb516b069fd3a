import { STAFF_STATUS_ACTIONS, type DeactivationDuration, type StaffDetail } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { deactivationEnd } from '../account/preferences.js';
import { recordAudit } from '../audit/store.js';
import { reactivateUser, revokeUserSessions } from '../auth/store.js';
import { assertDoctorRestorable } from '../doctors/restore-service.js';
import { findPlatformTenant } from '../tenants/store.js';
import { detailAfterWrite, checkDoctors, checkTenants, withStaffTarget, type StaffEnvironment, type StaffTarget } from './service.js';
import * as store from './store.js';

function assertTransition(action: keyof typeof STAFF_STATUS_ACTIONS, status: string): void {
  if (!STAFF_STATUS_ACTIONS[action].from.some((from) => from === status)) throw new AppError('staff.invalidTransition');
}

function systemIsMainAdmin(database: Database, tenantId: string, userId: string): Promise<boolean> {
  // A rule check across the whole tenant (see update-service): ids only, never shown to the caller.
  return database.withTenant(tenantId, async (tx) => (await store.mainAdminCenters(tx, userId)).length > 0);
}

/**
 * Disables a staff account for 3 days, 2 weeks, 1 month or indefinitely (spec §4). Its sessions
 * end at once; the re-enable job (or the next login) turns a temporary disable back on when it
 * runs out. Nobody disables their own account here, and a health center's MAIN admin is disabled
 * only after the health-center detail has given the center another main admin.
 */
export async function disableStaff(environment: StaffEnvironment, id: string, input: { duration: DeactivationDuration; reason?: string | undefined }): Promise<StaffDetail> {
  const { database, auth, clock } = environment;
  if (id === auth.userId) throw new AppError('staff.cannotDisableSelf');
  const isMainAdmin = await systemIsMainAdmin(database, auth.tenantId, id);
  const detail = await withStaffTarget(environment, id, 'change', async ({ tx, row, tenantId, isPlatform }) => {
    assertTransition('disable', row.user.status);
    if (isMainAdmin && !isPlatform) throw new AppError('staff.mainAdminLocked');
    const now = clock.now();
    const until = deactivationEnd(input.duration, now);
    await store.updateStaff(
      tx,
      row.user.id,
      // An admin's decision also settles a doctor's pending request to be deactivated.
      { status: 'DISABLED', disabledUntil: until, deactivationRequestedAt: null, deactivationRequestedUntil: null, deactivationRequestedIndefinite: false },
      now,
    );
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'STAFF_DISABLED',
      subjectUserId: row.user.id,
      targetType: 'user',
      targetId: row.user.id,
      details: { duration: input.duration, until: until?.toISOString() ?? null, reason: input.reason ?? null, previousStatus: row.user.status },
      at: now,
    });
    return detailAfterWrite(tx, row.user.id, isPlatform);
  });
  await revokeUserSessions(database.system, [id], 'disabled', clock.now());
  return detail;
}

/**
 * Turns a disabled staff account back on before its time (or one disabled indefinitely). A
 * deactivated doctor only within 30 days of the deactivation, as the restore call (spec §4).
 */
export async function enableStaff(environment: StaffEnvironment, id: string): Promise<StaffDetail> {
  const { clock } = environment;
  return withStaffTarget(environment, id, 'change', async ({ tx, row, tenantId, isPlatform }) => {
    assertTransition('enable', row.user.status);
    const now = clock.now();
    assertDoctorRestorable(row.user, now);
    await reactivateUser(tx, row.user.id, now);
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'STAFF_ENABLED',
      subjectUserId: row.user.id,
      targetType: 'user',
      targetId: row.user.id,
      details: { disabledUntil: row.user.disabledUntil?.toISOString() ?? null, trigger: 'admin' },
      at: now,
    });
    return detailAfterWrite(tx, row.user.id, isPlatform);
  });
}

/** Sets a doctor assistant's doctors: at least one, among the doctors the caller can see. */
export async function assignDoctors(environment: StaffEnvironment, id: string, doctorIds: string[]): Promise<StaffDetail> {
  return withStaffTarget(environment, id, 'change', async ({ tx, row, tenantId }: StaffTarget) => {
    if (row.user.role !== 'DOCTOR_ASSISTANT') throw new AppError('staff.notAssistant');
    const wanted = await checkDoctors(tx, doctorIds);
    const before = (await store.doctorsOfAssistants(tx, [row.user.id])).map((doctor) => doctor.id);
    await store.replaceVisibleDoctors(tx, tenantId, row.user.id, wanted);
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'STAFF_DOCTORS_ASSIGNED',
      subjectUserId: row.user.id,
      targetType: 'user',
      targetId: row.user.id,
      details: { doctorIds: wanted, before },
      at: environment.clock.now(),
    });
    return detailAfterWrite(tx, row.user.id, false);
  });
}

/**
 * Sets the tenants a system admin serves (at least one active customer tenant). Taking a tenant
 * away ends their sessions: they may be acting in it.
 */
export async function assignTenants(environment: StaffEnvironment, id: string, tenantIds: string[]): Promise<StaffDetail> {
  const { database, clock } = environment;
  const platform = await findPlatformTenant(database.system);
  const outcome = await withStaffTarget(environment, id, 'change', async ({ tx, row, tenantId }) => {
    if (tenantId !== platform.id || row.user.role !== 'SYSTEM_ADMIN') throw new AppError('account.notFound');
    const wanted = await checkTenants(tx, tenantIds);
    const removed = await store.replaceStaffTenants(tx, row.user.id, wanted);
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'STAFF_TENANTS_ASSIGNED',
      subjectUserId: row.user.id,
      targetType: 'user',
      targetId: row.user.id,
      details: { tenantIds: wanted, removed },
      at: clock.now(),
    });
    return { detail: await detailAfterWrite(tx, row.user.id, true), removed };
  });
  if (outcome.removed.length > 0) await revokeUserSessions(database.system, [id], 'permission_changed', clock.now());
  return outcome.detail;
}
