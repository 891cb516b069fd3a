import {
  eventInputSchema,
  eventListQuerySchema,
  patientEventSchema,
  careReminderInputSchema,
  careReminderSchema,
  reminderOccurrenceSchema,
  intakeAnswerSchema,
  intakeDayQuerySchema,
  intakeSchema,
  pageOf,
  prescriptionDetailSchema,
  prescriptionInputSchema,
  prescriptionListQuerySchema,
  prescriptionSummarySchema,
  successEnvelope,
  usageHistorySchema,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { answerMyIntake, listIntakes, listMyIntakes } from './intake-service.js';
import {
  createPrescription,
  deactivatePrescription,
  listMyPrescriptions,
  listPrescriptions,
  readMyPrescription,
  readPrescription,
  readUsageHistory,
  replacePrescription,
  type CarePlanEnvironment,
} from './prescription-service.js';
import {
  createMyEvent,
  deleteMyEvent,
  listMyEvents,
  listPatientEvents,
  updateMyEvent,
} from './event-service.js';
import { createReminder, deleteReminder, listMyReminderTimes, listReminders } from './reminder-service.js';

const patientParams = z.object({ patientId: z.uuid() });
const prescriptionParams = z.object({ patientId: z.uuid(), prescriptionId: z.uuid() });
const idParams = z.object({ id: z.uuid() });
const reminderParams = z.object({ patientId: z.uuid(), reminderId: z.uuid() });
const detailResponse = { 200: successEnvelope(prescriptionDetailSchema) };
const listResponse = { 200: successEnvelope(pageOf(prescriptionSummarySchema)) };
const intakesResponse = { 200: successEnvelope(z.array(intakeSchema)) };
const LIST_NOTE =
  'Paged (page from 0, size), search (part of the name or RX number), state (IN_USE|EXPIRED|DEACTIVATED, on the patient’s day), sortField start|name|created, sortType asc|desc (default: newest start first)';
const RULES_NOTE =
  'Spec §5: prescription.invalid with a field error per rule broken (dose above 0 to 300 in the steps .125 .25 .33 .5 .66 .75, at least one reminder time, no duplicate time labels or times, no medicine twice, a medicine list, no reminders for an on-demand medicine, start not after end); doctor.notFound (doctor in charge not an active doctor the caller sees), doctor.licenseExpired, patient.notFound, patient.accountDeleted';
const SELF_NOTE =
  'Patient sessions (health.noPatientProfile otherwise), on the session’s profile (x-patient-profile: own record or a sub-user; a followed patient’s care plan is not shared). Deactivated prescriptions are hidden (spec §4).';

/** The care plan under /health: the console's prescriptions and doses of a patient, and the app's own. */
export const carePlanRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest): CarePlanEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['care plan'];

  app.get(
    '/patients/:patientId/prescriptions',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `A patient’s prescriptions. ${LIST_NOTE}. Audited (PRESCRIPTIONS_LISTED)`,
        params: patientParams,
        querystring: prescriptionListQuerySchema,
        response: listResponse,
      },
    },
    async (request) =>
      ok(await listPrescriptions(environmentOf(request), request.params.patientId, request.query)),
  );

  app.post(
    '/patients/:patientId/prescriptions',
    {
      config: { access: 'health.prescribe' },
      schema: {
        tags,
        summary: `Write a prescription with its medicines and their reminders; the doses of the next 72 hours are made at once. ${RULES_NOTE}. Audited (PRESCRIPTION_CREATED)`,
        params: patientParams,
        body: prescriptionInputSchema,
        response: detailResponse,
      },
    },
    async (request) =>
      ok(await createPrescription(environmentOf(request), request.params.patientId, request.body)),
  );

  app.get(
    '/patients/:patientId/prescriptions/:prescriptionId',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'A prescription with its medicines, who wrote and deactivated it, and the ones it replaced or was replaced by. prescription.notFound. Audited (PRESCRIPTION_VIEWED)',
        params: prescriptionParams,
        response: detailResponse,
      },
    },
    async (request) =>
      ok(
        await readPrescription(
          environmentOf(request),
          request.params.patientId,
          request.params.prescriptionId,
        ),
      ),
  );

  app.put(
    '/patients/:patientId/prescriptions/:prescriptionId',
    {
      config: { access: 'health.prescribe' },
      schema: {
        tags,
        summary: `Edit a prescription (spec §4): the old one is deactivated and its coming doses dropped, and the new one, naming it, is written, in one transaction; answers the new one. prescription.deactivated (deactivated or already replaced). ${RULES_NOTE}. Audited (PRESCRIPTION_REPLACED)`,
        params: prescriptionParams,
        body: prescriptionInputSchema,
        response: detailResponse,
      },
    },
    async (request) =>
      ok(
        await replacePrescription(
          environmentOf(request),
          request.params.patientId,
          request.params.prescriptionId,
          request.body,
        ),
      ),
  );

  app.put(
    '/patients/:patientId/prescriptions/:prescriptionId/deactivate',
    {
      config: { access: 'health.prescribe' },
      schema: {
        tags,
        summary:
          'Deactivate a prescription for good (spec §4): hidden from the patient, its coming doses dropped. prescription.deactivated when it already is. Audited (PRESCRIPTION_DEACTIVATED)',
        params: prescriptionParams,
        response: detailResponse,
      },
    },
    async (request) =>
      ok(
        await deactivatePrescription(
          environmentOf(request),
          request.params.patientId,
          request.params.prescriptionId,
        ),
      ),
  );

  app.get(
    '/patients/:patientId/prescriptions/:prescriptionId/usage',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'Usage history (spec §2): the doses per medicine and day from the start to today or the end, by state, with adherence (doses taken on time, early or late out of those whose time has come). Audited (PRESCRIPTION_USAGE_VIEWED)',
        params: prescriptionParams,
        response: { 200: successEnvelope(usageHistorySchema) },
      },
    },
    async (request) =>
      ok(
        await readUsageHistory(
          environmentOf(request),
          request.params.patientId,
          request.params.prescriptionId,
        ),
      ),
  );

  app.get(
    '/patients/:patientId/intakes',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'A patient’s doses of one day (date: the patient’s local day, default today), in time order, with their state. Audited (INTAKES_VIEWED)',
        params: patientParams,
        querystring: intakeDayQuerySchema,
        response: intakesResponse,
      },
    },
    async (request) =>
      ok(await listIntakes(environmentOf(request), request.params.patientId, request.query.date)),
  );

  app.get(
    '/patients/:patientId/reminders',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'A patient’s care reminders (not a medicine’s doses), newest first. Audited (REMINDERS_VIEWED)',
        params: patientParams,
        response: { 200: successEnvelope(z.array(careReminderSchema)) },
      },
    },
    async (request) => ok(await listReminders(environmentOf(request), request.params.patientId)),
  );

  app.post(
    '/patients/:patientId/reminders',
    {
      config: { access: 'health.remind' },
      schema: {
        tags,
        summary:
          'Create a care reminder (doctors and assistants, spec §6): a title, a note and a schedule. reminder.invalid with a field error per §5 rule broken (at least one time, no duplicate labels or times, repeat, start not after end), patient.notFound. Audited (REMINDER_CREATED)',
        params: patientParams,
        body: careReminderInputSchema,
        response: { 200: successEnvelope(careReminderSchema) },
      },
    },
    async (request) =>
      ok(await createReminder(environmentOf(request), request.params.patientId, request.body)),
  );

  app.delete(
    '/patients/:patientId/reminders/:reminderId',
    {
      config: { access: 'health.remind' },
      schema: {
        tags,
        summary:
          'Delete a care reminder (doctors and assistants). reminder.notFound. Audited (REMINDER_DELETED)',
        params: reminderParams,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await deleteReminder(environmentOf(request), request.params.patientId, request.params.reminderId);
      return ok(null);
    },
  );

  app.get(
    '/patients/:patientId/events',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The patient’s own events (My Events): when=upcoming (from now, soonest first) or past (latest first), paged. Audited (EVENTS_VIEWED)',
        params: patientParams,
        querystring: eventListQuerySchema,
        response: { 200: successEnvelope(pageOf(patientEventSchema)) },
      },
    },
    async (request) =>
      ok(await listPatientEvents(environmentOf(request), request.params.patientId, request.query)),
  );

  // The patient app ---------------------------------------------------------------------------------

  app.get(
    '/me/prescriptions',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} ${LIST_NOTE}. Audited (PRESCRIPTIONS_LISTED)`,
        querystring: prescriptionListQuerySchema,
        response: listResponse,
      },
    },
    async (request) => ok(await listMyPrescriptions(environmentOf(request), request.query)),
  );

  app.get(
    '/me/prescriptions/:id',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} A prescription with its medicines. prescription.notFound. Audited (PRESCRIPTION_VIEWED)`,
        params: idParams,
        response: detailResponse,
      },
    },
    async (request) => ok(await readMyPrescription(environmentOf(request), request.params.id)),
  );

  app.get(
    '/me/intakes',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} The doses of a day (default today where the patient lives), in time order, with the app’s state (waiting, taken, missed). Audited (INTAKES_VIEWED)`,
        querystring: intakeDayQuerySchema,
        response: intakesResponse,
      },
    },
    async (request) => ok(await listMyIntakes(environmentOf(request), request.query.date)),
  );

  app.get(
    '/me/reminders',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} The times the care reminders ring on a day (default today where the patient lives), in time order. Audited (REMINDERS_VIEWED)`,
        querystring: intakeDayQuerySchema,
        response: { 200: successEnvelope(z.array(reminderOccurrenceSchema)) },
      },
    },
    async (request) => ok(await listMyReminderTimes(environmentOf(request), request.query.date)),
  );

  const EVENT_RULES =
    'Spec §5: a time and an icon are required; event.duplicateTime (another event, not canceled, at that time), event.limitReached (20 planned events to come), profile.readOnly';

  app.get(
    '/me/events',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} My Events: when=upcoming (from now, soonest first) or past (latest first), paged. Audited (EVENTS_VIEWED)`,
        querystring: eventListQuerySchema,
        response: { 200: successEnvelope(pageOf(patientEventSchema)) },
      },
    },
    async (request) => ok(await listMyEvents(environmentOf(request), request.query)),
  );

  app.post(
    '/me/events',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Add an event: arrival time, label, icon, note, location, organizer, status. ${EVENT_RULES}. Audited (EVENT_CREATED)`,
        body: eventInputSchema,
        response: { 200: successEnvelope(patientEventSchema) },
      },
    },
    async (request) => ok(await createMyEvent(environmentOf(request), request.body)),
  );

  app.put(
    '/me/events/:id',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Change an event (mark it DONE or CANCELED with status). event.notFound. ${EVENT_RULES}. Audited (EVENT_UPDATED)`,
        params: idParams,
        body: eventInputSchema,
        response: { 200: successEnvelope(patientEventSchema) },
      },
    },
    async (request) => ok(await updateMyEvent(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/me/events/:id',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Delete an event. event.notFound, profile.readOnly. Audited (EVENT_DELETED)`,
        params: idParams,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await deleteMyEvent(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.put(
    '/me/intakes/:id',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Answer a dose: TAKEN (at takenAt or now: on time within 30 minutes of its time, else early or late) or SKIPPED. intake.notFound, intake.alreadyAnswered (answered once; an unconfirmed dose may still be answered), intake.notYetDue (more than 12 hours ahead, or taken in the future), profile.readOnly. Audited (INTAKE_ANSWERED)`,
        params: idParams,
        body: intakeAnswerSchema,
        response: { 200: successEnvelope(intakeSchema) },
      },
    },
    async (request) => ok(await answerMyIntake(environmentOf(request), request.params.id, request.body)),
  );
};
