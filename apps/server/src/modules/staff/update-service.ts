import { CENTER_ADMIN_ROLES, CREATABLE_PLATFORM_ROLES, type StaffDetail, type StaffUpdate } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { revokeUserSessions } from '../auth/store.js';
import { checkPlacement, invalidField, resolveRole, type Placement, type ResolvedRole } from './placement.js';
import {
  assignRoleWithin,
  checkDoctors,
  checkTenants,
  detailAfterWrite,
  rethrowContactConflict,
  withStaffTarget,
  type StaffEnvironment,
  type StaffTarget,
} from './service.js';
import * as store from './store.js';

type ContactFields = Pick<store.StaffChanges, 'firstName' | 'middleName' | 'lastName' | 'email' | 'phone'>;

function contactChanges(target: StaffTarget, input: StaffUpdate): { changes: ContactFields; fields: string[] } {
  const wanted: ContactFields = {
    firstName: input.firstName,
    middleName: input.middleName,
    lastName: input.lastName,
    email: input.email ?? null,
    phone: input.phone ?? null,
  };
  const fields = (Object.keys(wanted) as (keyof ContactFields)[]).filter((field) => wanted[field] !== target.row.user[field]);
  return { changes: Object.fromEntries(fields.map((field) => [field, wanted[field]])), fields };
}

/**
 * Centers whose MAIN admin the account is, read across the whole tenant: the lock must hold even
 * for a center the caller cannot see. This is a rule check, not a view for the caller, so it reads
 * outside the caller's visibility and returns ids only.
 */
function systemFindMainAdminCenters(database: Database, tenantId: string, userId: string): Promise<string[]> {
  return database.withTenant(tenantId, (tx) => store.mainAdminCenters(tx, userId));
}

/** A place covers a center when it is that center, or the whole tenant (an ADMIN may be a center's admin). */
const covers = (place: Placement, centerId: string) => (place.centerId === null && place.scopeId === null) || place.centerId === centerId;

/**
 * A center's MAIN admin keeps an admin role and is not moved away from that center: spec §6 "the
 * main admin cannot be unassigned from the admin page; change it on the health center detail".
 */
function assertMainAdminKept(mainCenters: string[], target: StaffTarget, role: ResolvedRole, placement: Placement): void {
  if (mainCenters.length === 0) return;
  const before: Placement = { centerId: target.row.user.healthCenterId, scopeId: target.row.user.scopeId };
  const keepsAdminRole = CENTER_ADMIN_ROLES.some((adminRole) => adminRole === role.baseRole);
  if (!keepsAdminRole || mainCenters.some((centerId) => covers(before, centerId) && !covers(placement, centerId))) {
    throw new AppError('staff.mainAdminLocked');
  }
}

/**
 * A doctor who stops being a doctor leaves their assistants; none may be left without a doctor
 * (spec §8 "Must keep at least one doctor for an assistant").
 */
async function releaseAssistants(target: StaffTarget): Promise<void> {
  if ((await store.assistantsOnlyWith(target.tx, target.row.user.id)).length > 0) throw new AppError('staff.assistantNeedsDoctor');
  await store.removeDoctorLinks(target.tx, target.row.user.id, 'doctor');
}

/**
 * Edits a staff account: names, contacts, role, place, an assistant's doctors, a system admin's
 * tenants. A change of role, center or scope ends the account's sessions (permission_changed).
 * One's own role and place cannot be changed (that is for another admin).
 */
export async function updateStaff(environment: StaffEnvironment, id: string, input: StaffUpdate): Promise<StaffDetail> {
  const { database, auth, clock } = environment;
  const mainCenters = await systemFindMainAdminCenters(database, auth.tenantId, id);
  const outcome = await rethrowContactConflict(
    withStaffTarget(environment, id, 'change', (target) => (target.isPlatform ? updatePlatformStaff(environment, target, input) : updateTenantStaff(environment, target, input, mainCenters))),
  );
  if (outcome.hasAccessChanged) await revokeUserSessions(database.system, [id], 'permission_changed', clock.now());
  return outcome.detail;
}

async function updateTenantStaff(environment: StaffEnvironment, target: StaffTarget, input: StaffUpdate, mainCenters: string[]) {
  const { auth, clock } = environment;
  const { tx, row } = target;
  const user = row.user;
  if (input.tenantIds.length > 0) throw invalidField('body.tenantIds');
  const role = await resolveRole(tx, input.role);
  const placement = await checkPlacement(tx, auth, role.baseRole, input);
  const isRoleChanged = role.baseRole !== user.role || role.customRoleId !== user.customRoleId;
  const isPlaceChanged = placement.centerId !== user.healthCenterId || placement.scopeId !== user.scopeId;
  if ((isRoleChanged || isPlaceChanged) && user.id === auth.userId) throw new AppError('auth.permissionDenied');
  assertMainAdminKept(mainCenters, target, role, placement);
  const isAssistant = role.baseRole === 'DOCTOR_ASSISTANT';
  if (!isAssistant && input.doctorIds.length > 0) throw invalidField('body.doctorIds');
  const doctorIds = isAssistant ? await checkDoctors(tx, input.doctorIds) : [];
  if (user.role === 'DOCTOR' && role.baseRole !== 'DOCTOR') await releaseAssistants(target);
  if (user.role === 'DOCTOR_ASSISTANT' && !isAssistant) await store.removeDoctorLinks(tx, user.id, 'assistant');

  const now = clock.now();
  const { changes, fields } = contactChanges(target, input);
  if (isPlaceChanged) fields.push('place');
  if (isRoleChanged) fields.push('role');
  await store.updateStaff(tx, user.id, { ...changes, healthCenterId: placement.centerId, scopeId: placement.scopeId }, now);
  if (isRoleChanged) await assignRoleWithin(tx, environment, user.id, input.role ?? role.baseRole);
  if (isAssistant) {
    await store.replaceVisibleDoctors(tx, target.tenantId, user.id, doctorIds);
    fields.push('doctors');
  }
  await recordAudit(tx, target.tenantId, environment.audit, {
    action: 'STAFF_UPDATED',
    subjectUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    details: {
      fields,
      ...(isPlaceChanged ? { place: { from: { centerId: user.healthCenterId, scopeId: user.scopeId }, to: placement } } : {}),
      ...(isAssistant ? { doctorIds } : {}),
    },
    at: now,
  });
  return { detail: await detailAfterWrite(tx, user.id, false), hasAccessChanged: isRoleChanged || isPlaceChanged };
}

async function updatePlatformStaff(environment: StaffEnvironment, target: StaffTarget, input: StaffUpdate) {
  const { auth, clock } = environment;
  const { tx, row } = target;
  const user = row.user;
  // A ROOT account stays ROOT; other platform staff are super or system admins.
  const role = user.role === 'ROOT' ? (input.role === 'ROOT' ? 'ROOT' : undefined) : CREATABLE_PLATFORM_ROLES.find((candidate) => candidate === input.role);
  if (input.role === null || input.role === undefined) throw new AppError('role.required');
  if (role === undefined) throw invalidField('body.role');
  for (const field of ['centerId', 'scopeId'] as const) if (input[field]) throw invalidField(`body.${field}`);
  if (input.doctorIds.length > 0) throw invalidField('body.doctorIds');
  if (role !== 'SYSTEM_ADMIN' && input.tenantIds.length > 0) throw invalidField('body.tenantIds');
  const isRoleChanged = role !== user.role;
  if (isRoleChanged && user.id === auth.userId) throw new AppError('auth.permissionDenied');
  const tenantIds = role === 'SYSTEM_ADMIN' ? await checkTenants(tx, input.tenantIds) : [];

  const now = clock.now();
  const { changes, fields } = contactChanges(target, input);
  if (isRoleChanged) fields.push('role');
  await store.updateStaff(tx, user.id, { ...changes, role }, now);
  const removedTenants = await store.replaceStaffTenants(tx, user.id, tenantIds);
  if (role === 'SYSTEM_ADMIN') fields.push('tenants');
  await recordAudit(tx, target.tenantId, environment.audit, {
    action: 'STAFF_UPDATED',
    subjectUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    details: { fields, ...(isRoleChanged ? { role: { from: user.role, to: role } } : {}), tenantIds, removedTenants, actingTenantId: auth.tenantId },
    at: now,
  });
  return { detail: await detailAfterWrite(tx, user.id, true), hasAccessChanged: isRoleChanged || removedTenants.length > 0 };
}
