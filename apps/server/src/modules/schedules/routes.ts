import {
  doctorScheduleSchema,
  pageOf,
  scheduleAppointmentsCanceledSchema,
  scheduleAppointmentsCancelSchema,
  scheduleCalendarQuerySchema,
  scheduleDecisionResultSchema,
  scheduleDecisionSchema,
  scheduleDeletionRequestSchema,
  scheduleFieldsSchema,
  scheduleListQuerySchema,
  scheduleOccurrenceSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import {
  cancelScheduleAppointments,
  decideSchedules,
  listMySchedules,
  listSchedules,
  readSchedule,
  requestSchedule,
  requestScheduleDeletion,
  scheduleCalendar,
  withdrawSchedule,
  type ScheduleEnvironment,
} from './service.js';

const idParams = z.object({ id: z.uuid() });
const scheduleResponse = { 200: successEnvelope(doctorScheduleSchema) };
const listResponse = { 200: successEnvelope(pageOf(doctorScheduleSchema)) };
const LIST_NOTE =
  'Paged (page from 0, size), status (NEW|APPROVED|REJECTED|DELETION_REQUESTED|DELETED; default all but DELETED), search (doctor’s name, email or phone), doctorId, centerId, sortField requested|start|doctor, sortType asc|desc';
const RULES_NOTE =
  'Spec §5: schedule.invalid with a field error per rule broken (start time before end time and at least one slot long, end date not before start, a single day starts and ends on one day, weekly needs days of the week that fall between the dates, at most a year); schedule.pastDate (starts before the doctor’s today); schedule.conflict (overlaps another of the doctor’s schedules that is new, approved or waiting for deletion; touching ends are fine)';

/**
 * Doctor schedules under /account (spec §2 doctor schedule and approval): the doctor's own requests
 * under /doctor/schedules (appointment.schedule), the center admins' list and decisions under
 * /schedules (appointment.approve), the calendars for everyone who sees appointments.
 */
export const scheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest): ScheduleEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['schedules'];

  app.get(
    '/doctor/schedules',
    {
      config: { access: 'appointment.schedule' },
      schema: {
        tags,
        summary: `The calling doctor’s schedules. ${LIST_NOTE}`,
        querystring: scheduleListQuerySchema,
        response: listResponse,
      },
    },
    async (request) => ok(await listMySchedules(environmentOf(request), request.query)),
  );

  app.post(
    '/doctor/schedules',
    {
      config: { access: 'appointment.schedule' },
      schema: {
        tags,
        summary: `Request working hours (→ NEW, for the center’s admins to decide): a single day or a weekly pattern between two dates, in the doctor’s time zone, cut into slots of 15, 20, 30, 45 or 60 minutes. ${RULES_NOTE}. Audited (SCHEDULE_REQUESTED)`,
        body: scheduleFieldsSchema,
        response: scheduleResponse,
      },
    },
    async (request) => ok(await requestSchedule(environmentOf(request), request.body)),
  );

  app.delete(
    '/doctor/schedules/:id',
    {
      config: { access: 'appointment.schedule' },
      schema: {
        tags,
        summary:
          'Withdraw one’s own request not yet approved, or clear a rejected one (→ DELETED). An approved schedule is removed through a deletion request. schedule.notFound (not the caller’s), schedule.wrongState. Audited (SCHEDULE_WITHDRAWN)',
        params: idParams,
        response: scheduleResponse,
      },
    },
    async (request) => ok(await withdrawSchedule(environmentOf(request), request.params.id)),
  );

  app.post(
    '/doctor/schedules/:id/cancel-appointments',
    {
      config: { access: 'appointment.schedule' },
      schema: {
        tags,
        summary:
          'Cancel, with one reason, the open appointments still to come in one’s own schedule (each patient is told by e-mail), so its deletion can be asked for (spec §8). One under examination is left to finish. appointment.reasonRequired, schedule.notFound (not the caller’s). Audited (APPOINTMENT_CANCELED each)',
        params: idParams,
        body: scheduleAppointmentsCancelSchema,
        response: { 200: successEnvelope(scheduleAppointmentsCanceledSchema) },
      },
    },
    async (request) =>
      ok(await cancelScheduleAppointments(environmentOf(request), request.params.id, request.body.reason)),
  );

  app.post(
    '/doctor/schedules/:id/deletion',
    {
      config: { access: 'appointment.schedule' },
      schema: {
        tags,
        summary:
          'Ask to delete one’s own approved schedule (→ DELETION_REQUESTED, for the admins to decide). schedule.notFound, schedule.wrongState. Audited (SCHEDULE_DELETION_REQUESTED)',
        params: idParams,
        body: scheduleDeletionRequestSchema,
        response: scheduleResponse,
      },
    },
    async (request) =>
      ok(await requestScheduleDeletion(environmentOf(request), request.params.id, request.body.reason)),
  );

  app.get(
    '/schedules',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary: `The schedules of the centers the caller sees (the approval screen’s tabs by status). ${LIST_NOTE}`,
        querystring: scheduleListQuerySchema,
        response: listResponse,
      },
    },
    async (request) => ok(await listSchedules(environmentOf(request), request.query)),
  );

  app.get(
    '/schedules/calendar',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary:
          'The working periods between two days (at most 62 apart), one per schedule and day, as instants: approved schedules (EXPIRED once past), and with withPending=true the requests not yet decided. Filter by doctorId (my calendar) or centerId (the working calendar).',
        querystring: scheduleCalendarQuerySchema,
        response: { 200: successEnvelope(z.array(scheduleOccurrenceSchema)) },
      },
    },
    async (request) => ok(await scheduleCalendar(environmentOf(request), request.query)),
  );

  app.get(
    '/schedules/:id',
    {
      config: { access: 'appointment.view' },
      schema: {
        tags,
        summary: 'A schedule. schedule.notFound',
        params: idParams,
        response: scheduleResponse,
      },
    },
    async (request) => ok(await readSchedule(environmentOf(request), request.params.id)),
  );

  app.post(
    '/schedules/decisions',
    {
      config: { access: 'appointment.approve' },
      schema: {
        tags,
        summary:
          'Approve or reject one or many schedules at once (spec §4). A request (NEW) becomes APPROVED or REJECTED; a deletion request becomes DELETED or goes back to APPROVED. REJECT needs a reason (schedule.reasonRequired). Each id answers the state it is in now, or why it was left (schedule.notFound, schedule.wrongState). Audited per schedule.',
        body: scheduleDecisionSchema,
        response: { 200: successEnvelope(scheduleDecisionResultSchema) },
      },
    },
    async (request) => ok(await decideSchedules(environmentOf(request), request.body)),
  );
};
