import type { LiveEvent } from '@rpm/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { queryKeysForEvent } from '../monitoring/query-keys';
import { refreshPatientLists, refreshPatients } from '../patients/patients-api';

/**
 * What an event changes on screen: lists, profiles and counts load again (only where shown). Each
 * feature says which of its query keys an event makes stale (monitoring: query-keys.ts).
 */
export function invalidateForEvent(queryClient: QueryClient, event: LiveEvent): void {
  // A patient's status (an SOS raises it too) moves the dashboard counts and the patient lists.
  if (event.type.startsWith('patient.') || event.type === 'sos.opened' || event.type === 'sos.updated') {
    refreshPatients(queryClient);
  } else if (event.type.startsWith('alert.') || event.type.startsWith('ticket.')) {
    // The triage columns: what crossed (alerts) and the open ticket.
    refreshPatientLists(queryClient);
  }
  // Booked, moved, cancelled or completed (also from the patient app): the appointment lists and
  // details (appointments-api.ts APPOINTMENTS_QUERY_ROOT, named here so the first screen does not load that file).
  if (event.type === 'appointment.changed')
    void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'appointments'] });
  for (const queryKey of queryKeysForEvent(event.type)) void queryClient.invalidateQueries({ queryKey });
}
