import {
  KPI_FAILURE_REASONS,
  RATABLE_TICKET_STATUSES,
  TICKET_ACTIONS,
  TICKET_STATUSES,
  TICKET_TYPES,
  ticketActionsFor,
  transition,
  type AuditAction,
  type TicketAction,
  type TicketActor,
  type TicketCreate,
  type TicketDetail,
  type TicketListQuery,
  type TicketStatistics,
  type TicketStatus,
  type TicketSummary,
  type TicketTransition,
} from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { patients, ticketHistory, tickets, users } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { cancelJob } from '../jobs/queue.js';
import { publishEvent } from '../realtime/publish.js';
import { settleStatusOnClose } from '../vitals/status-engine.js';
import { asCaller, fieldError, requirePatient, type AlertEnvironment } from './environment.js';
import { insertTicket, recordTicketHistory } from './records.js';
import type { Page } from './sos-service.js';
import {
  actorNames,
  locationOf,
  patientSearchText,
  selectTickets,
  toTicketSummary,
  toVitals,
} from './views.js';

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

function ticketConditions(query: TicketListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.type !== undefined) conditions.push(eq(tickets.type, query.type));
  if (query.status !== undefined) conditions.push(eq(tickets.status, query.status));
  if (query.assigneeId !== undefined) conditions.push(eq(tickets.assigneeId, query.assigneeId));
  if (query.kpiFailed === true) conditions.push(isNotNull(tickets.kpiFailureReason));
  if (query.kpiFailed === false) conditions.push(sql`${tickets.kpiFailureReason} IS NULL`);
  if (query.search !== undefined && query.search !== '') {
    const pattern = escapeLike(query.search);
    conditions.push(
      or(
        ilike(tickets.title, pattern),
        ilike(patientSearchText, pattern),
        ilike(sql`${tickets.number}::text`, pattern),
      ),
    );
  }
  return and(...conditions);
}

function ticketOrder(query: TicketListQuery): SQL[] {
  const direction = query.sortType === 'asc' ? asc : desc;
  switch (query.sortField) {
    case 'created':
      return [direction(tickets.createdAt), direction(tickets.id)];
    case 'status':
      return [
        direction(
          sql`array_position(ARRAY['NEW','CONFIRMED','PROCESSING','COMPLETED','SUCCESS','CANCELED'], ${tickets.status})`,
        ),
        desc(tickets.createdAt),
      ];
    case 'type':
      return [direction(tickets.type), desc(tickets.createdAt)];
    case 'kpiDue':
      return [direction(tickets.kpiDueAt), direction(tickets.id)];
  }
}

/** The ticket list (spec §2): filters type, status, assignee, KPI failed; paged, searchable. */
export async function listTickets(
  environment: AlertEnvironment,
  query: TicketListQuery,
): Promise<Page<TicketSummary>> {
  return asCaller(environment, async (tx) => {
    const where = ticketConditions(query);
    const rows = await selectTickets(tx)
      .where(where)
      .orderBy(...ticketOrder(query))
      .limit(query.size)
      .offset(query.page * query.size);
    const totals = await tx
      .select({ total: count() })
      .from(tickets)
      .innerJoin(patients, and(eq(patients.tenantId, tickets.tenantId), eq(patients.id, tickets.patientId)))
      .where(where);
    const items = rows.map(toTicketSummary);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'TICKETS_LISTED',
      targetType: 'ticket',
      patientIds: items.map((item) => item.patient.id),
      details: { ...query, shown: items.length },
    });
    return {
      items,
      page: query.page,
      size: query.size,
      total: totals[0]?.total ?? 0,
    };
  });
}

/** The caller as a ticket actor: a reader without health.sos (the patient's doctor) acts on nothing. */
function actorOf(environment: AlertEnvironment): TicketActor {
  return { userId: environment.auth.userId, canAct: environment.auth.permissions.has('health.sos') };
}

async function ticketDetail(tx: TenantTransaction, id: string, actor: TicketActor): Promise<TicketDetail> {
  const [row] = await selectTickets(tx).where(eq(tickets.id, id)).limit(1);
  if (row === undefined) throw new AppError('ticket.notFound');
  const history = await tx
    .select()
    .from(ticketHistory)
    .where(eq(ticketHistory.ticketId, id))
    .orderBy(asc(ticketHistory.at), asc(ticketHistory.id));
  const names = await actorNames(
    tx,
    history.map((entry) => entry.actorId),
  );
  const { ticket } = row;
  return {
    ...toTicketSummary(row),
    description: ticket.description,
    customerRatingMessage: ticket.customerRatingMessage,
    sosCaseId: ticket.sosCaseId,
    location: locationOf(ticket),
    healthIndicators: toVitals(ticket.healthIndicators),
    cancelReason: ticket.cancelReason,
    history: history.map((entry) => ({
      id: entry.id,
      action: entry.action,
      fromStatus: entry.fromStatus as TicketStatus | null,
      toStatus: entry.toStatus as TicketStatus | null,
      note: entry.note,
      actor: entry.actorId === null ? null : { id: entry.actorId, fullName: names.get(entry.actorId) ?? '' },
      at: entry.at.toISOString(),
    })),
    allowedActions: ticketActionsFor({ status: ticket.status as TicketStatus, assigneeId: ticket.assigneeId }, actor),
  };
}

/** A ticket with its history: a PHI read, audited (TICKET_VIEWED). */
export async function readTicket(environment: AlertEnvironment, id: string): Promise<TicketDetail> {
  return asCaller(environment, async (tx) => {
    const detail = await ticketDetail(tx, id, actorOf(environment));
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'TICKET_VIEWED',
      targetType: 'ticket',
      targetId: id,
      patientIds: [detail.patient.id],
    });
    return detail;
  });
}

/** A staff account of the tenant the caller sees, to hand a ticket to. */
async function requireAssignee(tx: TenantTransaction, assigneeId: string): Promise<void> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, assigneeId), sql`${users.role} <> 'PATIENT'`, eq(users.status, 'ACTIVE')))
    .limit(1);
  if (row === undefined) throw fieldError('ticket.assigneeNotFound', 'body.assigneeId');
}

/** Spec §6: operators create tickets for a patient they see. */
export async function createTicket(
  environment: AlertEnvironment,
  input: TicketCreate,
): Promise<TicketDetail> {
  return asCaller(environment, async (tx) => {
    const patient = await requirePatient(tx, input.patientId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'patient.notFound')
        throw fieldError('patient.notFound', 'body.patientId');
      throw error;
    });
    if (input.assigneeId !== undefined && input.assigneeId !== null)
      await requireAssignee(tx, input.assigneeId);
    const { id } = await insertTicket(tx, environment.clock, {
      tenantId: environment.auth.tenantId,
      type: input.type,
      title: input.title,
      description: input.description,
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      assigneeId: input.assigneeId ?? null,
      createdBy: environment.auth.userId,
    });
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'TICKET_CREATED',
      targetType: 'ticket',
      targetId: id,
      details: { type: input.type, patientId: patient.id },
    });
    return ticketDetail(tx, id, actorOf(environment));
  });
}

const TICKET_AUDIT: Record<TicketAction, AuditAction> = {
  assign: 'TICKET_ASSIGNED',
  start: 'TICKET_STARTED',
  complete: 'TICKET_COMPLETED',
  reject: 'TICKET_REJECTED',
  close: 'TICKET_CLOSED',
  cancel: 'TICKET_CANCELED',
};

async function lockTicket(tx: TenantTransaction, id: string) {
  const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, id)).limit(1).for('update');
  if (ticket === undefined) throw new AppError('ticket.notFound');
  const [patient] = await tx
    .select({ healthCenterId: patients.healthCenterId })
    .from(patients)
    .where(eq(patients.id, ticket.patientId))
    .limit(1);
  return { ticket, healthCenterId: patient?.healthCenterId ?? null };
}

/**
 * Moves a ticket along its machine (contracts TICKET_ACTIONS): ticket.invalidTransition from a
 * state the action does not start from, ticket.reasonRequired without a needed reason. Assign
 * hands the ticket to `assigneeId` (the caller when omitted); assigning the current handler of a
 * confirmed ticket again answers the ticket unchanged (idempotent). Start and complete are the
 * current handler's only: anyone else gets auth.permissionDenied (403) and the ticket is untouched.
 */
export async function changeTicket(
  environment: AlertEnvironment,
  id: string,
  action: TicketAction,
  input: TicketTransition,
): Promise<TicketDetail> {
  return asCaller(environment, async (tx) => {
    const { ticket, healthCenterId } = await lockTicket(tx, id);
    const from = ticket.status as TicketStatus;
    const result = transition(TICKET_ACTIONS, from, action, input.reason);
    if (!result.ok) {
      if (result.problem === 'invalidTransition') throw new AppError('ticket.invalidTransition');
      throw fieldError('ticket.reasonRequired', 'body.reason', 'too_small');
    }
    const { tenantId, userId } = environment.auth;
    // Starting and completing the work are the current handler's (contracts ticketActionsFor):
    // anyone else takes the ticket over first, so the history names who did the work.
    if ((action === 'start' || action === 'complete') && ticket.assigneeId !== userId)
      throw new AppError('auth.permissionDenied');
    const assigneeId = action === 'assign' ? (input.assigneeId ?? userId) : undefined;
    // Assigning the current handler again is not a change: no update, history, audit or event
    // (a current action typed with it waits for the next real change, as in the console).
    if (action === 'assign' && from === result.to && assigneeId === ticket.assigneeId)
      return ticketDetail(tx, id, actorOf(environment));
    if (assigneeId !== undefined && assigneeId !== userId) await requireAssignee(tx, assigneeId);
    const reason = (input.reason ?? '').trim();
    const now = environment.clock.now();
    const isFinal = result.to === 'SUCCESS' || result.to === 'CANCELED';
    await tx
      .update(tickets)
      .set({
        status: result.to,
        updatedAt: now,
        ...(assigneeId === undefined ? {} : { assigneeId }),
        ...(input.currentAction === undefined ? {} : { currentAction: input.currentAction }),
        ...(isFinal ? { closedAt: now } : {}),
        ...(action === 'cancel' ? { cancelReason: reason } : {}),
      })
      .where(eq(tickets.id, id));
    if (isFinal) await cancelJob(tx, `ticket-kpi:${id}`);
    // Status lifecycle: a closed ticket sets the status from the current readings (no open case).
    if (isFinal)
      await settleStatusOnClose(environment.database, tx, environment.clock, tenantId, ticket.patientId, 'TICKET_CLOSED', null);
    await recordTicketHistory(tx, {
      tenantId,
      ticketId: id,
      patientId: ticket.patientId,
      action: action.toUpperCase(),
      fromStatus: from,
      toStatus: result.to,
      note: [reason, input.currentAction ?? ''].filter((part) => part !== '').join(' · '),
      actorId: userId,
      at: now,
    });
    await recordAudit(tx, tenantId, environment.audit, {
      action: TICKET_AUDIT[action],
      targetType: 'ticket',
      targetId: id,
      details: { from, to: result.to, reason, assigneeId: assigneeId ?? null },
    });
    await publishEvent(tx, tenantId, {
      type: 'ticket.updated',
      patientId: ticket.patientId,
      healthCenterId,
      payload: { ticketId: id, status: result.to, action },
    });
    return ticketDetail(tx, id, actorOf(environment));
  });
}

/** KPI and customer ratings (1-5), once the work is done (ticket.notRatable before). */
export async function rateTicket(
  environment: AlertEnvironment,
  id: string,
  input: { kpiRating?: number | undefined; customerRating?: number | undefined },
): Promise<TicketDetail> {
  return asCaller(environment, async (tx) => {
    const { ticket, healthCenterId } = await lockTicket(tx, id);
    if (!RATABLE_TICKET_STATUSES.includes(ticket.status as TicketStatus))
      throw new AppError('ticket.notRatable');
    const now = environment.clock.now();
    const { tenantId, userId } = environment.auth;
    await tx
      .update(tickets)
      .set({
        updatedAt: now,
        ...(input.kpiRating === undefined ? {} : { kpiRating: input.kpiRating }),
        // A rating staff record (given over the phone) replaces the patient's own, message included.
        ...(input.customerRating === undefined
          ? {}
          : { customerRating: input.customerRating, customerRatingMessage: '', customerRatedAt: now, customerRatedBy: userId }),
      })
      .where(eq(tickets.id, id));
    const note = [
      input.kpiRating === undefined ? '' : `KPI ${String(input.kpiRating)}`,
      input.customerRating === undefined ? '' : `customer ${String(input.customerRating)}`,
    ]
      .filter((part) => part !== '')
      .join(' · ');
    await recordTicketHistory(tx, {
      tenantId,
      ticketId: id,
      patientId: ticket.patientId,
      action: 'RATED',
      note,
      actorId: userId,
      at: now,
    });
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'TICKET_RATED',
      targetType: 'ticket',
      targetId: id,
      details: { ...input },
    });
    await publishEvent(tx, tenantId, {
      type: 'ticket.updated',
      patientId: ticket.patientId,
      healthCenterId,
      payload: { ticketId: id, rated: true },
    });
    return ticketDetail(tx, id, actorOf(environment));
  });
}

/**
 * Ticket statistics over tickets created from `from` to `to` (UTC days, inclusive): counts per
 * status and type, KPI failures per reason, average handling time of those closed, per day.
 */
export async function ticketStatistics(
  environment: AlertEnvironment,
  query: { from: string; to: string; type?: string | undefined },
): Promise<TicketStatistics> {
  return asCaller(environment, async (tx) => {
    // Tickets are seen through their patient (the join applies center visibility).
    const visible = sql`FROM tickets t JOIN patients p ON p.tenant_id = t.tenant_id AND p.id = t.patient_id
      WHERE t.created_at >= ${query.from}::date AND t.created_at < (${query.to}::date + 1)
        AND (${query.type ?? null}::text IS NULL OR t.type = ${query.type ?? null}::text)`;
    const grouped = async (column: SQL) =>
      (
        await tx.execute<{ key: string | null; count: number }>(
          sql`SELECT ${column} AS key, count(*)::int AS count ${visible} GROUP BY 1`,
        )
      ).rows;
    const byStatusRows = await grouped(sql`t.status`);
    const byTypeRows = await grouped(sql`t.type`);
    const failureRows = await grouped(sql`t.kpi_failure_reason`);
    const averages = await tx.execute<{ minutes: number | null }>(
      sql`SELECT (avg(extract(epoch FROM t.closed_at - t.created_at)) / 60)::float8 AS minutes ${visible} AND t.status = 'SUCCESS'`,
    );
    const average = averages.rows[0];
    const perDay = (
      await tx.execute<{ day: string; created: number; closed: number }>(
        sql`SELECT to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS created,
                   (count(*) FILTER (WHERE t.status = 'SUCCESS'))::int AS closed ${visible} GROUP BY 1 ORDER BY 1`,
      )
    ).rows;
    const countOf = (rows: { key: string | null; count: number }[], key: string) =>
      rows.find((row) => row.key === key)?.count ?? 0;
    return {
      total: byStatusRows.reduce((sum, row) => sum + row.count, 0),
      byStatus: TICKET_STATUSES.map((status) => ({ status, count: countOf(byStatusRows, status) })),
      byType: TICKET_TYPES.map((type) => ({ type, count: countOf(byTypeRows, type) })),
      kpiFailures: KPI_FAILURE_REASONS.map((reason) => ({ reason, count: countOf(failureRows, reason) })),
      averageHandlingMinutes:
        average?.minutes === null || average?.minutes === undefined
          ? null
          : Math.round(average.minutes * 10) / 10,
      perDay,
    };
  });
}
