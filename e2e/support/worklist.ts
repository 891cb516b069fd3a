import type { Page } from 'playwright-core';
import { callFromPage } from './api.js';

/** A patient of the signed-in doctor's list, as the API answers it. */
export interface PatientRow {
  id: string;
  fullName: string;
  status: string;
  attention: string;
  openSosCaseId: string | null;
}

/** The signed-in doctor's own patients, worst first (one page of 50). */
export async function myPatients(page: Page): Promise<PatientRow[]> {
  const answer = await callFromPage<{ items: PatientRow[] }>(
    page,
    'GET',
    '/account/patients?scope=mine&sortField=severity&sortType=desc&size=50',
  );
  return answer.items;
}

/**
 * Makes sure one of the doctor's patients is at risk, whatever the demo data holds (puts a normal
 * one at risk, as the doctor would), and answers the list as it is then.
 */
export async function withAtRiskPatient(page: Page): Promise<PatientRow[]> {
  const items = await myPatients(page);
  if (items.some((row) => row.status === 'AT_RISK')) return items;
  const normal = items.find((row) => row.status === 'NORMAL');
  if (normal === undefined) throw new Error('no patient to put at risk');
  await callFromPage(page, 'PUT', `/account/patients/${normal.id}/status`, {
    status: 'AT_RISK',
    reason: 'Blood pressure rising over three days',
  });
  return myPatients(page);
}

/** The rows of the home's triage worklist, top first: which patient and why it stands there. */
export function worklistRows(page: Page): Promise<{ id: string; attention: string }[]> {
  return page
    .getByTestId('patient-worklist')
    .getByTestId('worklist-row')
    .evaluateAll((elements) =>
      elements.map((row) => ({
        id: row.getAttribute('data-patient-id') ?? '',
        attention: row.getAttribute('data-attention') ?? '',
      })),
    );
}
