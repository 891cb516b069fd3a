import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  careReminderSchema,
  type CareReminderInput,
  intakeSchema,
  pageOf,
  prescriptionDetailSchema,
  prescriptionSummarySchema,
  usageHistorySchema,
  type PRESCRIPTION_SORT_FIELDS,
  type PrescriptionInput,
  type PrescriptionState,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every care-plan read (prescriptions, their usage, a patient's doses): one write refreshes them all. */
export const CARE_PLAN_QUERY_ROOT = [SESSION_QUERY_ROOT, 'care-plan'] as const;
const enc = encodeURIComponent;
const prescriptionsPath = (patientId: string) => `/health/patients/${enc(patientId)}/prescriptions`;
const prescriptionPath = (patientId: string, id: string) => `${prescriptionsPath(patientId)}/${enc(id)}`;

export type PrescriptionSortField = (typeof PRESCRIPTION_SORT_FIELDS)[number];

export interface PrescriptionFilter {
  page: number;
  size: number;
  search: string;
  state: PrescriptionState | null;
  sortField: PrescriptionSortField;
  sortType: 'asc' | 'desc';
}

const prescriptionPageSchema = pageOf(prescriptionSummarySchema);

/** A patient's prescriptions, paged, searched by name or RX number, by state (spec §4, on the patient's day). */
export const prescriptionListQuery = (patientId: string, filter: PrescriptionFilter) =>
  queryOptions({
    queryKey: [...CARE_PLAN_QUERY_ROOT, patientId, 'list', filter],
    queryFn: ({ signal }) => {
      return api.get(`${prescriptionsPath(patientId)}?${listQuery(filter, { state: filter.state })}`, {
        schema: prescriptionPageSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const prescriptionDetailQuery = (patientId: string, id: string) =>
  queryOptions({
    queryKey: [...CARE_PLAN_QUERY_ROOT, patientId, 'detail', id],
    queryFn: ({ signal }) =>
      api.get(prescriptionPath(patientId, id), { schema: prescriptionDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** The doses of a prescription per medicine and day, with adherence (spec §2 usage history). */
export const usageHistoryQuery = (patientId: string, id: string) =>
  queryOptions({
    queryKey: [...CARE_PLAN_QUERY_ROOT, patientId, 'usage', id],
    queryFn: ({ signal }) =>
      api.get(`${prescriptionPath(patientId, id)}/usage`, { schema: usageHistorySchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** A patient's doses of one local day; null asks for the patient's today (the server knows their zone). */
export const intakesQuery = (patientId: string, date: string | null) =>
  queryOptions({
    queryKey: [...CARE_PLAN_QUERY_ROOT, patientId, 'intakes', date],
    queryFn: ({ signal }) =>
      api.get(`/health/patients/${enc(patientId)}/intakes${date === null ? '' : `?date=${enc(date)}`}`, {
        schema: z.array(intakeSchema),
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export function createPrescription(patientId: string, input: PrescriptionInput) {
  return api.post(prescriptionsPath(patientId), input, { schema: prescriptionDetailSchema });
}

/** Spec §4: the server deactivates the old one and writes its successor; answers the new one. */
export function replacePrescription(patientId: string, id: string, input: PrescriptionInput) {
  return api.put(prescriptionPath(patientId, id), input, { schema: prescriptionDetailSchema });
}

/** Permanent: hidden from the patient, its coming doses dropped. */
export function deactivatePrescription(patientId: string, id: string) {
  return api.put(`${prescriptionPath(patientId, id)}/deactivate`, {}, { schema: prescriptionDetailSchema });
}

/** A write changes the list, the detail, the usage and the doses of the day. */
export function refreshCarePlan(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: CARE_PLAN_QUERY_ROOT });
}

const remindersPath = (patientId: string) => `/health/patients/${enc(patientId)}/reminders`;
const careRemindersSchema = z.array(careReminderSchema);

/** A patient's care reminders (not a medicine's doses), newest first. */
export const careRemindersQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...CARE_PLAN_QUERY_ROOT, patientId, 'reminders'],
    queryFn: ({ signal }) => api.get(remindersPath(patientId), { schema: careRemindersSchema, signal }),
  });

export function createCareReminder(patientId: string, input: CareReminderInput) {
  return api.post(remindersPath(patientId), input, { schema: careReminderSchema });
}

export function deleteCareReminder(patientId: string, id: string) {
  return api.delete(`${remindersPath(patientId)}/${enc(id)}`);
}
