import {
  appointmentCheckInSchema,
  appointmentCheckInTokenSchema,
  appointmentInputSchema,
  appointmentListQuerySchema,
  appointmentSchema,
  appointmentSlotSchema,
  appointmentTransitionSchema,
  appointmentUpdateSchema,
  appointmentVideoSchema,
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
  checkInToken,
  checkInWithToken,
  createAppointment,
  doctorSlots,
  listAppointments,
  readAppointment,
  transitionAppointment,
  updateAppointment,
} from './appointment-service.js';
import type { ScheduleEnvironment } from './service.js';
import { videoRoom } from './video-service.js';

const idParams = z.object({ id: z.uuid() });
const doctorParams = z.object({ doctorId: z.uuid() });
const appointmentResponse = { 200: successEnvelope(appointmentSchema) };
const SLOT_NOTE =
  'appointment.notASlot (not the start of a slot of an approved schedule of the doctor, or past), appointment.slotTaken (another open appointment holds it), appointment.patientBusy (the patient has another open appointment then), patient.notFound';

/** Appointments under /account (spec §2 appointments: list, detail, create and edit; §4 states). */
export const appointmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest): ScheduleEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['appointments'];

  app.get(
    '/doctors/:doctorId/slots',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary:
          'A doctor’s appointment slots on a day (the doctor’s approved schedules cut into their slot length), each free or not (taken, or already begun)',
        params: doctorParams,
        querystring: slotQuerySchema,
        response: { 200: successEnvelope(z.array(appointmentSlotSchema)) },
      },
    },
    async (request) =>
      ok(await doctorSlots(environmentOf(request), request.params.doctorId, request.query.date)),
  );

  app.get(
    '/appointments',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary:
          'Appointments of the patients the caller sees (a doctor: its own), paged, by status, doctorId, patientId, start between from and to, search (patient’s name or code), by start time (sortType). Each says whether it is overdue. Audited (APPOINTMENTS_LISTED)',
        querystring: appointmentListQuerySchema,
        response: { 200: successEnvelope(pageOf(appointmentSchema)) },
      },
    },
    async (request) => ok(await listAppointments(environmentOf(request), request.query)),
  );

  app.post(
    '/appointments',
    {
      config: { access: 'appointment.create' },
      schema: {
        tags,
        summary: `Book an appointment (→ UPCOMING): patient, doctor (a doctor books its own time), the start of a free slot, reason, note, place, paid. ${SLOT_NOTE}. Audited`,
        body: appointmentInputSchema,
        response: appointmentResponse,
      },
    },
    async (request) => ok(await createAppointment(environmentOf(request), request.body)),
  );

  app.post(
    '/appointments/check-in',
    {
      config: { access: 'appointment.update' },
      schema: {
        tags,
        summary:
          'Check a patient in by the token of its appointment sheet’s QR code (UPCOMING → WAITING_FOR_DOCTOR), from 2 hours before the start to the end (appointment.checkInClosed). A token altered, of another tenant or of an appointment moved since it was printed: appointment.notFound. Audited',
        body: appointmentCheckInSchema,
        response: appointmentResponse,
      },
    },
    async (request) =>
      ok(await checkInWithToken(environmentOf(request), app.config.secretsKey, request.body.token)),
  );

  app.get(
    '/appointments/:id/check-in',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary:
          'The signed check-in token of an appointment, for the QR code on its printed sheet (it names the appointment and its start: moving the appointment makes it stale)',
        params: idParams,
        response: { 200: successEnvelope(appointmentCheckInTokenSchema) },
      },
    },
    async (request) =>
      ok(await checkInToken(environmentOf(request), app.config.secretsKey, request.params.id)),
  );

  app.get(
    '/appointments/:id/video',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary:
          'The video room of an online appointment, for its doctor only (video.notAParty for anyone else): the patient’s name and id, when the room opens (10 minutes before) and closes (the end), whether it is open, and the ICE servers. Signalling then goes over /ws (contracts realtime.ts callSignalSchema). Audited (APPOINTMENT_VIEWED)',
        params: idParams,
        response: { 200: successEnvelope(appointmentVideoSchema) },
      },
    },
    async (request) => ok(await videoRoom(environmentOf(request), app.config.ice, request.params.id)),
  );

  app.get(
    '/appointments/:id',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary: 'An appointment. appointment.notFound. Audited (APPOINTMENT_VIEWED)',
        params: idParams,
        response: appointmentResponse,
      },
    },
    async (request) => ok(await readAppointment(environmentOf(request), request.params.id)),
  );

  app.put(
    '/appointments/:id',
    {
      config: { access: 'appointment.update' },
      schema: {
        tags,
        summary: `Edit an appointment still UPCOMING: reason, note, place, paid, and its start (another free slot of the same doctor). appointment.wrongState. ${SLOT_NOTE}. Audited`,
        params: idParams,
        body: appointmentUpdateSchema,
        response: appointmentResponse,
      },
    },
    async (request) => ok(await updateAppointment(environmentOf(request), request.params.id, request.body)),
  );

  app.post(
    '/appointments/:id/transitions',
    {
      config: { access: 'appointment.update' },
      schema: {
        tags,
        summary:
          'One state change (spec §4; contracts APPOINTMENT_TRANSITIONS): checkIn (UPCOMING → WAITING_FOR_DOCTOR), start, hold and complete (the appointment’s own doctor; complete needs diagnosis and advice: appointment.diagnosisRequired), cancel (appointment.cancel; reason required: appointment.reasonRequired). appointment.wrongState. Audited',
        params: idParams,
        body: appointmentTransitionSchema,
        response: appointmentResponse,
      },
    },
    async (request) =>
      ok(await transitionAppointment(environmentOf(request), request.params.id, request.body)),
  );
};
