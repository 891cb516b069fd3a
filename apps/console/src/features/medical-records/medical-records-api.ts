import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  medicalRecordSchema,
  pageOf,
  patientFileSchema,
  type MEDICAL_RECORD_SORT_FIELDS,
  type MedicalRecordInput,
  type MedicalRecordType,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { uploadWithProgress } from '../imports/imports-api';

/** Every medical-record read: one write refreshes the list and the detail. */
export const MEDICAL_RECORDS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'medical-records'] as const;
const enc = encodeURIComponent;
const recordsPath = (patientId: string) => `/account/patients/${enc(patientId)}/records`;
const recordPath = (patientId: string, recordId: string) => `${recordsPath(patientId)}/${enc(recordId)}`;

/** The address of one attachment's bytes (Content-Type of the file, shown inline). */
export const recordFilePath = (patientId: string, recordId: string, fileId: string) =>
  `${recordPath(patientId, recordId)}/files/${enc(fileId)}`;

export type MedicalRecordSortField = (typeof MEDICAL_RECORD_SORT_FIELDS)[number];

export interface MedicalRecordFilter {
  page: number;
  size: number;
  search: string;
  type: MedicalRecordType | null;
  sortField: MedicalRecordSortField;
  sortType: 'asc' | 'desc';
}

const medicalRecordPageSchema = pageOf(medicalRecordSchema);

/** A patient's medical records, paged, searched by title, place or doctor, by type. */
export const medicalRecordListQuery = (patientId: string, filter: MedicalRecordFilter) =>
  queryOptions({
    queryKey: [...MEDICAL_RECORDS_QUERY_ROOT, patientId, 'list', filter],
    queryFn: ({ signal }) => {
      return api.get(`${recordsPath(patientId)}?${listQuery(filter, { type: filter.type })}`, {
        schema: medicalRecordPageSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const medicalRecordDetailQuery = (patientId: string, recordId: string) =>
  queryOptions({
    queryKey: [...MEDICAL_RECORDS_QUERY_ROOT, patientId, 'detail', recordId],
    queryFn: ({ signal }) =>
      api.get(recordPath(patientId, recordId), { schema: medicalRecordSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function createMedicalRecord(patientId: string, input: MedicalRecordInput) {
  return api.post(recordsPath(patientId), input, { schema: medicalRecordSchema });
}

export function updateMedicalRecord(patientId: string, recordId: string, input: MedicalRecordInput) {
  return api.put(recordPath(patientId, recordId), input, { schema: medicalRecordSchema });
}

/** The record and its attachments go. */
export function deleteMedicalRecord(patientId: string, recordId: string) {
  return api.delete(recordPath(patientId, recordId), { schema: z.null() });
}

/** One attachment per call (jpg, png or pdf by its content, up to 10 MB), with upload progress. */
export function uploadRecordFile(
  patientId: string,
  recordId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
) {
  return uploadWithProgress(
    `${recordPath(patientId, recordId)}/files`,
    file,
    patientFileSchema,
    onProgress,
    signal,
  );
}

export function deleteRecordFile(patientId: string, recordId: string, fileId: string) {
  return api.delete(recordFilePath(patientId, recordId, fileId), { schema: z.null() });
}

/** After a write: the list and every detail load again. */
export function refreshMedicalRecords(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: MEDICAL_RECORDS_QUERY_ROOT });
}
