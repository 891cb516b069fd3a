import { eventInputSchema, type EventInput, type PatientEvent } from '@rpm/contracts';
import { localInputValue } from '../entry/entry-form';

/** An event as typed in the form: the time as a datetime-local value (the phone's time). */
export interface Draft {
  arrivalAt: string;
  label: string;
  icon: PatientEvent['icon'] | '';
  location: string;
  organizer: string;
  note: string;
}

export const emptyDraft = (): Draft => ({
  arrivalAt: localInputValue(new Date(Date.now() + 24 * 3_600_000)),
  label: '',
  icon: '',
  location: '',
  organizer: '',
  note: '',
});

const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());

/** The draft as the call's body, or the fields it lacks (spec §5: a time and an icon are required). */
export function eventInputOf(
  draft: Draft,
  status: PatientEvent['status'] = 'PLANNED',
): { input: EventInput; problems: null } | { input: null; problems: Partial<Record<keyof Draft, string>> } {
  const at = new Date(draft.arrivalAt);
  const candidate = {
    arrivalAt: Number.isNaN(at.getTime()) ? '' : at.toISOString(),
    label: draft.label.trim(),
    icon: draft.icon,
    location: optional(draft.location),
    organizer: optional(draft.organizer),
    note: optional(draft.note),
    status,
  };
  const parsed = eventInputSchema.safeParse(candidate);
  if (parsed.success) return { input: candidate as EventInput, problems: null };
  const problems: Partial<Record<keyof Draft, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in draft)
      problems[field as keyof Draft] = `events.problems.${field}`;
  }
  return { input: null, problems };
}
