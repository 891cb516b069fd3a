import type { StaffDetail } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { revokeUserSessions } from '../auth/store.js';
import { assertCanGrantLevel, checkPlacement, invalidField, resolveRole } from '../staff/placement.js';
import { detailAfterWrite, withStaffTarget, type StaffEnvironment } from '../staff/service.js';
import { findCenter } from '../staff/store.js';
import { deleteLevel, findLevel, insertLevel } from './store.js';

/**
 * Gives a staff account an extra level (a role at a place) for the level switcher. The same rules
 * as the account's own role apply: the place must suit the role and be one the caller sees, and
 * the caller may only hand out permissions they hold. The account's sessions end (re-login).
 */
export async function addStaffLevel(
  environment: StaffEnvironment,
  id: string,
  input: { role: string; scopeId?: string | null | undefined; centerId?: string | null | undefined },
): Promise<StaffDetail> {
  const { auth, clock, database } = environment;
  const detail = await withStaffTarget(environment, id, 'change', async ({ tx, row, tenantId, isPlatform }) => {
    // Platform staff move between tenants instead; one's own levels are another admin's to give.
    if (isPlatform) throw invalidField('params.id');
    if (row.user.id === auth.userId) throw new AppError('auth.permissionDenied');
    const role = await resolveRole(tx, input.role);
    const placement = await checkPlacement(tx, auth, role.baseRole, input);
    await assertCanGrantLevel(tx, auth, role);
    const levelId = uuidv7();
    const now = clock.now();
    await insertLevel(tx, {
      tenantId,
      id: levelId,
      userId: row.user.id,
      role: role.baseRole,
      customRoleId: role.customRoleId,
      scopeId: placement.scopeId,
      healthCenterId: placement.centerId,
      createdAt: now,
    });
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'STAFF_LEVEL_ADDED',
      subjectUserId: row.user.id,
      targetType: 'user_level',
      targetId: levelId,
      details: { role: role.baseRole, customRoleId: role.customRoleId, ...placement },
      at: now,
    });
    return detailAfterWrite(tx, row.user.id, false);
  });
  await revokeUserSessions(database.system, [id], 'permission_changed', clock.now());
  return detail;
}

/**
 * Takes an extra level away. A level at a center the caller cannot see is not theirs to remove
 * (not found), and one outside any center needs a caller who sees the whole tenant.
 */
export async function removeStaffLevel(environment: StaffEnvironment, id: string, levelId: string): Promise<StaffDetail> {
  const { auth, clock, database } = environment;
  const detail = await withStaffTarget(environment, id, 'change', async ({ tx, row, tenantId }) => {
    const level = await findLevel(tx, row.user.id, levelId);
    if (level === undefined) throw new AppError('level.notFound');
    if (level.healthCenterId !== null && (await findCenter(tx, level.healthCenterId)) === undefined) throw new AppError('level.notFound');
    if (level.healthCenterId === null && !('all' in auth.visibility)) throw new AppError('auth.permissionDenied');
    if (row.user.id === auth.userId) throw new AppError('auth.permissionDenied');
    await deleteLevel(tx, level.id);
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'STAFF_LEVEL_REMOVED',
      subjectUserId: row.user.id,
      targetType: 'user_level',
      targetId: level.id,
      details: { role: level.role, customRoleId: level.customRoleId, scopeId: level.scopeId, centerId: level.healthCenterId },
      at: clock.now(),
    });
    return detailAfterWrite(tx, row.user.id, false);
  });
  await revokeUserSessions(database.system, [id], 'permission_changed', clock.now());
  return detail;
}
