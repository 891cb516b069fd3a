import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { auditEntrySchema, pageOf, profileSchema, type ProfileUpdate } from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

const historyPageSchema = pageOf(auditEntrySchema);

/** The signed-in user's profile (spec §7 GET me/profile/get); under the session root, dropped at sign-out. */
export const profileQuery = (userId: string) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, userId, 'profile'],
    queryFn: ({ signal }) => api.get('/account/me/profile/get', { schema: profileSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export interface HistoryFilter {
  page: number;
  size: number;
  action: string | null;
}

/** One page of the caller's audit history, newest first (GET log/history). */
export const historyQuery = (userId: string, filter: HistoryFilter) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, userId, 'log-history', filter],
    queryFn: ({ signal }) => {
      return api.get(`/account/log/history?${listQuery(filter, { action: filter.action })}`, {
        schema: historyPageSchema,
        signal,
      });
    },
    // Keep the current page on screen while the next one loads: the table does not jump.
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** Where a role saves its own profile (spec §7): doctors and doctor assistants have their own calls. */
const PROFILE_PATH_OF_ROLE: Partial<Record<string, string>> = {
  DOCTOR: '/account/doctor/me/profile',
  DOCTOR_ASSISTANT: '/account/doctor-assistant/me/profile',
};

export function updateProfile(body: ProfileUpdate, role?: string) {
  const path = (role === undefined ? undefined : PROFILE_PATH_OF_ROLE[role]) ?? '/account/me/profile';
  return api.put(path, body, { schema: profileSchema });
}

export function updateLanguage(lang: string) {
  return api.post('/account/me/profile/update-language', { lang }, { schema: profileSchema });
}

export function updateTimeZone(tz: string) {
  return api.post('/account/me/profile/update-time-zone', { tz }, { schema: profileSchema });
}

export function changePassword(body: { password: string; newPassword: string }): Promise<unknown> {
  return api.post('/account/change-password', body);
}

export function uploadAvatar(file: File) {
  const body = new FormData();
  body.append('file', file);
  return api.post('/account/me/profile/upload-avatar', body, { schema: profileSchema });
}

/** The photo's address; `version` changes after an upload so the browser does not show the cached one. */
export function avatarUrl(version: number): string {
  return `/account/me/avatar?v=${String(version)}`;
}
