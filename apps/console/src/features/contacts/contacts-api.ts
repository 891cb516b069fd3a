import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { contactSchema, subUserSchema, type ContactInput } from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { CONTACTS_QUERY_KEY, SOS_CASES_QUERY_KEY } from '../monitoring/query-keys';
import { PATIENTS_QUERY_ROOT } from '../patients/patients-api';

const enc = encodeURIComponent;
const contactsPath = (patientId: string) => `/account/patients/${enc(patientId)}/contacts`;

/** A patient's followers in the server's order: favourite first, then emergency, then the oldest. */
export const patientFollowersQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...CONTACTS_QUERY_KEY, patientId],
    queryFn: ({ signal }) => api.get(contactsPath(patientId), { schema: z.array(contactSchema), signal }),
    meta: { errorDisplay: 'inline' },
  });

export function addFollower(patientId: string, input: ContactInput) {
  return api.post(contactsPath(patientId), input, { schema: contactSchema });
}

export function updateFollower(patientId: string, contactId: string, input: ContactInput) {
  return api.put(`${contactsPath(patientId)}/${enc(contactId)}`, input, { schema: contactSchema });
}

/** The contact becomes DELETED (kept for the record); a confirmed follower loses access at once. */
export function removeFollower(patientId: string, contactId: string) {
  return api.delete(`${contactsPath(patientId)}/${enc(contactId)}`, { schema: z.null() });
}

/** Sends the invitation SMS again (SENT or RESENT → RESENT; refused within 5 minutes of the last). */
export function resendInvitation(patientId: string, contactId: string) {
  return api.post(`${contactsPath(patientId)}/${enc(contactId)}/resend`, {}, { schema: contactSchema });
}

/** Followers show in the followers tab and on the patient's SOS cases (who is called, in order). */
export function refreshFollowers(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: CONTACTS_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: SOS_CASES_QUERY_KEY });
}

/**
 * The sub-user profiles a patient's account holds (spec §3 Sub-user). Under the patients' key: a
 * live status change of a sub-user reloads it with the patient lists.
 */
export const patientSubUsersQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...PATIENTS_QUERY_ROOT, 'sub-users', patientId],
    queryFn: ({ signal }) =>
      api.get(`/account/patients/${enc(patientId)}/sub-users`, { schema: z.array(subUserSchema), signal }),
    meta: { errorDisplay: 'inline' },
  });
