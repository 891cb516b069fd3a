import { scheduleReportQuerySchema, scheduleReportSchema, successEnvelope } from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { scheduleReport } from './report-service.js';

/**
 * The doctor schedule statistical report under /account (spec §2): doctors (appointment.schedule)
 * get their own, center admins (appointment.approve) the doctors of the centers they see.
 */
export const scheduleReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/schedules/report',
    {
      config: { access: ['appointment.approve', 'appointment.schedule'] },
      schema: {
        tags: ['schedules'],
        summary:
          'Per doctor and per period (day, ISO week or month, in the doctor’s time zone, cut at from and to): hours of approved schedules (scheduledMinutes, elapsed time), appointments starting in the period (booked), completed, cancelled, no-shows (the slot ended while still UPCOMING), open (still to come or under way), and completionRate = completed / (booked − cancelled − open) in percent, null when that is 0. A doctor always gets its own report (doctorId ignored); an admin may name one doctorId. schedule.reportRange when from is after to or they are more than 366 days apart. Counts only: no patient is named.',
        querystring: scheduleReportQuerySchema,
        response: { 200: successEnvelope(scheduleReportSchema) },
      },
    },
    async (request) =>
      ok(
        await scheduleReport(
          {
            database: app.database,
            clock: app.clock,
            auth: requireAuth(request),
            audit: auditContextOf(request),
          },
          request.query,
        ),
      ),
  );
};
