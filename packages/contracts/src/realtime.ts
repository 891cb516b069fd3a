import { z } from 'zod';

/**
 * The live channel (`GET /ws`, WebSocket, JSON text frames). The client authenticates with its
 * session (the console's cookie, or `Authorization: Bearer`), then sends `resume` once: the
 * server replays every event it may see with an id above `after` (null: nothing, live from now),
 * sends `resumed`, then streams new events as they commit. Event ids increase in commit order
 * within a tenant, so "after the last id I saw" misses nothing and repeats nothing.
 */
export const liveResumeSchema = z.object({
  type: z.literal('resume'),
  after: z.number().int().nonnegative().nullable(),
});

/**
 * Signalling of an appointment's video call (WebRTC), relayed by the server to the other party of
 * the appointment only, while its room is open. `ready`: I am in the room (the doctor answers a
 * patient's `ready` with an offer; the patient answers a doctor's `ready` with its own `ready`);
 * `description`: an SDP offer or answer; `candidate`: an ICE candidate (null: no more); `leave`:
 * hung up, which ends the call for both. `session` numbers the doctor's offers: an answer or a
 * candidate of an earlier offer is dropped.
 */
const callSession = z.number().int().min(0).max(1_000_000_000);
export const callSignalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('leave') }),
  z.object({
    kind: z.literal('description'),
    session: callSession,
    description: z.object({ type: z.enum(['offer', 'answer']), sdp: z.string().max(30_000) }),
  }),
  z.object({
    kind: z.literal('candidate'),
    session: callSession,
    candidate: z
      .object({
        candidate: z.string().max(1000),
        sdpMid: z.string().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable(),
  }),
]);
export type CallSignal = z.infer<typeof callSignalSchema>;

export const liveCallSchema = z.object({
  type: z.literal('call'),
  appointmentId: z.uuid(),
  signal: callSignalSchema,
});
export type LiveCall = z.infer<typeof liveCallSchema>;

export const liveClientMessageSchema = z.discriminatedUnion('type', [liveResumeSchema, liveCallSchema]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

/** The server took the caller into the room (an answer to its `ready`). */
export const liveCallJoinedSchema = z.object({ type: z.literal('callJoined'), appointmentId: z.uuid() });
/** A call message the server did not relay: video.notAParty, video.notOnline, video.roomClosed, appointment.notFound. */
export const liveCallRefusedSchema = z.object({
  type: z.literal('callRefused'),
  appointmentId: z.uuid(),
  code: z.string(),
});

/** One event (dotted type: `sos.opened`, `patient.statusChanged`, …; clients ignore unknown ones). */
export const liveEventSchema = z.object({
  id: z.number().int().positive(),
  type: z.string().regex(/^[a-z]+(\.[a-zA-Z]+)+$/),
  patientId: z.uuid().nullable(),
  healthCenterId: z.uuid().nullable(),
  payload: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime({ offset: true }),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** The replay asked for is done; `lastId` is the id to resume after next time. */
export const liveResumedSchema = z.object({
  type: z.literal('resumed'),
  lastId: z.number().int().nonnegative(),
});
export type LiveResumed = z.infer<typeof liveResumedSchema>;

export const liveServerMessageSchema = z.union([
  liveResumedSchema,
  liveEventSchema,
  liveCallSchema,
  liveCallJoinedSchema,
  liveCallRefusedSchema,
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

/**
 * Close codes of the live channel. The client reconnects (and resumes) after every code except
 * the session ones, where it follows the session rules instead (spec §7: log in again, or
 * "logged in somewhere else").
 */
export const LIVE_CLOSE_CODES = {
  /** The session ended (logout, expiry, permission change): log in again. */
  sessionEnded: 4401,
  /** The account logged in somewhere else. */
  loggedInElsewhere: 4403,
  /** The session's level or health centers changed: reconnect to see the new ones. */
  sessionChanged: 4409,
  /** No resume message in time, or a message that is not one. */
  badRequest: 4400,
  /** The client did not keep up: reconnect and resume. */
  tooSlow: 4408,
  /** Call messages faster than a call needs. */
  tooManyMessages: 4429,
} as const;

/** Event types the product publishes (others may follow; clients ignore unknown ones). */
export const LIVE_EVENT_TYPES = [
  'patient.statusChanged',
  'alert.raised',
  'alert.updated',
  'sos.opened',
  'sos.updated',
  'ticket.created',
  'ticket.updated',
  'message.updated',
  /** A follower of the patient was confirmed, changed (hidden data kinds) or removed: refetch. */
  'follower.changed',
  /** An appointment of the patient was booked, moved, cancelled or completed (payload: appointmentId, change, status). */
  'appointment.changed',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];
