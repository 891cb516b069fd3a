import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  activationCodeSchema,
  codePackageSchema,
  pageOf,
  type CodePackageInput,
  type CodeState,
} from '@rpm/contracts';
import { ApiError, networkError, readEnvelope } from '../../api/api-error';
import { api, refreshSession } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { currentLanguage } from '../../i18n';
import { downloadFile, fileNameOf } from '../imports/imports-api';
import { PACKAGES_QUERY_ROOT } from './packages-api';

/** Under the packages' root: a change of a package (disabled, renamed) shows in its batches too. */
export const CODE_PACKAGES_QUERY_ROOT = [...PACKAGES_QUERY_ROOT, 'codes'] as const;
const enc = encodeURIComponent;

export type CodePackageSortField = 'created' | 'name' | 'expires';
export interface CodePackageFilter {
  page: number;
  size: number;
  search: string;
  sortField: CodePackageSortField;
  sortType: 'asc' | 'desc';
}

export interface ActivationCodeFilter {
  page: number;
  size: number;
  search: string;
  state: CodeState | null;
}

const codePackagePageSchema = pageOf(codePackageSchema);
const activationCodePageSchema = pageOf(activationCodeSchema);

export const codePackageListQuery = (filter: CodePackageFilter) =>
  queryOptions({
    queryKey: [...CODE_PACKAGES_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/code-packages?${listQuery(filter)}`, { schema: codePackagePageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const codePackageQuery = (id: string) =>
  queryOptions({
    queryKey: [...CODE_PACKAGES_QUERY_ROOT, 'one', id],
    queryFn: ({ signal }) => api.get(`/account/code-packages/${enc(id)}`, { schema: codePackageSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const activationCodeListQuery = (codePackageId: string, filter: ActivationCodeFilter) =>
  queryOptions({
    queryKey: [...CODE_PACKAGES_QUERY_ROOT, 'codes', codePackageId, filter],
    queryFn: ({ signal }) =>
      api.get(
        `/account/code-packages/${enc(codePackageId)}/codes?${listQuery(
          { page: filter.page, size: filter.size, search: filter.search },
          { state: filter.state },
        )}`,
        { schema: activationCodePageSchema, signal },
      ),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** The spreadsheet of a new batch: its secret codes, answered once by the generating call. */
export interface GeneratedCodes {
  codePackageId: string;
  file: Blob;
  fileName: string;
}

async function postGenerate(input: CodePackageInput): Promise<GeneratedCodes> {
  const path = '/account/code-packages';
  const request = { method: 'POST', path };
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        Accept: 'application/json, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'Accept-Language': currentLanguage(),
        'Content-Type': 'application/json',
      },
      credentials: 'same-origin',
      body: JSON.stringify(input),
    });
  } catch (error) {
    throw networkError(request, error);
  }
  // A refusal is the API's envelope, read as every other call's.
  if (!response.ok) await readEnvelope(response, request);
  const codePackageId = response.headers.get('x-code-package-id');
  if (codePackageId === null) throw new ApiError({ kind: 'invalidResponse', status: response.status, request });
  return { codePackageId, file: await response.blob(), fileName: fileNameOf(response, `codes-${input.prefix}.xlsx`) };
}

/**
 * Generates a batch: the answer is the .xlsx of its series and secret codes (the only time they
 * exist outside the printing) and the batch's id in X-Code-Package-Id. An expired access token is
 * renewed once and the call sent again (the refused call stored nothing).
 */
export async function generateCodePackage(input: CodePackageInput): Promise<GeneratedCodes> {
  try {
    return await postGenerate(input);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'auth.sessionExpired' || !(await refreshSession())) throw error;
    return postGenerate(input);
  }
}

/** Hands a file held in memory to the browser as a download. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

/** The code list as .xlsx (series, state, dates; never a secret code). */
export function exportCodeList(codePackageId: string, prefix: string): Promise<void> {
  return downloadFile(`/account/code-packages/${enc(codePackageId)}/export`, `code-list-${prefix}.xlsx`);
}

/** Every unpaid code of the batch becomes paid (the organisation paid). */
export function markCodePackagePaid(codePackageId: string) {
  return api.put(`/account/code-packages/${enc(codePackageId)}/state`, { action: 'markPaid' }, { schema: codePackageSchema });
}

/** Locks one code (refused when entered) or unlocks it (back to not paid or paid). */
export function setCodeLocked(codeId: string, isLocked: boolean) {
  return api.put(
    `/account/activation-codes/${enc(codeId)}/state`,
    { action: isLocked ? 'lock' : 'unlock' },
    { schema: codePackageSchema },
  );
}

export function refreshCodePackages(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: CODE_PACKAGES_QUERY_ROOT });
}
