import {
  appointmentSlotSchema,
  appointmentVideoSchema,
  myAppointmentCancelSchema,
  myAppointmentInputSchema,
  myAppointmentListQuerySchema,
  myAppointmentSchema,
  pageOf,
  slotQuerySchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import {
  bookMyAppointment,
  cancelMyAppointment,
  listMyAppointments,
  myDoctorSlots,
  readMyAppointment,
} from './my-appointment-service.js';
import type { ScheduleEnvironment } from './service.js';
import { videoRoom } from './video-service.js';

const idParams = z.object({ id: z.uuid() });
const SELF =
  'Patient sessions (health.noPatientProfile otherwise), on the session’s profile (x-patient-profile: own record or a sub-user; a followed patient’s appointments are not shared).';

/** The patient app's appointments under /health/me (spec §2 patient app events and appointment states). */
export const myAppointmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest): ScheduleEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['patient app'];
  const response = { 200: successEnvelope(myAppointmentSchema) };

  app.get(
    '/me/doctors/:doctorId/slots',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'A doctor’s appointment slots on a day (its approved schedules cut into their slot length), each free or not (taken, or begun)',
        params: z.object({ doctorId: z.uuid() }),
        querystring: slotQuerySchema,
        response: { 200: successEnvelope(z.array(appointmentSlotSchema)) },
      },
    },
    async (request) => ok(await myDoctorSlots(environmentOf(request), request.params.doctorId, request.query.date)),
  );

  app.get(
    '/me/appointments',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The profile’s appointments: when=upcoming (still to come or under way, soonest first) or past (ended, completed or cancelled, latest first), paged. Each with its app state (INVITED, BOOKED, UPDATED, WAITING, IN_PROGRESS, COMPLETED, CANCELED) and whether its video room is open. ${SELF} Audited (APPOINTMENTS_LISTED)`,
        querystring: myAppointmentListQuerySchema,
        response: { 200: successEnvelope(pageOf(myAppointmentSchema)) },
      },
    },
    async (request) => ok(await listMyAppointments(environmentOf(request), request.query)),
  );

  app.post(
    '/me/appointments',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `Book a free slot of a doctor for the profile (→ UPCOMING, BOOKED): doctorId, startAt (a slot’s start), reason, note, place CLINIC or ONLINE (ONLINE needs VIDEO_CONSULTATION in the profile’s package: 403 package.upgradeRequired). appointment.notASlot, appointment.slotTaken, appointment.patientBusy, profile.readOnly. ${SELF} Audited`,
        body: myAppointmentInputSchema,
        response,
      },
    },
    async (request) => ok(await bookMyAppointment(environmentOf(request), request.body)),
  );

  app.get(
    '/me/appointments/:id',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `One of the profile’s appointments. appointment.notFound. ${SELF} Audited (APPOINTMENT_VIEWED)`,
        params: idParams,
        response,
      },
    },
    async (request) => ok(await readMyAppointment(environmentOf(request), request.params.id)),
  );

  app.post(
    '/me/appointments/:id/cancel',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `Call off one of the profile’s appointments still UPCOMING, with a reason (appointment.reasonRequired); the doctor is told. appointment.wrongState, profile.readOnly. ${SELF} Audited`,
        params: idParams,
        body: myAppointmentCancelSchema,
        response,
      },
    },
    async (request) => ok(await cancelMyAppointment(environmentOf(request), request.params.id, request.body.reason)),
  );

  app.get(
    '/me/appointments/:id/video',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The video room of an online appointment of the account (its own, or of a sub-user it holds): the doctor’s name, when the room opens and closes, whether it is open, and the ICE servers (STUN, TURN with credentials for a day). Signalling then goes over /ws (contracts realtime.ts callSignalSchema). appointment.notFound, video.notAParty. Audited (APPOINTMENT_VIEWED)',
        params: idParams,
        response: { 200: successEnvelope(appointmentVideoSchema) },
      },
    },
    async (request) => ok(await videoRoom(environmentOf(request), app.config.ice, request.params.id)),
  );
};

