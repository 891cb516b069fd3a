import {
  actionsFrom,
  SOS_CASE_ACTIONS,
  type AuditAction,
  type SosCaseAction,
  type SosCaseDetail,
  type SosCaseListQuery,
  type SosCaseStatus,
  type SosCaseStep,
  type SosCaseSummary,
  type TicketStatus,
} from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { alerts, patientContacts, patients, sosCaseActions, sosCases, tickets } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { cancelJob } from '../jobs/queue.js';
import { publishEvent } from '../realtime/publish.js';
import { applyStatusEvent, settleStatusOnClose } from '../vitals/status-engine.js';
import { planCaseChange, planTicketFollow } from './case-plan.js';
import { listFollowers, queueCall, sendPatientMessage } from './delivery.js';
import { asCaller, fieldError, requirePatient, type AlertEnvironment } from './environment.js';
import { handleLevelSignal, sosKpiJobKey } from './escalation.js';
import type { AlertPatient } from './patient-context.js';
import { recordCaseHistory, recordTicketHistory } from './records.js';
import type { LevelSignal } from './escalation-plan.js';
import { renderAlertText } from './texts.js';
import {
  actorNames,
  locationOf,
  patientSearchText,
  selectCases,
  toCaseSummary,
  toContact,
  toVitals,
} from './views.js';

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
}

function caseConditions(query: SosCaseListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.status !== undefined) conditions.push(eq(sosCases.status, query.status));
  if (query.open === true) conditions.push(ne(sosCases.status, 'CLOSED'));
  if (query.open === false) conditions.push(eq(sosCases.status, 'CLOSED'));
  if (query.search !== undefined && query.search !== '')
    conditions.push(ilike(patientSearchText, escapeLike(query.search)));
  return and(...conditions);
}

function caseOrder(query: SosCaseListQuery): SQL[] {
  const direction = query.sortType === 'asc' ? asc : desc;
  switch (query.sortField) {
    case 'opened':
      return [direction(sosCases.openedAt), direction(sosCases.id)];
    case 'status':
      return [
        direction(
          sql`CASE ${sosCases.status} WHEN 'NEW' THEN 0 WHEN 'IN_PROCESS' THEN 1 WHEN 'RESOLVED' THEN 2 ELSE 3 END`,
        ),
        desc(sosCases.openedAt),
      ];
    case 'patient':
      return [
        direction(sql`lower(${patients.firstName} || ' ' || ${patients.lastName})`),
        desc(sosCases.openedAt),
      ];
    case 'kpiDue':
      return [direction(sosCases.kpiDueAt), direction(sosCases.id)];
  }
}

/** The SOS call list (spec §2): the caller's centers' cases, paged, searchable, sortable. */
export async function listSosCases(
  environment: AlertEnvironment,
  query: SosCaseListQuery,
): Promise<Page<SosCaseSummary>> {
  return asCaller(environment, async (tx) => {
    const where = caseConditions(query);
    const rows = await selectCases(tx)
      .where(where)
      .orderBy(...caseOrder(query))
      .limit(query.size)
      .offset(query.page * query.size);
    const totals = await tx
      .select({ total: count() })
      .from(sosCases)
      .innerJoin(patients, and(eq(patients.tenantId, sosCases.tenantId), eq(patients.id, sosCases.patientId)))
      .where(where);
    const items = rows.map(toCaseSummary);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'SOS_CASES_LISTED',
      targetType: 'sosCase',
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

/**
 * The case as the caller sees it: `canAct` false (a reader without health.sos, such as the
 * patient's doctor) offers no action.
 */
async function caseDetail(tx: TenantTransaction, id: string, canAct = true): Promise<SosCaseDetail> {
  const [row] = await selectCases(tx).where(eq(sosCases.id, id)).limit(1);
  if (row === undefined) throw new AppError('sosCase.notFound');
  const history = await tx
    .select()
    .from(sosCaseActions)
    .where(eq(sosCaseActions.sosCaseId, id))
    .orderBy(asc(sosCaseActions.at), asc(sosCaseActions.id));
  const names = await actorNames(
    tx,
    history.map((entry) => entry.actorId),
  );
  const followers = await listFollowers(tx, row.sosCase.patientId);
  const { sosCase } = row;
  return {
    ...toCaseSummary(row),
    vitals: toVitals(sosCase.vitals),
    location: locationOf(sosCase),
    resolvedAt: sosCase.resolvedAt?.toISOString() ?? null,
    closedAt: sosCase.closedAt?.toISOString() ?? null,
    closeReason: sosCase.closeReason,
    history: history.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      fromStatus: entry.fromStatus as SosCaseStatus | null,
      toStatus: entry.toStatus as SosCaseStatus | null,
      note: entry.note,
      actor: entry.actorId === null ? null : { id: entry.actorId, fullName: names.get(entry.actorId) ?? '' },
      at: entry.at.toISOString(),
    })),
    followers: followers.map((row) => toContact(row)),
    allowedActions: canAct ? actionsFrom(SOS_CASE_ACTIONS, sosCase.status as SosCaseStatus) : [],
  };
}

/**
 * A case with its vitals, location, followers and history (patient in SOS). Audited. Callers with
 * health.sos handle it; others who may read the patient (its doctors, health.view) only read it.
 */
export async function readSosCase(environment: AlertEnvironment, id: string): Promise<SosCaseDetail> {
  return asCaller(environment, async (tx) => {
    const detail = await caseDetail(tx, id, environment.auth.permissions.has('health.sos'));
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'SOS_CASE_VIEWED',
      targetType: 'sosCase',
      targetId: id,
      patientIds: [detail.patient.id],
      details: { patientId: detail.patient.id },
    });
    return detail;
  });
}

const CASE_AUDIT: Record<SosCaseAction, AuditAction> = {
  accept: 'SOS_CASE_ACCEPTED',
  resolve: 'SOS_CASE_RESOLVED',
  reopen: 'SOS_CASE_REOPENED',
  close: 'SOS_CASE_CLOSED',
};

/** Applies the ticket's steps when its case moves (case-plan.ts planTicketFollow). */
async function syncTicket(
  tx: TenantTransaction,
  clock: Clock,
  environment: AlertEnvironment,
  sosCaseId: string,
  action: SosCaseAction,
  reason: string,
  healthCenterId: string | null,
) {
  const [ticket] = await tx
    .select()
    .from(tickets)
    .where(eq(tickets.sosCaseId, sosCaseId))
    .limit(1)
    .for('update');
  if (ticket === undefined) return;
  const plan = planTicketFollow(ticket.status as TicketStatus, action, reason);
  if (plan === null) return;
  const now = clock.now();
  const actorId = environment.auth.userId;
  for (const step of plan.steps) {
    await recordTicketHistory(tx, {
      tenantId: environment.auth.tenantId,
      ticketId: ticket.id,
      patientId: ticket.patientId,
      action: step.action.toUpperCase(),
      fromStatus: step.from,
      toStatus: step.to,
      note: reason,
      actorId,
      at: now,
    });
  }
  await tx
    .update(tickets)
    .set({
      status: plan.status,
      updatedAt: now,
      ...(plan.assigns ? { assigneeId: actorId, currentAction: 'SOS' } : {}),
      ...(plan.isFinal ? { closedAt: now } : {}),
      ...(plan.cancelReason === null ? {} : { cancelReason: plan.cancelReason }),
    })
    .where(eq(tickets.id, ticket.id));
  await publishEvent(tx, environment.auth.tenantId, {
    type: 'ticket.updated',
    patientId: ticket.patientId,
    healthCenterId,
    payload: { ticketId: ticket.id, status: plan.status },
  });
}

/**
 * Moves a case along its machine (contracts SOS_CASE_ACTIONS): sosCase.invalidTransition from a
 * state the action does not start from, sosCase.reasonRequired without a needed reason. The case's
 * ticket follows; accepting stops the KPI timer; closing resolves the case's alerts.
 */
export async function changeSosCase(
  environment: AlertEnvironment,
  id: string,
  action: SosCaseAction,
  reasonText: string | undefined,
): Promise<SosCaseDetail> {
  return asCaller(environment, async (tx) => {
    const [sosCase] = await tx.select().from(sosCases).where(eq(sosCases.id, id)).limit(1).for('update');
    if (sosCase === undefined) throw new AppError('sosCase.notFound');
    const from = sosCase.status as SosCaseStatus;
    const plan = planCaseChange(from, action, reasonText);
    if (!plan.ok) {
      if (plan.problem === 'invalidTransition') throw new AppError('sosCase.invalidTransition');
      throw fieldError('sosCase.reasonRequired', 'body.reason', 'too_small');
    }
    const { reason } = plan;
    const now = environment.clock.now();
    const { userId, tenantId } = environment.auth;
    await tx
      .update(sosCases)
      .set({
        status: plan.to,
        updatedAt: now,
        ...(plan.assigns ? { assignedTo: userId, acceptedAt: now } : {}),
        ...(plan.resolvedAt === 'SET' ? { resolvedAt: now } : {}),
        ...(plan.resolvedAt === 'CLEAR' ? { resolvedAt: null } : {}),
        ...(plan.closes ? { closedAt: now, closeReason: reason } : {}),
      })
      .where(eq(sosCases.id, id));
    await recordCaseHistory(tx, {
      tenantId,
      sosCaseId: id,
      patientId: sosCase.patientId,
      kind: action.toUpperCase(),
      fromStatus: from,
      toStatus: plan.to,
      note: reason,
      actorId: userId,
      at: now,
    });
    if (plan.cancelKpi) await cancelJob(tx, sosKpiJobKey(id));
    if (plan.alerts !== null) {
      const done =
        plan.alerts.to === 'RESOLVED'
          ? { status: 'RESOLVED', resolvedAt: now, resolvedBy: userId }
          : { status: 'ACKNOWLEDGED', acknowledgedAt: now, acknowledgedBy: userId };
      await tx
        .update(alerts)
        .set(done)
        .where(and(eq(alerts.sosCaseId, id), inArray(alerts.status, [...plan.alerts.from])));
    }
    const [patient] = await tx
      .select({ healthCenterId: patients.healthCenterId })
      .from(patients)
      .where(eq(patients.id, sosCase.patientId))
      .limit(1);
    const healthCenterId = patient?.healthCenterId ?? null;
    await syncTicket(tx, environment.clock, environment, id, action, reason, healthCenterId);
    // Status lifecycle: a closed case sets the status from the current readings.
    if (plan.settlesStatus) {
      await settleStatusOnClose(environment.database, tx, environment.clock, tenantId, sosCase.patientId, 'CASE_CLOSED', null);
    }
    await recordAudit(tx, tenantId, environment.audit, {
      action: CASE_AUDIT[action],
      targetType: 'sosCase',
      targetId: id,
      details: { from, to: plan.to, reason, patientId: sosCase.patientId },
    });
    await publishEvent(tx, tenantId, {
      type: 'sos.updated',
      patientId: sosCase.patientId,
      healthCenterId,
      payload: { sosCaseId: id, status: plan.to, action },
    });
    return caseDetail(tx, id);
  });
}

/**
 * Logs what the operator did (spec §3 action taken): a call or SMS to the patient or a follower, a
 * dispatch, a note. Calls and SMS to the patient or a follower are placed and recorded (SMS and
 * call management), the history naming who was reached at which number; the patient without a
 * phone answers sosCase.patientNoPhone. A closed case takes no more actions (sosCase.invalidTransition).
 */
export async function logSosStep(
  environment: AlertEnvironment,
  id: string,
  step: SosCaseStep,
): Promise<SosCaseDetail> {
  return asCaller(environment, async (tx) => {
    const [sosCase] = await tx.select().from(sosCases).where(eq(sosCases.id, id)).limit(1).for('update');
    if (sosCase === undefined) throw new AppError('sosCase.notFound');
    if (sosCase.status === 'CLOSED') throw new AppError('sosCase.invalidTransition');
    const { tenantId, userId } = environment.auth;
    const { clock } = environment;
    const patient = await requirePatient(tx, sosCase.patientId);
    const needsContact = step.type === 'CALL_FOLLOWER' || step.type === 'SMS';
    let contactName = '';
    if (needsContact && step.contactId !== undefined) {
      const [contact] = await tx
        .select()
        .from(patientContacts)
        .where(and(eq(patientContacts.id, step.contactId), eq(patientContacts.patientId, patient.id)))
        .limit(1);
      if (contact === undefined) throw fieldError('contact.notFound', 'body.contactId');
      contactName = `${contact.name} (${contact.phone})`;
      const link = { patient, sosCaseId: id, contact };
      if (step.type === 'CALL_FOLLOWER') {
        await queueCall(tx, clock, tenantId, {
          ...link,
          to: contact.phone,
          toName: contact.name,
          purpose: 'SOS_OPERATOR_CALL',
        });
      } else {
        await sendPatientMessage(tx, clock, tenantId, {
          ...link,
          channel: 'SMS',
          recipient: contact.phone,
          toName: contact.name,
          body:
            step.note === ''
              ? renderAlertText(patient.language, 'SOS_FOLLOWER', {
                  name: patient.fullName,
                  level: sosCase.reason,
                  hotline: patient.hotline,
                  location: locationOf(sosCase),
                })
              : step.note,
          purpose: 'SOS_OPERATOR_SMS',
        });
      }
    } else if (step.type === 'CALL_PATIENT' || step.type === 'SMS_PATIENT') {
      // The patient is reached through the same adapters as followers, at the patient's phone.
      if (patient.phone === null || patient.phone === '') throw new AppError('sosCase.patientNoPhone');
      contactName = `${patient.fullName} (${patient.phone})`;
      const link = { patient, sosCaseId: id, to: patient.phone, toName: patient.fullName };
      if (step.type === 'CALL_PATIENT') {
        await queueCall(tx, clock, tenantId, { ...link, purpose: 'SOS_OPERATOR_CALL' });
      } else {
        await sendPatientMessage(tx, clock, tenantId, {
          patient,
          sosCaseId: id,
          channel: 'SMS',
          recipient: patient.phone,
          toName: patient.fullName,
          body:
            step.note === ''
              ? renderAlertText(patient.language, 'SOS_PATIENT', {
                  name: patient.fullName,
                  hotline: patient.hotline,
                })
              : step.note,
          purpose: 'SOS_OPERATOR_SMS',
        });
      }
    }
    const note = [contactName, step.note].filter((part) => part !== '').join(': ');
    await recordCaseHistory(tx, {
      tenantId,
      sosCaseId: id,
      patientId: patient.id,
      kind: step.type,
      note,
      actorId: userId,
      at: clock.now(),
    });
    await recordAudit(tx, tenantId, environment.audit, {
      action: 'SOS_CASE_STEP_LOGGED',
      targetType: 'sosCase',
      targetId: id,
      details: { type: step.type, patientId: patient.id },
    });
    await publishEvent(tx, tenantId, {
      type: 'sos.updated',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: { sosCaseId: id, step: step.type },
    });
    return caseDetail(tx, id);
  });
}

/**
 * An SOS outside the readings: the patient app's SOS button or fall, or a hotline call an operator
 * records. Sub-users never raise SOS (sosCase.subUser). Opens the case (or adds to the open one).
 */
export async function raiseSos(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patient: AlertPatient,
  input: {
    source: LevelSignal['source'];
    location: { lat: number; lng: number } | null;
    actorId: string | null;
    note: string;
  },
): Promise<string> {
  if (patient.isSubUser) throw new AppError('sosCase.subUser');
  const previousStatus = patient.status;
  // The status lifecycle and the episode rule, as for a batch carrying the event (status SOS with
  // its history row, the episode at SOS, the press as evidence); the case is opened below.
  await applyStatusEvent(
    tx,
    clock,
    tenantId,
    patient.id,
    {
      code: 'EVENT',
      params: {
        source: input.source === 'FALL' || input.source === 'SOS_BUTTON' ? input.source : 'HOTLINE_CALL',
        ...(input.note === '' ? {} : { note: input.note }),
      },
    },
    input.actorId,
  );
  const outcome = await handleLevelSignal(tx, clock, {
    tenantId,
    patientId: patient.id,
    healthCenterId: patient.healthCenterId,
    level: 'SOS',
    previousStatus,
    alertType: input.source === 'FALL' ? 'FALL' : 'CALL',
    vitals: [],
    location: input.location,
    source: input.source,
  });
  if (outcome.sosCaseId === null) throw new AppError('patient.accountDeleted');
  return outcome.sosCaseId;
}

/** An operator records a patient's hotline call: an SOS case opens (spec §1 hotline call). */
export async function raiseHotlineSos(
  environment: AlertEnvironment,
  patientId: string,
  input: { note: string; location?: { lat: number; lng: number } | null },
): Promise<SosCaseDetail> {
  return asCaller(environment, async (tx) => {
    const patient = await requirePatient(tx, patientId, { lock: true });
    const sosCaseId = await raiseSos(tx, environment.clock, environment.auth.tenantId, patient, {
      source: 'HOTLINE_CALL',
      location: input.location ?? null,
      actorId: environment.auth.userId,
      note: input.note,
    });
    if (input.note !== '') {
      await recordCaseHistory(tx, {
        tenantId: environment.auth.tenantId,
        sosCaseId,
        patientId,
        kind: 'NOTE',
        note: input.note,
        actorId: environment.auth.userId,
        at: environment.clock.now(),
      });
    }
    return caseDetail(tx, sosCaseId);
  });
}
