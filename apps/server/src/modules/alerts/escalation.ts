import { TICKET_KPI } from '@rpm/contracts';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database, TenantTransaction } from '../../db/database.js';
import { alerts, sosCases, tickets } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { scheduleJob } from '../jobs/queue.js';
import { notify } from '../notifications/notify.js';
import { publishEvent } from '../realtime/publish.js';
import { listFollowers, queueCall, sendPatientMessage } from './delivery.js';
import {
  escalationLevel,
  planEscalation,
  planFollowerCalls,
  planFollowerSms,
  planNoData,
  type CareTeamDoctor,
  type EscalationPlan,
  type EscalationState,
  type LevelSignal,
  type NoDataSignal,
} from './escalation-plan.js';
import type { AlertPatient } from './patient-context.js';
import { loadAlertPatient } from './patient-context.js';
import { insertTicket, readAlertSettings, recordCaseHistory, recordTicketHistory } from './records.js';

/*
 * The escalation executor: loads what the pure rules of escalation-plan.ts need, asks them for a
 * plan and applies it in the caller's transaction (applyPlan) — the one place where alerts, SOS
 * cases, their tickets, messages, calls and timers of the automatic flow are written.
 */

export {
  HIGH_RISK_TIMEOUT_TASK,
  highRiskJobKey,
  SOS_KPI_TASK,
  sosKpiJobKey,
  type LevelSignal,
  type NoDataSignal,
} from './escalation-plan.js';

/** What a job handler of this module works with (a subset of the job runner's context). */
export interface AlertJobContext {
  tenantId: string;
  database: Pick<Database, 'withTenant'>;
  clock: Clock;
}

/** What a signal did, for the caller (routes answer with the SOS case). */
export interface SignalOutcome {
  alertId: string | null;
  sosCaseId: string | null;
}

/** The doctors of the patient's care team (active accounts), in the order they were assigned. */
async function loadCareTeam(tx: TenantTransaction, patientId: string): Promise<CareTeamDoctor[]> {
  const doctors = await tx.execute<CareTeamDoctor & Record<string, unknown>>(sql`
    SELECT doctor.id, doctor.email, doctor.phone, doctor.language, doctor.first_name || ' ' || doctor.last_name AS name
      FROM patient_doctors link
      JOIN users doctor ON doctor.tenant_id = link.tenant_id AND doctor.id = link.doctor_id
     WHERE link.patient_id = ${patientId}::uuid AND doctor.status = 'ACTIVE'
     ORDER BY link.assigned_at`);
  return doctors.rows;
}

/**
 * What the rules need for this signal, and no more: the patient (locked for SOS, so one patient's
 * SOS handling is serialised and there is one open case), the open case for SOS, and the
 * followers and care team when a case opens.
 */
async function loadEscalationState(tx: TenantTransaction, signal: LevelSignal): Promise<EscalationState> {
  const patient = await loadAlertPatient(tx, signal.patientId, { lock: signal.level === 'SOS' });
  const state: EscalationState = {
    patient,
    openCase: null,
    followers: [],
    careTeam: [],
    ids: { alert: uuidv7(), sosCase: uuidv7() },
  };
  if (patient === undefined || escalationLevel(patient, signal) !== 'SOS') return state;
  const [open] = await tx
    .select({ id: sosCases.id, status: sosCases.status })
    .from(sosCases)
    .where(and(eq(sosCases.patientId, patient.id), ne(sosCases.status, 'CLOSED')))
    .limit(1)
    .for('update');
  if (open !== undefined) return { ...state, openCase: open };
  return {
    ...state,
    followers: await listFollowers(tx, patient.id),
    careTeam: await loadCareTeam(tx, patient.id),
  };
}

/**
 * Applies an escalation plan in the caller's transaction, in a fixed order: the SOS case (opened
 * or taken up again), the alert and its live event, the case history, the SOS ticket, the timers,
 * the messages and calls, the plan's live events.
 */
export async function applyPlan(
  tx: TenantTransaction,
  clock: Clock,
  plan: EscalationPlan,
): Promise<SignalOutcome> {
  const { tenantId, patient } = plan;
  if (patient === null) return { alertId: null, sosCaseId: null };
  const now = clock.now();
  const opened = plan.sosCase;
  if (opened?.kind === 'OPEN') {
    await tx.insert(sosCases).values({
      tenantId,
      id: opened.id,
      patientId: patient.id,
      reason: opened.reason,
      source: opened.source,
      vitals: opened.vitals,
      locationLat: opened.location?.lat ?? null,
      locationLng: opened.location?.lng ?? null,
      openedAt: now,
      kpiDueAt: opened.kpiDueAt,
      updatedAt: now,
    });
  } else if (opened?.kind === 'REOPEN') {
    await tx
      .update(sosCases)
      .set({ status: 'IN_PROCESS', resolvedAt: null, updatedAt: now })
      .where(eq(sosCases.id, opened.id));
  }
  const { alert } = plan;
  if (alert !== null) {
    await tx.insert(alerts).values({
      tenantId,
      id: alert.id,
      patientId: patient.id,
      type: alert.type,
      level: alert.level,
      measureValues: alert.vitals,
      source: alert.source,
      sosCaseId: alert.sosCaseId,
      createdAt: now,
    });
    await publishEvent(tx, tenantId, {
      type: 'alert.raised',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: {
        alertId: alert.id,
        type: alert.type,
        level: alert.level,
        source: alert.source,
        sosCaseId: alert.sosCaseId,
      },
    });
  }
  for (const entry of plan.caseEntries) {
    await recordCaseHistory(tx, { tenantId, patientId: patient.id, ...entry, at: now });
  }
  if (plan.ticket !== null) {
    await insertTicket(tx, clock, {
      tenantId,
      type: 'SOS',
      title: plan.ticket.title,
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      sosCaseId: plan.ticket.sosCaseId,
      sosAt: plan.ticket.sosAt,
      location: plan.ticket.location,
      healthIndicators: plan.ticket.healthIndicators,
      kpiDueAt: plan.ticket.kpiDueAt,
      createdBy: null,
    });
  }
  for (const job of plan.jobs) {
    await scheduleJob(tx, tenantId, job.task, job.payload, { runAt: job.runAt, jobKey: job.jobKey });
  }
  for (const delivery of plan.deliveries) {
    const link = {
      patient,
      sosCaseId: delivery.sosCaseId,
      contact: delivery.contactId === null ? null : { id: delivery.contactId },
    };
    if (delivery.kind === 'CALL') {
      await queueCall(tx, clock, tenantId, {
        ...link,
        to: delivery.to,
        toName: delivery.toName,
        purpose: delivery.purpose,
      });
    } else {
      await sendPatientMessage(tx, clock, tenantId, {
        ...link,
        channel: delivery.channel,
        recipient: delivery.recipient,
        toName: delivery.toName,
        ...(delivery.subject === undefined ? {} : { subject: delivery.subject }),
        body: delivery.body,
        purpose: delivery.purpose,
      });
    }
  }
  for (const event of plan.events) {
    await publishEvent(tx, tenantId, {
      type: event.type,
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: event.payload,
    });
  }
  for (const notice of plan.notices) {
    await notify(tx, tenantId, { ...notice, patientId: patient.id, at: clock.now() });
  }
  return {
    alertId: alert?.id ?? null,
    sosCaseId: opened?.id ?? alert?.sosCaseId ?? null,
  };
}

/**
 * The alerting side of a level signal, in the caller's transaction (see signalLevel): loads the
 * state, plans (escalation-plan.ts planEscalation) and applies the plan.
 */
export async function handleLevelSignal(
  tx: TenantTransaction,
  clock: Clock,
  signal: LevelSignal,
): Promise<SignalOutcome> {
  const state = await loadEscalationState(tx, signal);
  if (escalationLevel(state.patient, signal) === null) return { alertId: null, sosCaseId: null };
  const settings = await readAlertSettings(tx, signal.tenantId);
  return applyPlan(tx, clock, planEscalation(state, signal, settings, clock.now()));
}

/** The no-data alert (escalation-plan.ts planNoData). Returns the alert's id. */
export async function handleNoDataSignal(
  tx: TenantTransaction,
  clock: Clock,
  signal: NoDataSignal,
): Promise<string | null> {
  const patient = await loadAlertPatient(tx, signal.patientId, { lock: false });
  return (await applyPlan(tx, clock, planNoData(patient, signal, uuidv7()))).alertId;
}

/** SMS to every follower on the patient's behalf (high risk without an answer). Returns how many. */
export async function smsFollowers(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patient: AlertPatient,
  level: string,
): Promise<number> {
  const followers = await listFollowers(tx, patient.id);
  await applyPlan(tx, clock, planFollowerSms(tenantId, patient, followers, level));
  return followers.length;
}

/** Calls every follower at once ("call followers", spec §4). Returns how many calls were queued. */
export async function callFollowers(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patient: AlertPatient,
): Promise<number> {
  const followers = await listFollowers(tx, patient.id);
  await applyPlan(tx, clock, planFollowerCalls(tenantId, patient, followers));
  return followers.length;
}

/**
 * The high-risk confirmation window ran out (job alerts.highRiskTimeout): unless the patient
 * answered, every follower gets an SMS. Idempotent: the alert's answer is set once.
 */
export async function runHighRiskTimeout(
  context: AlertJobContext,
  payload: { alertId: string },
): Promise<{ smsSent: number }> {
  return context.database.withTenant(context.tenantId, async (tx) => {
    const [alert] = await tx
      .select()
      .from(alerts)
      .where(eq(alerts.id, payload.alertId))
      .limit(1)
      .for('update');
    if (alert?.answer !== 'NONE' || alert.status === 'RESOLVED') return { smsSent: 0 };
    const patient = await loadAlertPatient(tx, alert.patientId);
    await tx.update(alerts).set({ answer: 'ESCALATED' }).where(eq(alerts.id, alert.id));
    if (!patient?.isActive) return { smsSent: 0 };
    return { smsSent: await smsFollowers(tx, context.clock, context.tenantId, patient, alert.type) };
  });
}

/**
 * The SOS processing deadline passed (job alerts.sosKpi): a case still NEW fails its KPI
 * (SOS_PROCESSING_OVERDUE), recorded on the case and on its ticket. Idempotent.
 */
export async function runSosKpiCheck(
  context: AlertJobContext,
  payload: { sosCaseId: string },
): Promise<{ failed: boolean }> {
  return context.database.withTenant(context.tenantId, async (tx) => {
    const [sosCase] = await tx
      .select()
      .from(sosCases)
      .where(eq(sosCases.id, payload.sosCaseId))
      .limit(1)
      .for('update');
    if (sosCase?.status !== 'NEW' || sosCase.kpiFailed) return { failed: false };
    const now = context.clock.now();
    if (sosCase.kpiDueAt.getTime() > now.getTime()) return { failed: false };
    await tx.update(sosCases).set({ kpiFailed: true, updatedAt: now }).where(eq(sosCases.id, sosCase.id));
    await recordCaseHistory(tx, {
      tenantId: context.tenantId,
      sosCaseId: sosCase.id,
      patientId: sosCase.patientId,
      kind: 'KPI_FAILED',
      note: 'SOS_PROCESSING_OVERDUE',
      at: now,
    });
    const ticketRows = await tx
      .update(tickets)
      .set({ kpiFailureReason: 'SOS_PROCESSING_OVERDUE', updatedAt: now })
      .where(and(eq(tickets.sosCaseId, sosCase.id), sql`${tickets.kpiFailureReason} IS NULL`))
      .returning({ id: tickets.id });
    for (const ticket of ticketRows) {
      await recordTicketHistory(tx, {
        tenantId: context.tenantId,
        ticketId: ticket.id,
        patientId: sosCase.patientId,
        action: 'KPI_FAILED',
        note: 'SOS_PROCESSING_OVERDUE',
        at: now,
      });
    }
    const patient = await loadAlertPatient(tx, sosCase.patientId);
    const healthCenterId = patient?.healthCenterId ?? null;
    await publishEvent(tx, context.tenantId, {
      type: 'sos.updated',
      patientId: sosCase.patientId,
      healthCenterId,
      payload: { sosCaseId: sosCase.id, kpiFailed: true },
    });
    for (const ticket of ticketRows) {
      await publishEvent(tx, context.tenantId, {
        type: 'ticket.updated',
        patientId: sosCase.patientId,
        healthCenterId,
        payload: { ticketId: ticket.id, kpiFailureReason: 'SOS_PROCESSING_OVERDUE' },
      });
    }
    return { failed: true };
  });
}

/** A ticket's KPI deadline passed (job alerts.ticketKpi): unfinished work records its failure reason. */
export async function runTicketKpiCheck(
  context: AlertJobContext,
  payload: { ticketId: string },
): Promise<{ failed: boolean }> {
  return context.database.withTenant(context.tenantId, async (tx) => {
    const now = context.clock.now();
    const [ticket] = await tx
      .select()
      .from(tickets)
      .where(eq(tickets.id, payload.ticketId))
      .limit(1)
      .for('update');
    if (ticket?.kpiFailureReason !== null || ticket.kpiDueAt.getTime() > now.getTime())
      return { failed: false };
    if (['COMPLETED', 'SUCCESS', 'CANCELED'].includes(ticket.status)) return { failed: false };
    const reason = TICKET_KPI[ticket.type as keyof typeof TICKET_KPI].failure;
    await tx
      .update(tickets)
      .set({ kpiFailureReason: reason, updatedAt: now })
      .where(eq(tickets.id, ticket.id));
    await recordTicketHistory(tx, {
      tenantId: context.tenantId,
      ticketId: ticket.id,
      patientId: ticket.patientId,
      action: 'KPI_FAILED',
      note: reason,
      at: now,
    });
    const patient = await loadAlertPatient(tx, ticket.patientId);
    await publishEvent(tx, context.tenantId, {
      type: 'ticket.updated',
      patientId: ticket.patientId,
      healthCenterId: patient?.healthCenterId ?? null,
      payload: { ticketId: ticket.id, kpiFailureReason: reason },
    });
    return { failed: true };
  });
}

/** The newest high-risk alert still waiting for the patient's answer. */
export async function findWaitingHighRiskAlert(tx: TenantTransaction, patientId: string) {
  const [row] = await tx
    .select()
    .from(alerts)
    .where(
      and(
        eq(alerts.patientId, patientId),
        eq(alerts.level, 'HIGH_RISK'),
        eq(alerts.answer, 'NONE'),
        inArray(alerts.status, ['OPEN', 'ACKNOWLEDGED']),
      ),
    )
    .orderBy(desc(alerts.createdAt))
    .limit(1)
    .for('update');
  return row;
}
