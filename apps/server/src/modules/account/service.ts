import {
  ACCOUNT_STATUSES,
  BLOOD_TYPES,
  GENDERS,
  PLATFORM_ROLES,
  isSupportedTimeZone,
  type Profile,
  type ProfileUpdate,
  type RoleCode,
} from '@rpm/contracts';
import { SUPPORTED_LANGUAGES, type SupportedLanguage } from '@rpm/i18n';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { patientIdsNamedBy, patientIdsOfAccount, recordPatientReads } from '../audit/reads.js';
import { listAudit, recordAudit, type AuditContext } from '../audit/store.js';
import { assertAcceptablePassword, passwordRuleOf } from '../auth/password-policy.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { asRole } from '../auth/sessions.js';
import { revokeUserSessions, type UserRow } from '../auth/store.js';
import { accountRoleOf, assertMaySetPasswordOf, assertRankBelow } from '../roles/hierarchy.js';
import { findPlatformTenant, findTenantById, type TenantRow } from '../tenants/store.js';
import {
  findProfileRow,
  lockUser,
  revokeOtherSessions,
  storePasswordHash,
  unlockUser,
  updateUser,
  type ProfileRow,
  type UserChanges,
} from './store.js';

export interface AccountEnvironment {
  database: Database;
  clock: Clock;
  audit: AuditContext;
}

/** The caller as the account service needs them (taken from the session). */
export type Caller = Pick<AuthContext, 'userId' | 'accountTenantId' | 'tenantId' | 'role' | 'familyId' | 'permissions' | 'visibility'>;

// Profile --------------------------------------------------------------------------------------

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return values.find((candidate) => candidate === value) ?? null;
}

export function toProfile({ user, customRole }: ProfileRow): Profile {
  return {
    id: user.id,
    role: asRole(user.role),
    customRole,
    email: user.email,
    phone: user.phone,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    nickName: user.nickName,
    gender: oneOf(GENDERS, user.gender),
    birthday: user.birthday,
    bloodType: oneOf(BLOOD_TYPES, user.bloodType),
    skinColor: user.skinColor,
    heightCm: user.heightCm,
    weightKg: user.weightKg,
    address: { country: user.country, province: user.province, district: user.district, ward: user.ward, line: user.addressLine },
    medicalNotes: user.medicalNotes,
    hasAvatar: user.avatarFile !== null,
    language: user.language,
    timeZone: user.timeZone,
    status: oneOf(ACCOUNT_STATUSES, user.status) ?? 'ACTIVE',
    createdAt: user.createdAt.toISOString(),
  };
}

/** The caller's own account lives in their account tenant (the platform tenant for staff). */
async function readOwnProfile(database: Database, caller: Caller): Promise<Profile> {
  const row = await database.withTenant(caller.accountTenantId, (tx) => findProfileRow(tx, caller.userId));
  if (row === undefined) throw new AppError('account.notFound');
  return toProfile(row);
}

export function readProfile(environment: AccountEnvironment, caller: Caller): Promise<Profile> {
  return readOwnProfile(environment.database, caller);
}

// Heights and weights are stored with one decimal; rounding first makes "unchanged" comparable.
const oneDecimal = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** Column values of an update, and the API name of each column (audit lists names, not values). */
function columnsOf(update: ProfileUpdate): UserChanges {
  return {
    firstName: update.firstName,
    middleName: update.middleName,
    lastName: update.lastName,
    nickName: update.nickName,
    gender: update.gender,
    birthday: update.birthday,
    bloodType: update.bloodType,
    skinColor: update.skinColor,
    heightCm: oneDecimal(update.heightCm),
    weightKg: oneDecimal(update.weightKg),
    country: update.address.country,
    province: update.address.province,
    district: update.address.district,
    ward: update.address.ward,
    addressLine: update.address.line,
    medicalNotes: update.medicalNotes,
  };
}
const MEDICAL_COLUMNS: readonly (keyof UserChanges)[] = ['bloodType', 'medicalNotes'];
const API_NAME: Partial<Record<keyof UserChanges, string>> = {
  country: 'address.country',
  province: 'address.province',
  district: 'address.district',
  ward: 'address.ward',
  addressLine: 'address.line',
};

/**
 * Updates the caller's own profile. Only columns whose value really changes are written, and the
 * audit row names them (never their values: they include health data).
 */
export async function updateProfile(environment: AccountEnvironment, caller: Caller, update: ProfileUpdate): Promise<Profile> {
  const { database, clock } = environment;
  await database.withTenant(caller.accountTenantId, async (tx) => {
    const user = await lockUser(tx, caller.userId);
    if (user === undefined) throw new AppError('account.notFound');
    const wanted = columnsOf(update);
    const changed = (Object.keys(wanted) as (keyof UserChanges)[]).filter((column) => wanted[column] !== user[column]);
    // Spec §6: patients cannot update their medical profile; their care team does.
    if (user.role === 'PATIENT' && changed.some((column) => MEDICAL_COLUMNS.includes(column))) {
      throw new AppError('auth.permissionDenied');
    }
    if (changed.length === 0) return;
    const changes = Object.fromEntries(changed.map((column) => [column, wanted[column]])) as UserChanges;
    const now = clock.now();
    await updateUser(tx, user.id, changes, now);
    await recordAudit(tx, caller.accountTenantId, environment.audit, {
      action: 'ACCOUNT_PROFILE_UPDATED',
      subjectUserId: user.id,
      targetType: 'user',
      targetId: user.id,
      details: { fields: changed.map((column) => API_NAME[column] ?? column) },
      at: now,
    });
  });
  return readOwnProfile(database, caller);
}

/** Variants the apps send for a supported language: the Canadian English "can" is stored as en (spec §5). */
const LANGUAGE_OF: Record<string, SupportedLanguage> = { 'en-ca': 'en', can: 'en' };

export function normalizeLanguage(lang: string): SupportedLanguage | undefined {
  const tag = lang.trim().toLowerCase();
  return SUPPORTED_LANGUAGES.find((language) => language === tag) ?? LANGUAGE_OF[tag];
}

async function updateOwnSetting(
  environment: AccountEnvironment,
  caller: Caller,
  changes: Pick<UserChanges, 'language' | 'timeZone'>,
  action: 'ACCOUNT_LANGUAGE_UPDATED' | 'ACCOUNT_TIME_ZONE_UPDATED',
): Promise<Profile> {
  const { database, clock } = environment;
  await database.withTenant(caller.accountTenantId, async (tx) => {
    const user = await lockUser(tx, caller.userId);
    if (user === undefined) throw new AppError('account.notFound');
    if (Object.entries(changes).every(([column, value]) => user[column as keyof typeof changes] === value)) return;
    const now = clock.now();
    await updateUser(tx, user.id, changes, now);
    await recordAudit(tx, caller.accountTenantId, environment.audit, { action, subjectUserId: user.id, details: { ...changes }, at: now });
  });
  return readOwnProfile(database, caller);
}

export function updateLanguage(environment: AccountEnvironment, caller: Caller, lang: string): Promise<Profile> {
  const language = normalizeLanguage(lang);
  if (language === undefined) throw new AppError('account.languageUnsupported');
  return updateOwnSetting(environment, caller, { language }, 'ACCOUNT_LANGUAGE_UPDATED');
}

export function updateTimeZone(environment: AccountEnvironment, caller: Caller, timeZone: string): Promise<Profile> {
  if (!isSupportedTimeZone(timeZone)) throw new AppError('account.timeZoneUnsupported');
  return updateOwnSetting(environment, caller, { timeZone }, 'ACCOUNT_TIME_ZONE_UPDATED');
}

// Passwords ------------------------------------------------------------------------------------

/**
 * The caller changes their own password. A wrong current password is refused and audited but is
 * not counted toward the login lock (the caller already holds a session). On success every other
 * session of the user ends; the one making the change stays.
 */
export async function changePassword(
  environment: AccountEnvironment,
  caller: Caller,
  input: { password: string; newPassword: string },
): Promise<void> {
  const { database, clock } = environment;
  const user = (await database.withTenant(caller.accountTenantId, (tx) => findProfileRow(tx, caller.userId)))?.user;
  if (user === undefined) throw new AppError('account.notFound');
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await database.withTenant(caller.accountTenantId, (tx) =>
      recordAudit(tx, caller.accountTenantId, environment.audit, {
        action: 'ACCOUNT_PASSWORD_CHANGE_FAILED',
        subjectUserId: user.id,
        details: { reason: 'wrong_current' },
        at: clock.now(),
      }),
    );
    throw new AppError('password.wrongCurrent');
  }
  if (input.newPassword === input.password) throw new AppError('password.sameAsOld');
  assertAcceptablePassword(input.newPassword, await passwordRuleOf(database.system, caller.accountTenantId));
  const passwordHash = await hashPassword(input.newPassword);
  const now = clock.now();
  await database.withTenant(caller.accountTenantId, async (tx) => {
    await storePasswordHash(tx, user.id, passwordHash, now);
    await recordAudit(tx, caller.accountTenantId, environment.audit, {
      action: 'ACCOUNT_PASSWORD_CHANGED',
      subjectUserId: user.id,
      details: { outcome: 'changed' },
      at: now,
    });
  });
  // Sessions are control-plane rows: ended right after the commit, like a lock ends them.
  await revokeOtherSessions(database.system, user.id, caller.familyId, 'password_changed', now);
}

// Managing other accounts ------------------------------------------------------------------------

const SUPER_ROLES: readonly RoleCode[] = ['ROOT', 'SUPER_ADMIN'];
const isSuperRole = (role: string) => SUPER_ROLES.some((superRole) => superRole === role);

export interface ManagedAccount {
  user: UserRow;
  tenant: TenantRow;
}

/**
 * Another account the caller manages: a user of the tenant they act in; ROOT and SUPER_ADMIN also
 * reach platform staff (users of the platform tenant). Anything else is "not found", the same
 * answer as for an id that does not exist, so ids of other tenants cannot be probed.
 */
export async function findManagedAccount(database: Database, caller: Caller, userId: string): Promise<ManagedAccount> {
  const acting = await findTenantById(database.system, caller.tenantId);
  if (acting === undefined) throw new AppError('account.notFound');
  // Through the caller's visibility: a center's admin manages only the staff of their centers.
  const own = await database.withTenant(acting.id, (tx) => findProfileRow(tx, userId), caller.visibility);
  if (own !== undefined) return { user: own.user, tenant: acting };
  if (acting.isPlatform || !isSuperRole(caller.role)) throw new AppError('account.notFound');
  const platform = await findPlatformTenant(database.system);
  const staff = await database.withTenant(platform.id, (tx) => findProfileRow(tx, userId));
  if (staff === undefined || !PLATFORM_ROLES.some((role) => role === staff.user.role)) throw new AppError('account.notFound');
  return { user: staff.user, tenant: platform };
}

/** Platform staff accounts are managed by ROOT and SUPER_ADMIN only. */
function assertMayManage(caller: Caller, target: ManagedAccount): void {
  if (target.tenant.isPlatform && !isSuperRole(caller.role)) throw new AppError('auth.permissionDenied');
}

/**
 * An administrator gives another account a new password. Only ROOT or SUPER_ADMIN may do so for a
 * ROOT or SUPER_ADMIN account (spec §6); otherwise the account must rank strictly below the caller
 * (the role hierarchy of contracts roles.ts), so no admin takes over an account at or above its own.
 * The target's sessions all end.
 */
export async function setPasswordByAdmin(
  environment: AccountEnvironment,
  caller: Caller,
  input: { userId: string; newPassword: string },
): Promise<void> {
  const { database, clock } = environment;
  const target = await findManagedAccount(database, caller, input.userId);
  if (isSuperRole(target.user.role) && !isSuperRole(caller.role)) throw new AppError('account.superAdminPasswordForbidden');
  assertMayManage(caller, target);
  // One's own password is changed with the current one (POST /account/change-password).
  if (target.user.id === caller.userId) throw new AppError('auth.permissionDenied');
  const targetRole = await database.withTenant(target.tenant.id, (tx) => accountRoleOf(tx, target.user));
  assertMaySetPasswordOf(targetRole, caller.role);
  assertAcceptablePassword(input.newPassword, await passwordRuleOf(database.system, target.tenant.id));
  const passwordHash = await hashPassword(input.newPassword);
  const now = clock.now();
  await database.withTenant(target.tenant.id, async (tx) => {
    const user = await lockUser(tx, target.user.id);
    if (user === undefined) throw new AppError('account.notFound');
    // Again under the row lock: the role may have changed while the password was hashed.
    assertMaySetPasswordOf(await accountRoleOf(tx, user), caller.role);
    await storePasswordHash(tx, target.user.id, passwordHash, now);
    await recordAudit(tx, target.tenant.id, environment.audit, {
      action: 'ACCOUNT_PASSWORD_SET_BY_ADMIN',
      subjectUserId: target.user.id,
      targetType: 'user',
      targetId: target.user.id,
      at: now,
    });
  });
  await revokeUserSessions(database.system, [target.user.id], 'password_changed', now);
}

/**
 * Lifts a login lock: failed logins and the lock end, and a LOCKED account is active again. The
 * account must rank strictly below the caller.
 */
export async function unlockAccount(environment: AccountEnvironment, caller: Caller, userId: string): Promise<void> {
  const { database, clock } = environment;
  const target = await findManagedAccount(database, caller, userId);
  assertMayManage(caller, target);
  const now = clock.now();
  await database.withTenant(target.tenant.id, async (tx) => {
    const user = await lockUser(tx, target.user.id);
    if (user === undefined) throw new AppError('account.notFound');
    assertRankBelow(await accountRoleOf(tx, user), caller.role);
    await unlockUser(tx, user.id, now);
    await recordAudit(tx, target.tenant.id, environment.audit, {
      action: 'ACCOUNT_UNLOCKED',
      subjectUserId: user.id,
      targetType: 'user',
      targetId: user.id,
      details: { failedLogins: user.failedLogins, lockedUntil: user.lockedUntil?.toISOString() ?? null, status: user.status },
      at: now,
    });
  });
}

// Log history ----------------------------------------------------------------------------------

export interface LogHistoryQuery {
  page: number;
  size: number;
  userId?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * Audit entries about one account, newest first: the caller's own, or (with staff.view) those of
 * an account they see and that ranks strictly below them (404 when unseen, 403
 * `role.rankTooHigh` at or above their rank).
 */
export async function readLogHistory(environment: AccountEnvironment, caller: Caller, query: LogHistoryQuery) {
  const { database } = environment;
  let subject = { userId: caller.userId, tenantId: caller.accountTenantId };
  if (query.userId !== undefined && query.userId !== caller.userId) {
    if (!caller.permissions.has('staff.view')) throw new AppError('auth.permissionDenied');
    const target = await findManagedAccount(database, caller, query.userId);
    assertMayManage(caller, target);
    // Like every other act on another account: it must rank strictly below the caller.
    assertRankBelow(await database.withTenant(target.tenant.id, (tx) => accountRoleOf(tx, target.user)), caller.role);
    subject = { userId: target.user.id, tenantId: target.tenant.id };
  }
  const ownHistory = subject.userId === caller.userId;
  const { items, total } = await database.withTenant(subject.tenantId, async (tx) => {
    const page = await listAudit(tx, {
      subjectUserId: subject.userId,
      page: query.page,
      size: query.size,
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.from === undefined ? {} : { from: new Date(query.from) }),
      ...(query.to === undefined ? {} : { to: new Date(query.to) }),
    });
    // Patients the page reveals: the account's own patient record (another account's history
    // only: one's own reveals nothing new) and every patient its entries name. Audited in this
    // transaction; an own history's row is no one's account history, so reading it adds nothing to it.
    const patientIds = [...(ownHistory ? [] : await patientIdsOfAccount(tx, subject.userId)), ...page.items.flatMap(patientIdsNamedBy)];
    if (patientIds.length > 0) {
      await recordPatientReads(tx, subject.tenantId, environment.audit, {
        action: 'ACTIVITY_HISTORY_VIEWED',
        patientIds,
        subjectUserId: ownHistory ? null : subject.userId,
        targetType: 'user',
        targetId: subject.userId,
      });
    }
    return page;
  });
  return {
    items: items.map((entry) => ({
      id: entry.id,
      occurredAt: entry.occurredAt.toISOString(),
      action: entry.action,
      actorUserId: entry.actorUserId,
      subjectUserId: entry.subjectUserId,
      targetType: entry.targetType,
      targetId: entry.targetId,
      ip: entry.ip,
      details: entry.details,
    })),
    page: query.page,
    size: query.size,
    total,
  };
}
