import { STAFF_LISTS, type StaffList, type StaffListQuery, type StaffSummary } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { findPlatformTenant } from '../tenants/store.js';
import { groupByOwner, toSummary } from './detail.js';
import { invalidField, isPlatformRole } from './placement.js';
import type { StaffEnvironment } from './service.js';
import * as store from './store.js';

export interface StaffPage<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
}

function filterOf(list: StaffList, query: StaffListQuery, extra: Partial<store.StaffFilter> = {}): store.StaffFilter {
  const roles: readonly string[] = STAFF_LISTS[list];
  if (query.role !== undefined && !roles.includes(query.role)) throw invalidField('querystring.role');
  return {
    roles: query.role === undefined ? roles : [query.role],
    page: query.page,
    size: query.size,
    search: query.search,
    status: query.status,
    centerId: query.centerId,
    scopeId: query.scopeId,
    sortField: query.sortField,
    sortType: query.sortType,
    ...extra,
  };
}

async function pageOf<T>(tx: TenantTransaction, filter: store.StaffFilter, decorate: (rows: store.StaffRow[]) => Promise<T[]>): Promise<StaffPage<T>> {
  const { items, total } = await store.listStaff(tx, filter);
  return { items: await decorate(items), page: filter.page, size: filter.size, total };
}

const summaries = (rows: store.StaffRow[]) => Promise.resolve(rows.map(toSummary));

async function withDoctors(tx: TenantTransaction, rows: store.StaffRow[]) {
  const doctors = groupByOwner(await store.doctorsOfAssistants(tx, rows.map((row) => row.user.id)));
  return rows.map((row) => ({ ...toSummary(row), doctors: doctors.get(row.user.id) ?? [] }));
}

/**
 * A staff list of the acting tenant (employees, scope admins, health-center admins, doctors),
 * through the caller's visibility: a center's admin sees that center's staff only, and staff
 * without a center only show to callers who see the whole tenant.
 */
export function listTenantStaff(environment: StaffEnvironment, list: Exclude<StaffList, 'systemAdmin' | 'superAdmin' | 'doctorAssistant'>, query: StaffListQuery): Promise<StaffPage<StaffSummary>> {
  return withCaller(environment.database, environment.auth, (tx) => pageOf(tx, filterOf(list, query), summaries));
}

/** Doctor assistants with their doctors (doctors the caller can see). */
export function listDoctorAssistants(environment: StaffEnvironment, query: StaffListQuery) {
  return withCaller(environment.database, environment.auth, (tx) => pageOf(tx, filterOf('doctorAssistant', query), (rows) => withDoctors(tx, rows)));
}

/** Spec §7 GET /account/doctor/assistants: the calling doctor's own assistants. */
export function listOwnAssistants(environment: StaffEnvironment, query: StaffListQuery) {
  const { auth } = environment;
  return withCaller(environment.database, auth, (tx) => pageOf(tx, filterOf('doctorAssistant', query, { assistantsOf: auth.userId }), (rows) => withDoctors(tx, rows)));
}

/**
 * Super admins and system admins: accounts of the platform tenant, listed for platform staff only.
 * System admins come with the tenants they serve.
 */
export async function listPlatformStaff(environment: StaffEnvironment, list: 'systemAdmin' | 'superAdmin', query: StaffListQuery) {
  const { database, auth } = environment;
  if (!isPlatformRole(auth.role)) throw new AppError('auth.permissionDenied');
  if (query.centerId !== undefined) throw invalidField('querystring.centerId');
  if (query.scopeId !== undefined) throw invalidField('querystring.scopeId');
  const platform = await findPlatformTenant(database.system);
  // The platform tenant's own accounts, for platform staff (checked above): not a view of the
  // tenant the caller acts in, so the caller's center visibility does not apply.
  return database.withTenant(platform.id, (tx) =>
    pageOf(tx, filterOf(list, query), async (rows) => {
      const tenants = await store.tenantsOfStaff(tx, rows.map((row) => row.user.id));
      return rows.map((row) => ({
        ...toSummary(row),
        tenants: tenants.filter((tenant) => tenant.ownerId === row.user.id).map(({ id, code, name }) => ({ id, code, name })),
      }));
    }),
  );
}
