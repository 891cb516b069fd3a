import {
  contactSchema,
  followedPatientSchema,
  receivedInvitationSchema,
  type FollowedPatient,
  type FollowerHidden,
  type FollowerInvite,
  type FollowerUpdate,
  type InvitationConfirm,
} from '@rpm/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, type ResponseSchema } from '../../api/client';
import { activeProfile, type ActiveProfile } from '../../api/profile-store';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { PROFILES_KEY, profilesQuery, switchProfile } from '../profiles/profiles-api';

/*
 * The invitations sent to the account's phone and the patients it follows are the account's own,
 * whichever profile the app shows: those calls go without the profile header (`ownRecord`). The
 * followers are a record's: a sub-user on screen has its own, managed by its holder; on the own
 * record or a followed patient's (read only for this account) the screens manage the account's.
 */

const OWN = { ownRecord: true } as const;
const get = <T>(path: string, schema: ResponseSchema<T>) => apiRequest('GET', path, undefined, schema, OWN);
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, schema?: ResponseSchema<T>) =>
  apiRequest(method, path, body, schema, OWN);

/** The sub-user whose followers the screens manage, or null for the account's own record. */
export function followersOwner(): ActiveProfile | null {
  const profile = activeProfile();
  return profile?.kind === 'SUB_USER' ? profile : null;
}
const forFollowers = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, schema?: ResponseSchema<T>) =>
  apiRequest(method, path, body, schema, followersOwner() === null ? OWN : {});

/** Query keys of this feature, under the session root (a logout or a profile switch clears them). */
export const CONTACT_KEYS = {
  all: [SESSION_QUERY_ROOT, 'contacts'] as const,
  followers: [SESSION_QUERY_ROOT, 'contacts', 'followers'] as const,
  invitations: [SESSION_QUERY_ROOT, 'contacts', 'invitations'] as const,
  following: [SESSION_QUERY_ROOT, 'contacts', 'following'] as const,
  /** The header's profile list (profiles feature), which names the followed patients too. */
  profiles: PROFILES_KEY,
};

/** How often "My patients" refreshes, so a followed patient's status and SOS look live. */
export const FOLLOWED_REFRESH_MS = 10_000;

export const followersQuery = () => ({
  queryKey: [...CONTACT_KEYS.followers, followersOwner()?.patientId ?? 'own'] as const,
  queryFn: () => forFollowers('GET', '/health/me/followers', undefined, z.array(contactSchema)),
});

export const invitationsQuery = () => ({
  queryKey: CONTACT_KEYS.invitations,
  queryFn: () => get('/health/me/invitations', z.array(receivedInvitationSchema)),
});

export const followingQuery = () => ({
  queryKey: CONTACT_KEYS.following,
  queryFn: () => get('/health/me/following', z.array(followedPatientSchema)),
});

const path = (id: string) => `/health/me/followers/${encodeURIComponent(id)}`;

export const inviteFollower = (body: FollowerInvite) => forFollowers('POST', '/health/me/followers', body, contactSchema);
export const updateFollower = (id: string, body: FollowerUpdate) => forFollowers('PUT', path(id), body, contactSchema);
export const setHiddenKinds = (id: string, body: FollowerHidden) =>
  forFollowers('PUT', `${path(id)}/hidden`, body, contactSchema);
export const resendInvitation = (id: string) => forFollowers('POST', `${path(id)}/resend`, undefined, contactSchema);
export const removeFollower = (id: string) => forFollowers('DELETE', path(id));

const invitationPath = (id: string, action: 'confirm' | 'decline') =>
  `/health/me/invitations/${encodeURIComponent(id)}/${action}`;
/** Confirming needs the code of the invitation SMS: only the holder of the invited phone has it. */
export const confirmInvitation = (id: string, body: InvitationConfirm) =>
  send('POST', invitationPath(id, 'confirm'), body, followedPatientSchema);
export const declineInvitation = (id: string) => send('POST', invitationPath(id, 'decline'));
export const stopFollowing = (contactId: string) => send('DELETE', `/health/me/following/${encodeURIComponent(contactId)}`);

/**
 * Switches the app to a followed patient, read only (the profile header goes on every call from
 * now on), the way the header's profile switcher does: the account's profile list is fetched
 * again first, so the switcher knows the patient (a list from before the confirmation would send
 * the app straight back to the own record), then what was loaded for the previous profile is reset.
 */
export async function openFollowedPatient(
  queryClient: QueryClient,
  patient: Pick<FollowedPatient, 'patientId' | 'name' | 'status' | 'hiddenKinds'>,
): Promise<void> {
  await queryClient.query({ ...profilesQuery(), staleTime: 0 }).catch(() => undefined);
  await switchProfile(queryClient, { ...patient, kind: 'FOLLOWED', readOnly: true, canRaiseSos: false });
}
