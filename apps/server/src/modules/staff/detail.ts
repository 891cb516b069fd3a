import { ACCOUNT_STATUSES, type StaffDetail, type StaffLevel, type StaffSummary } from '@rpm/contracts';
import type { TenantTransaction } from '../../db/database.js';
import { toProfile } from '../account/service.js';
import { asRole } from '../auth/sessions.js';
import { centerAdminRoles, doctorsOfAssistants, levelsOf, tenantsOfStaff, type LinkedPerson, type StaffRow } from './store.js';

export const fullNameOf = (person: { firstName: string; middleName: string; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter((part) => part.trim() !== '').join(' ');

const reference = (id: string | null, name: string | null) => (id !== null && name !== null ? { id, name } : null);

export function toSummary({ user, customRoleName, centerName, scopeName }: StaffRow): StaffSummary {
  return {
    id: user.id,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    fullName: fullNameOf(user),
    email: user.email,
    phone: user.phone,
    role: asRole(user.role),
    customRole: reference(user.customRoleId, customRoleName),
    status: ACCOUNT_STATUSES.find((status) => status === user.status) ?? 'ACTIVE',
    disabledUntil: user.status === 'DISABLED' ? (user.disabledUntil?.toISOString() ?? null) : null,
    center: reference(user.healthCenterId, centerName),
    scope: reference(user.scopeId, scopeName),
    createdAt: user.createdAt.toISOString(),
  };
}

/** Groups linked people (an assistant's doctors) by the account they belong to. */
export function groupByOwner(people: LinkedPerson[]): Map<string, { id: string; fullName: string }[]> {
  const grouped = new Map<string, { id: string; fullName: string }[]>();
  for (const person of people) {
    const list = grouped.get(person.ownerId) ?? [];
    list.push({ id: person.id, fullName: fullNameOf(person) });
    grouped.set(person.ownerId, list);
  }
  return grouped;
}

/** Every level of an account: the main one (its own role and place) first, then the extra ones. */
export async function allLevelsOf(tx: TenantTransaction, row: StaffRow): Promise<StaffLevel[]> {
  const main: StaffLevel = {
    id: null,
    role: asRole(row.user.role),
    customRole: reference(row.user.customRoleId, row.customRoleName),
    scope: reference(row.user.scopeId, row.scopeName),
    center: reference(row.user.healthCenterId, row.centerName),
  };
  const extra = (await levelsOf(tx, row.user.id)).map(
    ({ level, customRoleName, scopeName, centerName }): StaffLevel => ({
      id: level.id,
      role: asRole(level.role),
      customRole: reference(level.customRoleId, customRoleName),
      scope: reference(level.scopeId, scopeName),
      center: reference(level.healthCenterId, centerName),
    }),
  );
  return [main, ...extra];
}

/** The staff detail page: profile, role, levels, place, doctors or tenants, status. */
export async function detailOf(tx: TenantTransaction, row: StaffRow, isPlatform: boolean): Promise<StaffDetail> {
  const id = row.user.id;
  // One after the other: a transaction is one connection, which runs one query at a time.
  const levels = await allLevelsOf(tx, row);
  const doctors = row.user.role === 'DOCTOR_ASSISTANT' ? await doctorsOfAssistants(tx, [id]) : [];
  const tenantRows = isPlatform ? await tenantsOfStaff(tx, [id]) : [];
  const admins = isPlatform ? [] : await centerAdminRoles(tx, id);
  return {
    ...toSummary(row),
    profile: toProfile({ user: row.user, customRole: reference(row.user.customRoleId, row.customRoleName) }),
    isPlatformStaff: isPlatform,
    levels,
    doctors: groupByOwner(doctors).get(id) ?? [],
    tenants: tenantRows.map(({ id: tenantId, code, name }) => ({ id: tenantId, code, name })),
    centerAdminOf: admins.map((admin) => ({ center: { id: admin.centerId, name: admin.centerName }, kind: admin.kind === 'MAIN' ? 'MAIN' : 'SUPPORT' })),
  };
}
