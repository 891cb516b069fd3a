import {
  APPOINTMENT_TRANSITION_NAMES,
  APPOINTMENT_TRANSITIONS,
  type Appointment,
  type AppointmentTransition,
} from '@rpm/contracts';

/**
 * The transitions a user may make on an appointment now (spec §4, contracts
 * APPOINTMENT_TRANSITIONS): allowed from its state, the doctor's own ones only for its doctor,
 * with appointment.update, and cancelling also with appointment.cancel. The server checks the same.
 */
export function availableTransitions(
  appointment: Pick<Appointment, 'status' | 'doctor'>,
  userId: string,
  can: (permission: 'appointment.update' | 'appointment.cancel') => boolean,
): AppointmentTransition[] {
  return APPOINTMENT_TRANSITION_NAMES.filter((name) => {
    const rule = APPOINTMENT_TRANSITIONS[name];
    if (!(rule.from as readonly string[]).includes(appointment.status)) return false;
    if (rule.doctorOnly && appointment.doctor.id !== userId) return false;
    return can('appointment.update') && (name !== 'cancel' || can('appointment.cancel'));
  });
}

/** What a scanner typed or a person pasted: the token itself, or an address ending in it. */
export function tokenOf(scanned: string): string {
  const text = scanned.trim();
  const slash = text.lastIndexOf('/');
  return slash === -1 ? text : text.slice(slash + 1);
}
