import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  assignableUserSchema,
  customRoleSchema,
  defaultRoleSchema,
  pageOf,
  type Permission,
  type RoleCode,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Everything about roles sits under one key, so a change can refresh all of it at once. */
export const ROLES_QUERY_ROOT = [SESSION_QUERY_ROOT, 'roles'] as const;

const customRolePageSchema = pageOf(customRoleSchema);
const assignableUserPageSchema = pageOf(assignableUserSchema);
const defaultRolesSchema = defaultRoleSchema.array();

function pageQuery(page: number, size: number, search: string): string {
  const query = new URLSearchParams({ page: String(page), size: String(size) });
  if (search.trim() !== '') query.set('search', search.trim());
  return query.toString();
}

export const defaultRolesQuery = () =>
  queryOptions({
    queryKey: [...ROLES_QUERY_ROOT, 'default'],
    queryFn: ({ signal }) => api.get('/account/role/default', { schema: defaultRolesSchema, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorDisplay: 'inline' },
  });

export const customRolesQuery = (page: number, size: number, search: string) =>
  queryOptions({
    queryKey: [...ROLES_QUERY_ROOT, 'custom', { page, size, search }],
    queryFn: ({ signal }) =>
      api.get(`/account/role?${pageQuery(page, size, search)}`, { schema: customRolePageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const customRoleQuery = (id: string) =>
  queryOptions({
    queryKey: [...ROLES_QUERY_ROOT, 'custom', id],
    queryFn: ({ signal }) =>
      api.get(`/account/role/${encodeURIComponent(id)}`, { schema: customRoleSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const assignableUsersQuery = (search: string, page: number, size: number) =>
  queryOptions({
    queryKey: [...ROLES_QUERY_ROOT, 'assignable-users', { search, page, size }],
    queryFn: ({ signal }) =>
      api.get(`/account/role/assignable-users?${pageQuery(page, size, search)}`, {
        schema: assignableUserPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export interface RoleInput {
  name: string;
  description: string;
  baseRole: RoleCode;
  permissions: Permission[];
}

export function createRole(input: RoleInput) {
  return api.post('/account/role', input, { schema: customRoleSchema });
}

export function updateRole(id: string, input: RoleInput) {
  return api.put(`/account/role/${encodeURIComponent(id)}`, input, { schema: customRoleSchema });
}

export function deleteRole(id: string): Promise<unknown> {
  return api.delete(`/account/role/${encodeURIComponent(id)}`);
}

/** Gives a user a default role (its code) or a custom role (its id); the user's sessions end. */
export function assignRole(userId: string, role: string) {
  return api.put('/account/admin/user/role', { userId, role }, { schema: assignableUserSchema });
}
