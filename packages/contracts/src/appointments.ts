import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { safeNote, safeText } from './text.js';

/**
 * Appointments (spec §3 Appointment; §4 appointment states; §5 "creating an appointment needs
 * customer, doctor and time slot", cancel reasons required; §6 operators and doctors create and
 * edit, doctors diagnose): a patient's visit in one slot of a doctor's approved schedule.
 */
export const APPOINTMENT_STATUSES = [
  'UPCOMING',
  'WAITING_FOR_DOCTOR',
  'EXAMINING',
  'PENDING',
  'COMPLETED',
  'CANCELED',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** States in which the appointment holds its slot and its patient's time. */
export const APPOINTMENT_OPEN_STATUSES = [
  'UPCOMING',
  'WAITING_FOR_DOCTOR',
  'EXAMINING',
  'PENDING',
] as const satisfies readonly AppointmentStatus[];

export const APPOINTMENT_PLACES = ['CLINIC', 'PATIENT_ADDRESS', 'ONLINE'] as const;
export type AppointmentPlace = (typeof APPOINTMENT_PLACES)[number];

/**
 * The transitions (spec §4) as data: from which states, to which one, whether only the
 * appointment's own doctor makes it, and what it needs. Checking in is the patient arriving (the
 * front desk, or the sheet's QR code); the doctor starts the examination, may hold it pending (a
 * test result to come) and completes it with a diagnosis and advice; cancelling needs a reason.
 */
export const APPOINTMENT_TRANSITIONS = {
  checkIn: { from: ['UPCOMING'], to: 'WAITING_FOR_DOCTOR', doctorOnly: false },
  start: { from: ['UPCOMING', 'WAITING_FOR_DOCTOR', 'PENDING'], to: 'EXAMINING', doctorOnly: true },
  hold: { from: ['EXAMINING'], to: 'PENDING', doctorOnly: true },
  complete: { from: ['EXAMINING', 'PENDING'], to: 'COMPLETED', doctorOnly: true },
  cancel: { from: ['UPCOMING', 'WAITING_FOR_DOCTOR', 'PENDING'], to: 'CANCELED', doctorOnly: false },
} as const satisfies Record<
  string,
  { from: readonly AppointmentStatus[]; to: AppointmentStatus; doctorOnly: boolean }
>;
export type AppointmentTransition = keyof typeof APPOINTMENT_TRANSITIONS;
export const APPOINTMENT_TRANSITION_NAMES = Object.keys(APPOINTMENT_TRANSITIONS) as [
  AppointmentTransition,
  ...AppointmentTransition[],
];

export const appointmentInputSchema = z.object({
  patientId: z.uuid(),
  doctorId: z.uuid(),
  /** The slot's start: one of the doctor's free slots (GET /account/doctors/:id/slots). */
  startAt: z.iso.datetime({ offset: true }),
  reason: safeText().min(1).max(500),
  note: safeNote(1000).optional(),
  place: z.enum(APPOINTMENT_PLACES).default('CLINIC'),
  paid: z.boolean().default(false),
});
export type AppointmentInput = z.input<typeof appointmentInputSchema>;

/** PUT: the details of an appointment still to come; moving it is choosing another free slot. */
export const appointmentUpdateSchema = appointmentInputSchema.omit({ patientId: true, doctorId: true });
export type AppointmentUpdate = z.input<typeof appointmentUpdateSchema>;

/** A transition with what it needs: complete a diagnosis and advice, cancel a reason. */
export const appointmentTransitionSchema = z.object({
  action: z.enum(APPOINTMENT_TRANSITION_NAMES),
  diagnosis: safeNote(2000).optional(),
  advice: safeNote(2000).optional(),
  reason: safeText().max(500).optional(),
});
export type AppointmentTransitionInput = z.input<typeof appointmentTransitionSchema>;

const person = z.object({ id: z.uuid(), fullName: z.string() });

export const appointmentSchema = z.object({
  id: z.uuid(),
  patient: person.extend({ patientCode: z.string() }),
  doctor: person,
  scheduleId: z.uuid(),
  startAt: z.string(),
  endAt: z.string(),
  reason: z.string(),
  note: z.string().nullable(),
  place: z.enum(APPOINTMENT_PLACES),
  paid: z.boolean(),
  status: z.enum(APPOINTMENT_STATUSES),
  /** Still waiting to start after its start time (spec §4 overdue indicator), at the server's clock. */
  overdue: z.boolean(),
  diagnosis: z.string().nullable(),
  advice: z.string().nullable(),
  cancelReason: z.string().nullable(),
  createdBy: person.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const appointmentListQuerySchema = pageQuerySchema.extend({
  status: z.enum(APPOINTMENT_STATUSES).optional(),
  doctorId: z.uuid().optional(),
  patientId: z.uuid().optional(),
  /** Days (inclusive) the appointments start on, in UTC instants' terms of the caller's choosing. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  search: safeText().max(80).optional().describe('Part of the patient’s name or code'),
  sortType: z.enum(['asc', 'desc']).default('asc'),
});
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

export const slotQuerySchema = z.object({ date: z.iso.date() });

/** One slot of a doctor's approved schedule on a day. */
export const appointmentSlotSchema = z.object({
  scheduleId: z.uuid(),
  startAt: z.string(),
  endAt: z.string(),
  free: z.boolean(),
});
export type AppointmentSlot = z.infer<typeof appointmentSlotSchema>;

/** The check-in token an appointment sheet prints as a QR code, and the scan that uses it. */
export const appointmentCheckInTokenSchema = z.object({ token: z.string(), startAt: z.string() });
export const appointmentCheckInSchema = z.object({ token: z.string().min(1).max(200) });

/**
 * The patient app's view of an appointment (spec §2 patient app events and appointment states:
 * invited, updated, cancelled): INVITED booked for the patient by staff, BOOKED by the patient in
 * the app, UPDATED changed since (moved or edited) while still to come; then waiting for the
 * doctor, in progress (examining or pending), completed, cancelled.
 */
export const APP_APPOINTMENT_STATES = [
  'INVITED',
  'BOOKED',
  'UPDATED',
  'WAITING',
  'IN_PROGRESS',
  'COMPLETED',
  'CANCELED',
] as const;
export type AppAppointmentState = (typeof APP_APPOINTMENT_STATES)[number];

export function appAppointmentState(
  appointment: Pick<Appointment, 'status' | 'createdAt' | 'updatedAt' | 'createdBy'>,
  /** The accounts that book as the patient: its own login, or the holder of a sub-user. */
  patientAccounts: readonly string[],
): AppAppointmentState {
  switch (appointment.status) {
    case 'UPCOMING':
      if (appointment.updatedAt !== appointment.createdAt) return 'UPDATED';
      return appointment.createdBy !== null && patientAccounts.includes(appointment.createdBy.id)
        ? 'BOOKED'
        : 'INVITED';
    case 'WAITING_FOR_DOCTOR':
      return 'WAITING';
    case 'EXAMINING':
    case 'PENDING':
      return 'IN_PROGRESS';
    case 'COMPLETED':
      return 'COMPLETED';
    case 'CANCELED':
      return 'CANCELED';
  }
}

export const myAppointmentSchema = appointmentSchema.extend({
  appState: z.enum(APP_APPOINTMENT_STATES),
  /** Online appointments: whether the video room is open now (10 minutes before to the end). */
  videoOpen: z.boolean(),
});
export type MyAppointment = z.infer<typeof myAppointmentSchema>;

/** GET /health/me/appointments: upcoming (still to come or open, soonest first) or past (latest first). */
export const myAppointmentListQuerySchema = pageQuerySchema.extend({
  when: z.enum(['upcoming', 'past']).default('upcoming'),
});
export type MyAppointmentListQuery = z.infer<typeof myAppointmentListQuerySchema>;

/** POST /health/me/appointments: the patient books a free slot of a doctor for the profile. */
export const myAppointmentInputSchema = appointmentInputSchema
  .omit({ patientId: true, paid: true })
  .extend({ place: z.enum(['CLINIC', 'ONLINE']).default('CLINIC') });
export type MyAppointmentInput = z.input<typeof myAppointmentInputSchema>;

/** POST /health/me/appointments/:id/cancel: the patient calls off one still to come. */
export const myAppointmentCancelSchema = z.object({ reason: safeText().min(1).max(500) });

/** How long before its start the video room of an online appointment opens (to the slot's end). */
export const VIDEO_ROOM_OPENS_MINUTES = 10;

/** One ICE server for RTCPeerConnection (STUN, or TURN with short-lived credentials). */
export const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/** GET …/appointments/:id/video: what a party needs to join the appointment's video room. */
export const appointmentVideoSchema = z.object({
  appointmentId: z.uuid(),
  /** The caller's side of the call. */
  role: z.enum(['DOCTOR', 'PATIENT']),
  peerName: z.string(),
  patientId: z.uuid(),
  opensAt: z.string(),
  closesAt: z.string(),
  isOpen: z.boolean(),
  iceServers: z.array(iceServerSchema),
});
export type AppointmentVideo = z.infer<typeof appointmentVideoSchema>;
