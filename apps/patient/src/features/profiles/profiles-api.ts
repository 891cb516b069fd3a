import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { appProfileSchema, subUserSchema, type AppProfile, type SubUser, type SubUserInput } from '@rpm/contracts';
import { z } from 'zod';
import { apiRequest } from '../../api/client';
import { setActiveProfile } from '../../api/profile-store';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/**
 * The account's profiles and sub-users. These calls are about the account itself, whatever profile
 * is active, so they never carry the profile header (`ownRecord`).
 */
export const PROFILES_KEY = ['appProfiles'] as const;

const profileListSchema = z.array(appProfileSchema);
const subUserListSchema = z.array(subUserSchema);
const asAccount = { ownRecord: true } as const;

/** `GET /health/me/profiles`: own first, then sub-users, then followed patients. */
export const profilesQuery = () =>
  queryOptions({
    queryKey: [...PROFILES_KEY, 'profiles'],
    queryFn: () => apiRequest('GET', '/health/me/profiles', undefined, profileListSchema, asAccount),
    staleTime: 60_000,
  });

export const subUsersQuery = () =>
  queryOptions({
    queryKey: [...PROFILES_KEY, 'sub-users'],
    queryFn: () => apiRequest('GET', '/health/me/sub-users', undefined, subUserListSchema, asAccount),
  });

export function createSubUser(input: SubUserInput): Promise<SubUser> {
  return apiRequest('POST', '/health/me/sub-users', input, subUserSchema, asAccount);
}

export function updateSubUser(id: string, input: SubUserInput): Promise<SubUser> {
  return apiRequest('PUT', `/health/me/sub-users/${encodeURIComponent(id)}`, input, subUserSchema, asAccount);
}

export async function deleteSubUser(id: string): Promise<void> {
  await apiRequest('DELETE', `/health/me/sub-users/${encodeURIComponent(id)}`, undefined, undefined, asAccount);
}

/** Queries about the account rather than a profile: kept when the app switches profile. */
function isAccountQuery(key: readonly unknown[]): boolean {
  if (key[0] === PROFILES_KEY[0] || key[0] === 'public') return true;
  return key[0] === SESSION_QUERY_ROOT && (key[1] === 'check-token' || key[1] === 'profile');
}

/**
 * Makes `profile` the one the app works on (the own record when it is OWN or null) and drops every
 * answer fetched for the previous one; the screens on show fetch again under the new profile.
 */
export async function switchProfile(queryClient: QueryClient, profile: AppProfile | null): Promise<void> {
  setActiveProfile(
    profile === null || profile.kind === 'OWN'
      ? null
      : {
          patientId: profile.patientId,
          kind: profile.kind,
          name: profile.name,
          readOnly: profile.readOnly,
          canRaiseSos: profile.canRaiseSos,
        },
  );
  await queryClient.resetQueries({ predicate: (query) => !isAccountQuery(query.queryKey) });
}
