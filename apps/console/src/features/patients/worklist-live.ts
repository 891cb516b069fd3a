import type { PatientSummary } from '@rpm/contracts';

/**
 * The worklist as soon as an SOS case opens (the live `sos.opened` event), before the reload
 * confirms it: the patient's row moves to the top with its open case (an open case is the worst
 * attention, and the newest open case comes first, as the server orders it). A patient not on
 * the page waits for the reload, which brings the row.
 */
export function withOpenedCase<Page extends { items: PatientSummary[] }>(
  page: Page,
  opened: { patientId: string; sosCaseId: string },
): Page {
  const row = page.items.find((item) => item.id === opened.patientId);
  if (row === undefined) return page;
  const moved: PatientSummary = { ...row, attention: 'OPEN_SOS_CASE', openSosCaseId: opened.sosCaseId };
  return { ...page, items: [moved, ...page.items.filter((item) => item !== row)] };
}
