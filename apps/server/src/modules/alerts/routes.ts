import {
  appSosRaiseSchema,
  alertAnswerSchema,
  alertListQuerySchema,
  alertSchema,
  alertSettingsSchema,
  contactInputSchema,
  contactSchema,
  hotlineSosSchema,
  messageListQuerySchema,
  messageSchema,
  myTicketRatingSchema,
  myTicketSchema,
  pageOf,
  pageQuerySchema,
  SOS_CASE_ACTIONS,
  sosCaseDetailSchema,
  sosCaseListQuerySchema,
  sosCaseStepSchema,
  sosCaseSummarySchema,
  sosRaisedSchema,
  successEnvelope,
  TICKET_ACTIONS,
  ticketCreateSchema,
  ticketDetailSchema,
  ticketListQuerySchema,
  ticketRatingSchema,
  ticketStatisticsQuerySchema,
  ticketStatisticsSchema,
  ticketSummarySchema,
  ticketTransitionSchema,
  transitionReasonSchema,
  type SosCaseAction,
  type TicketAction,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import {
  confirmFine,
  listMessages,
  listPatientAlerts,
  raiseOwnSos,
  readSettings,
  requestFollowerCalls,
  updateSettings,
} from './alert-service.js';
import { addContact, listContacts, removeContact, resendContactInvitation, updateContact } from './contact-service.js';
import type { AlertEnvironment } from './environment.js';
import { registerRecordingAccountRoutes } from './recording-routes.js';
import { changeSosCase, listSosCases, logSosStep, raiseHotlineSos, readSosCase } from './sos-service.js';
import {
  changeTicket,
  createTicket,
  listTickets,
  rateTicket,
  readTicket,
  ticketStatistics,
} from './ticket-service.js';
import { listMyTickets, rateMyTicket } from './my-tickets.js';

const idParams = z.object({ id: z.uuid() });
const patientParams = z.object({ patientId: z.uuid() });
const contactParams = z.object({ patientId: z.uuid(), id: z.uuid() });
const caseResponse = { 200: successEnvelope(sosCaseDetailSchema) };
const ticketResponse = { 200: successEnvelope(ticketDetailSchema) };

function environmentFor(app: Parameters<FastifyPluginAsyncZod>[0]) {
  return (request: FastifyRequest): AlertEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    kick: () => {
      app.messaging.kick();
    },
    secretsKey: app.config.secretsKey,
  });
}

/**
 * Alerting under /account (spec §2 SOS call list, patient in SOS, ticket list/detail/history and
 * statistics, SMS and call management; §3 followers): operators and admins holding health.sos
 * handle SOS cases and tickets; followers need relative.view / relative.update.
 */
export const alertAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFor(app);
  const tags = ['alerts'];
  registerRecordingAccountRoutes(app);

  app.get(
    '/sos-cases',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'SOS call list: cases of the caller’s centers, paged, searchable by patient name, id or phone, filterable by status (or open=true), sortable (sortField opened|status|patient|kpiDue)',
        querystring: sosCaseListQuerySchema,
        response: { 200: successEnvelope(pageOf(sosCaseSummarySchema)) },
      },
    },
    async (request) => ok(await listSosCases(environmentOf(request), request.query)),
  );

  app.get(
    '/sos-cases/:id',
    {
      // Handlers (health.sos) and the patient's clinicians (health.view) read it; the patient
      // access rule decides which patients (another center's case is 404).
      config: { access: ['health.sos', 'health.view'] },
      schema: {
        tags,
        summary:
          'Patient in SOS: the case with vitals at SOS time, location, followers, action history and the actions allowed now (none without health.sos: a doctor reads the case of a patient it sees). Audited (SOS_CASE_VIEWED)',
        params: idParams,
        response: caseResponse,
      },
    },
    async (request) => ok(await readSosCase(environmentOf(request), request.params.id)),
  );

  for (const action of Object.keys(SOS_CASE_ACTIONS) as SosCaseAction[]) {
    app.put(
      `/sos-cases/:id/${action}`,
      {
        config: { access: 'health.sos' },
        schema: {
          tags,
          summary: `SOS case: ${action} (from ${SOS_CASE_ACTIONS[action].from.join(', ')} to ${SOS_CASE_ACTIONS[action].to}${SOS_CASE_ACTIONS[action].needsReason ? ', reason required: sosCase.reasonRequired' : ''}); other states answer sosCase.invalidTransition`,
          params: idParams,
          body: transitionReasonSchema,
          response: caseResponse,
        },
      },
      async (request) =>
        ok(await changeSosCase(environmentOf(request), request.params.id, action, request.body.reason)),
    );
  }

  app.post(
    '/sos-cases/:id/actions',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'Log an action on an open case: CALL_PATIENT (the call to the patient’s phone is placed), SMS_PATIENT (the SMS is sent to the patient’s phone; note is its text), both sosCase.patientNoPhone without a phone; CALL_FOLLOWER (contactId: the call is placed), SMS (contactId: the SMS is sent), CALL_EMERGENCY, DISPATCH, NOTE. A closed case answers sosCase.invalidTransition',
        params: idParams,
        body: sosCaseStepSchema,
        response: caseResponse,
      },
    },
    async (request) => ok(await logSosStep(environmentOf(request), request.params.id, request.body)),
  );

  app.post(
    '/patients/:patientId/sos',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'Record a hotline call from a patient: an SOS case opens (or the open one is added to), with its ticket, follower calls and SMS, and the care team alerted. Sub-users: sosCase.subUser',
        params: patientParams,
        body: hotlineSosSchema,
        response: caseResponse,
      },
    },
    async (request) =>
      ok(await raiseHotlineSos(environmentOf(request), request.params.patientId, request.body)),
  );

  app.get(
    '/tickets',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'Ticket list of the caller’s centers: filters type, status, assigneeId, kpiFailed; search by title, number, patient; sortable (created|status|type|kpiDue)',
        querystring: ticketListQuerySchema,
        response: { 200: successEnvelope(pageOf(ticketSummarySchema)) },
      },
    },
    async (request) => ok(await listTickets(environmentOf(request), request.query)),
  );

  app.get(
    '/tickets/statistics',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'Ticket statistics over tickets created from `from` to `to` (UTC days): per status, per type, KPI failures per reason, average handling minutes, per day',
        querystring: ticketStatisticsQuerySchema,
        response: { 200: successEnvelope(ticketStatisticsSchema) },
      },
    },
    async (request) => ok(await ticketStatistics(environmentOf(request), request.query)),
  );

  app.get(
    '/tickets/:id',
    {
      config: { access: ['health.sos', 'health.view'] },
      schema: {
        tags,
        summary: 'Ticket detail with its history and the actions allowed now',
        params: idParams,
        response: ticketResponse,
      },
    },
    async (request) => ok(await readTicket(environmentOf(request), request.params.id)),
  );

  app.post(
    '/tickets',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'Create a ticket (ALERT, CONSULTATION, SUPPORT) for a patient the caller sees; with assigneeId it starts CONFIRMED',
        body: ticketCreateSchema,
        response: ticketResponse,
      },
    },
    async (request) => ok(await createTicket(environmentOf(request), request.body)),
  );

  for (const action of Object.keys(TICKET_ACTIONS) as TicketAction[]) {
    app.put(
      `/tickets/:id/${action}`,
      {
        config: { access: 'health.sos' },
        schema: {
          tags,
          summary: `Ticket: ${action} (from ${TICKET_ACTIONS[action].from.join(', ')} to ${TICKET_ACTIONS[action].to}${TICKET_ACTIONS[action].needsReason ? ', reason required: ticket.reasonRequired' : ''}); other states answer ticket.invalidTransition${action === 'assign' ? '. assigneeId defaults to the caller' : ''}`,
          params: idParams,
          body: ticketTransitionSchema,
          response: ticketResponse,
        },
      },
      async (request) =>
        ok(await changeTicket(environmentOf(request), request.params.id, action, request.body)),
    );
  }

  app.put(
    '/tickets/:id/rating',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'KPI rating and/or customer rating (1-5) of a completed or closed ticket (ticket.notRatable otherwise)',
        params: idParams,
        body: ticketRatingSchema,
        response: ticketResponse,
      },
    },
    async (request) => ok(await rateTicket(environmentOf(request), request.params.id, request.body)),
  );

  app.get(
    '/messages',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'SMS and call management: SMS, emails and voice calls sent for the caller’s centers’ patients (from, to, provider, send date, status), filterable by kind, status, date range, searchable',
        querystring: messageListQuerySchema,
        response: { 200: successEnvelope(pageOf(messageSchema)) },
      },
    },
    async (request) => ok(await listMessages(environmentOf(request), request.query)),
  );

  app.get(
    '/patients/:patientId/alerts',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'A patient’s alerts, newest first',
        params: patientParams,
        querystring: alertListQuerySchema,
        response: { 200: successEnvelope(pageOf(alertSchema)) },
      },
    },
    async (request) =>
      ok(await listPatientAlerts(environmentOf(request), request.params.patientId, request.query)),
  );

  app.get(
    '/patients/:patientId/contacts',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary:
          'A patient’s followers (emergency, caring and coach contacts) that are not deleted, with invitation state and the data kinds the patient hides from each: favourite first, then emergency, then oldest (the order calls are placed)',
        params: patientParams,
        response: { 200: successEnvelope(z.array(contactSchema)) },
      },
    },
    async (request) => ok(await listContacts(environmentOf(request), request.params.patientId)),
  );

  app.post(
    '/patients/:patientId/contacts',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary:
          'Add a follower: an invitation (SENT) with its SMS to the phone. At most 5 contacts of each type (careTeam.limitReached); an existing follower cannot be added again (contact.exists); not the patient’s own phone (request.toSelf); not within 5 minutes of the last invitation to that phone (contact.resendTooSoon)',
        params: patientParams,
        body: contactInputSchema,
        response: { 200: successEnvelope(contactSchema) },
      },
    },
    async (request) => ok(await addContact(environmentOf(request), request.params.patientId, request.body)),
  );

  app.put(
    '/patients/:patientId/contacts/:id',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary:
          'Edit a follower (same rules as adding; the phone of a confirmed follower stays: contact.invalidTransition, as for a deleted contact)',
        params: contactParams,
        body: contactInputSchema,
        response: { 200: successEnvelope(contactSchema) },
      },
    },
    async (request) =>
      ok(
        await updateContact(
          environmentOf(request),
          request.params.patientId,
          request.params.id,
          request.body,
        ),
      ),
  );

  app.delete(
    '/patients/:patientId/contacts/:id',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary:
          'Remove a follower: the contact becomes DELETED (kept as history) and a confirmed follower loses access at once. contact.invalidTransition when already deleted',
        params: contactParams,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await removeContact(environmentOf(request), request.params.patientId, request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/patients/:patientId/contacts/:id/resend',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary:
          'Send a pending invitation again (SENT or RESENT → RESENT): contact.resendTooSoon within 5 minutes of the last send (Retry-After), contact.invalidTransition once confirmed or deleted',
        params: contactParams,
        response: { 200: successEnvelope(contactSchema) },
      },
    },
    async (request) =>
      ok(await resendContactInvitation(environmentOf(request), request.params.patientId, request.params.id)),
  );

  app.get(
    '/alert-settings',
    {
      config: { access: 'health.sos' },
      schema: {
        tags,
        summary:
          'The tenant’s alert settings: high-risk confirmation seconds (spec §9, default 15) and SOS KPI minutes',
        response: { 200: successEnvelope(alertSettingsSchema) },
      },
    },
    async (request) => ok(await readSettings(environmentOf(request))),
  );

  app.put(
    '/alert-settings',
    {
      config: { access: 'health.sos', wholeTenant: true },
      schema: {
        tags,
        summary: 'Change the tenant’s alert settings (callers who see the whole tenant). Audited',
        body: alertSettingsSchema,
        response: { 200: successEnvelope(alertSettingsSchema) },
      },
    },
    async (request) => ok(await updateSettings(environmentOf(request), request.body)),
  );
};

/**
 * The patient app's alert calls under /health (spec §4): SOS (button after its countdown, fall),
 * "I am fine" and "call followers" while a high-risk alert waits. For a patient's own login;
 * other accounts answer alert.noPatientProfile.
 */
export const alertHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = environmentFor(app);
  const tags = ['alerts'];
  const answerResponse = { 200: successEnvelope(alertAnswerSchema) };

  app.post(
    '/alerts/i-am-fine',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          '"I am fine": answers the waiting high-risk alert (no SMS to followers) and suppresses alerts below SOS until the values are normal',
        response: answerResponse,
      },
    },
    async (request) => ok(await confirmFine(environmentOf(request))),
  );

  app.post(
    '/alerts/call-followers',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: '"Call followers": every follower is called at once',
        response: answerResponse,
      },
    },
    async (request) => ok(await requestFollowerCalls(environmentOf(request))),
  );

  app.post(
    '/alerts/sos',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'SOS from the patient app (after the 5-second countdown) or a detected fall: opens an SOS case with its ticket, calls and SMS the followers, alerts the care team; the message the patient chose (NEED_HELP, FELL, CHEST_PAIN, BREATHING, UNWELL) is recorded on the case. Main users only (sosCase.subUser)',
        body: appSosRaiseSchema,
        response: { 200: successEnvelope(sosRaisedSchema) },
      },
    },
    async (request) => ok(await raiseOwnSos(environmentOf(request), request.body)),
  );

  app.get(
    '/me/tickets',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The profile’s tickets (own record or a sub-user it holds; none for a followed patient), newest first, paged, with the patient’s rating and whether it may rate now. Audited (TICKETS_LISTED)',
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(pageOf(myTicketSchema)) },
      },
    },
    async (request) => ok(await listMyTickets(environmentOf(request), request.query)),
  );

  app.put(
    '/me/tickets/:id/rating',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'Rate how a ticket was handled, 1 to 5 stars with a message (at most 1000 characters), once its work is done: COMPLETED or SUCCESS (ticket.notRatable before); a new rating replaces the old. Another patient’s ticket: ticket.notFound; a followed patient’s: profile.readOnly. Audited (TICKET_RATED)',
        params: idParams,
        body: myTicketRatingSchema,
        response: { 200: successEnvelope(myTicketSchema) },
      },
    },
    async (request) => ok(await rateMyTicket(environmentOf(request), request.params.id, request.body)),
  );
};
