import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  doctorAssistantSummarySchema,
  pageOf,
  PLATFORM_ROLES,
  staffDetailSchema,
  staffSummarySchema,
  systemAdminSummarySchema,
  type ACCOUNT_STATUSES,
  type DeactivationDuration,
  type StaffCreate,
  type StaffList,
  type StaffUpdate,
} from '@rpm/contracts';
import { type z } from 'zod';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { LEVELS_QUERY_ROOT } from '../levels/levels-api';
import { ORG_QUERY_ROOT } from '../org/scopes-api';

export const STAFF_QUERY_ROOT = [SESSION_QUERY_ROOT, 'staff'] as const;

/** Where each list of spec §2 lives (contracts STAFF_LISTS says which roles each shows). */
export const STAFF_LIST_PATHS: Record<StaffList, string> = {
  employee: '/account/admin/employee',
  scopeAdmin: '/account/admin/scope-admin',
  mhscAdmin: '/account/admin/mhsc-admin',
  mhscDoctor: '/account/admin/mhsc-doctor',
  doctorAssistant: '/account/admin/doctor-assistant',
  systemAdmin: '/account/sadmin/system-admin',
  superAdmin: '/account/sadmin/super-admin',
};

/** ROOT, SUPER_ADMIN and SYSTEM_ADMIN: the platform's staff, who act in a tenant they choose. */
export const isPlatformRole = (role: string): boolean => (PLATFORM_ROLES as readonly string[]).includes(role);

/** Lists of the platform's own accounts: not filtered by center (they belong to none). */
export const PLATFORM_LISTS: readonly StaffList[] = ['systemAdmin', 'superAdmin'];

/** Every list answers summaries; two add a column (an assistant's doctors, a system admin's tenants). */
const staffRowSchema = staffSummarySchema.extend({
  doctors: doctorAssistantSummarySchema.shape.doctors.optional(),
  tenants: systemAdminSummarySchema.shape.tenants.optional(),
});
export type StaffRow = z.infer<typeof staffRowSchema>;
const staffPageSchema = pageOf(staffRowSchema);

export type StaffSortField = 'name' | 'created' | 'status';
export interface StaffFilter {
  page: number;
  size: number;
  search: string;
  sortField: StaffSortField;
  sortType: 'asc' | 'desc';
  status: (typeof ACCOUNT_STATUSES)[number] | null;
  centerId: string | null;
}

export const staffListQuery = (list: StaffList, filter: StaffFilter) =>
  queryOptions({
    queryKey: [...STAFF_QUERY_ROOT, 'list', list, filter],
    queryFn: ({ signal }) => {
      const query = listQuery(filter, { status: filter.status, centerId: filter.centerId });
      return api.get(`${STAFF_LIST_PATHS[list]}?${query}`, { schema: staffPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const staffDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...STAFF_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) =>
      api.get(`/account/admin/staff/${encodeURIComponent(id)}`, { schema: staffDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** A staff change can change a center's admins or counts too: refresh those screens as well. */
export function refreshStaff(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: STAFF_QUERY_ROOT });
  void queryClient.invalidateQueries({ queryKey: ORG_QUERY_ROOT });
  void queryClient.invalidateQueries({ queryKey: LEVELS_QUERY_ROOT });
}

const staffPath = (id: string, rest = '') => `/account/admin/staff/${encodeURIComponent(id)}${rest}`;

export function createStaff(input: StaffCreate) {
  return api.post('/account/admin/staff', input, { schema: staffDetailSchema });
}

export function updateStaff(id: string, input: StaffUpdate) {
  return api.put(staffPath(id), input, { schema: staffDetailSchema });
}

export function disableStaff(
  id: string,
  input: { duration: DeactivationDuration; reason?: string | undefined },
) {
  return api.post(staffPath(id, '/disable'), input, { schema: staffDetailSchema });
}

export function enableStaff(id: string) {
  return api.post(staffPath(id, '/enable'), {}, { schema: staffDetailSchema });
}

export function addStaffLevel(
  id: string,
  input: { role: string; scopeId: string | null; centerId: string | null },
) {
  return api.post(staffPath(id, '/levels'), input, { schema: staffDetailSchema });
}

export function removeStaffLevel(id: string, levelId: string) {
  return api.delete(staffPath(id, `/levels/${encodeURIComponent(levelId)}`), { schema: staffDetailSchema });
}
