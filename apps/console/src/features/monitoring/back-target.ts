/**
 * Where the back link of an SOS case or a ticket leads. Those who handle cases and tickets
 * (health.sos) go to the list; a doctor cannot open that list, so they go back to the page they
 * came from (their triage home, the patient, the SOS popup's page) and, when the page was opened
 * directly (a typed or bookmarked address), to the patient, or home for someone who may not open
 * patients (user.view).
 */
export type BackTarget =
  | { kind: 'list' }
  | { kind: 'previous' }
  | { kind: 'patient'; patientId: string }
  | { kind: 'home' };

export function backTargetFor(input: {
  canOpenList: boolean;
  hasPrevious: boolean;
  canOpenPatient: boolean;
  patientId: string;
}): BackTarget {
  if (input.canOpenList) return { kind: 'list' };
  if (input.hasPrevious) return { kind: 'previous' };
  if (input.canOpenPatient) return { kind: 'patient', patientId: input.patientId };
  return { kind: 'home' };
}
