import {
  RATABLE_TICKET_STATUSES,
  type MyTicket,
  type MyTicketRating,
  type TicketStatus,
} from '@rpm/contracts';
import { and, count, desc, eq } from 'drizzle-orm';
import { tickets } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { publishEvent } from '../realtime/publish.js';
import { withOwnPatient, type OwnPatientEnvironment } from './own-patient.js';
import { recordTicketHistory } from './records.js';
import type { Page } from './sos-service.js';

/**
 * The patient's own tickets in the app (spec §1 ratings, §3 Ticket customer rating): the tickets
 * opened for the profile the session acts for (its own record or a sub-user it holds; a followed
 * patient's tickets are private to that patient, so the database shows a follower none), newest
 * first, and the patient's rating of how one was handled once the work is done.
 */

const MY_TICKET_COLUMNS = {
  id: tickets.id,
  number: tickets.number,
  type: tickets.type,
  status: tickets.status,
  title: tickets.title,
  createdAt: tickets.createdAt,
  closedAt: tickets.closedAt,
  rating: tickets.customerRating,
  ratingMessage: tickets.customerRatingMessage,
  ratedAt: tickets.customerRatedAt,
};
interface MyTicketRow {
  id: string;
  number: number;
  type: string;
  status: string;
  title: string;
  createdAt: Date;
  closedAt: Date | null;
  rating: number | null;
  ratingMessage: string;
  ratedAt: Date | null;
}

function toMyTicket(row: MyTicketRow): MyTicket {
  const status = row.status as TicketStatus;
  return {
    id: row.id,
    number: row.number,
    type: row.type as MyTicket['type'],
    status,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    rating: row.rating,
    ratingMessage: row.ratingMessage,
    ratedAt: row.ratedAt?.toISOString() ?? null,
    ratable: RATABLE_TICKET_STATUSES.includes(status),
  };
}

/** GET /health/me/tickets: the profile's tickets, newest first, paged. Audited (TICKETS_LISTED). */
export async function listMyTickets(
  environment: OwnPatientEnvironment,
  page: { page: number; size: number },
): Promise<Page<MyTicket>> {
  return withOwnPatient(environment, { write: false }, async (tx, patient) => {
    const own = eq(tickets.patientId, patient.id);
    const rows = await tx
      .select(MY_TICKET_COLUMNS)
      .from(tickets)
      .where(own)
      .orderBy(desc(tickets.createdAt), desc(tickets.id))
      .limit(page.size)
      .offset(page.page * page.size);
    const [total] = await tx.select({ total: count() }).from(tickets).where(own);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'TICKETS_LISTED',
      targetType: 'ticket',
      targetId: patient.id,
      patientIds: [patient.id],
      details: { shown: rows.length, patientApp: true },
    });
    return { items: rows.map(toMyTicket), page: page.page, size: page.size, total: total?.total ?? 0 };
  });
}

/**
 * PUT /health/me/tickets/:id/rating: the patient's rating (1 to 5) and message of a ticket whose
 * work is done (ticket.notRatable before); a second rating replaces the first. Written to the
 * ticket's customer rating with its history entry (RATED), audited (TICKET_RATED) and sent live to
 * the console. A followed patient's ticket is not found (the database hides it from followers).
 */
export async function rateMyTicket(
  environment: OwnPatientEnvironment,
  id: string,
  input: MyTicketRating,
): Promise<MyTicket> {
  return withOwnPatient(environment, { write: true }, async (tx, patient) => {
    const [ticket] = await tx
      .select({ status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.id, id), eq(tickets.patientId, patient.id)))
      .limit(1)
      .for('update');
    if (ticket === undefined) throw new AppError('ticket.notFound');
    if (!RATABLE_TICKET_STATUSES.includes(ticket.status as TicketStatus))
      throw new AppError('ticket.notRatable');
    const now = environment.clock.now();
    const { tenantId, userId } = environment.auth;
    const [updated] = await tx
      .update(tickets)
      .set({
        customerRating: input.rating,
        customerRatingMessage: input.message,
        customerRatedAt: now,
        customerRatedBy: userId,
        updatedAt: now,
      })
      .where(eq(tickets.id, id))
      .returning(MY_TICKET_COLUMNS);
    if (updated === undefined) throw new AppError('ticket.notFound');
    await recordTicketHistory(tx, {
      tenantId,
      ticketId: id,
      patientId: patient.id,
      action: 'RATED',
      note: `customer ${String(input.rating)}${input.message === '' ? '' : ` · ${input.message}`}`,
      actorId: userId,
      at: now,
    });
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'TICKET_RATED',
      targetType: 'ticket',
      targetId: id,
      details: { customerRating: input.rating, byPatient: true, patientId: patient.id },
    });
    await publishEvent(tx, tenantId, {
      type: 'ticket.updated',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: { ticketId: id, rated: true },
    });
    return toMyTicket(updated);
  });
}
