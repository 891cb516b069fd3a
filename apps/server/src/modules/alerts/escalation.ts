import { TICKET_KPI, type AlertLevel, type AlertType } from '@rpm/contracts';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database, TenantTransaction } from '../../db/database.js';
import { alerts, sosCases, tickets, type StoredVital } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { scheduleJob } from '../jobs/queue.js';
import { publishEvent } from '../realtime/publish.js';
import { listFollowers, queueCall, sendPatientMessage } from './delivery.js';
import type { AlertPatient } from './patient-context.js';
import { loadAlertPatient } from './patient-context.js';
import { insertTicket, readAlertSettings, recordCaseHistory, recordTicketHistory } from './records.js';
import { renderAlertText } from './texts.js';

/**
 * What the vitals status engine tells the alerting side, inside the transaction that stored the
 * readings: a patient reached `level` because of these readings (or a fall, the SOS button, a
 * hotline call). The alerting side opens alerts, SOS cases and tickets, schedules the escalation
 * timers and publishes the live events — all in the same transaction.
 */
export interface LevelSignal {
  tenantId: string;
  patientId: string;
  healthCenterId: string | null;
  level: AlertLevel;
  /**
   * The level already alerted in the patient's current alert episode (contracts decideEpisode;
   * NORMAL: a new episode). Readings at or below it alert nothing.
   */
  previousStatus: 'NORMAL' | AlertLevel;
  alertType: AlertType;
  /** The readings (canonical units) that reached the level, for "vitals at SOS time". */
  vitals: readonly { measure: string; value: number; measuredAt: Date }[];
  /** Where the patient was, if the device said. */
  location?: { lat: number; lng: number } | null;
  source: 'READING' | 'FALL' | 'SOS_BUTTON' | 'HOTLINE_CALL' | 'MANUAL' | 'NO_DATA';
}

/** A patient whose bound device stopped syncing (no-data check, spec "no-data alert"). */
export interface NoDataSignal {
  tenantId: string;
  patientId: string;
  healthCenterId: string | null;
  deviceId: string;
  lastSyncedAt: Date | null;
  /** The tenant's allowed silence that was exceeded. */
  thresholdMinutes: number;
}

/** What a job handler of this module works with (a subset of the job runner's context). */
export interface AlertJobContext {
  tenantId: string;
  database: Pick<Database, 'withTenant'>;
  clock: Clock;
}

/** Task names of the durable timers (modules/jobs). */
export const HIGH_RISK_TIMEOUT_TASK = 'alerts.highRiskTimeout';
export const SOS_KPI_TASK = 'alerts.sosKpi';
export const highRiskJobKey = (patientId: string) => `high-risk:${patientId}`;
export const sosKpiJobKey = (sosCaseId: string) => `sos-kpi:${sosCaseId}`;

const RANK: Record<'NORMAL' | AlertLevel, number> = { NORMAL: 0, AT_RISK: 1, HIGH_RISK: 2, SOS: 3 };

const storedVitals = (signal: LevelSignal): StoredVital[] =>
  signal.vitals.map((vital) => ({
    measure: vital.measure,
    value: vital.value,
    measuredAt: vital.measuredAt.toISOString(),
  }));

/** What a signal did, for the caller (routes answer with the SOS case). */
export interface SignalOutcome {
  alertId: string | null;
  sosCaseId: string | null;
}

/**
 * The alerting side of a level signal, in the caller's transaction (see signalLevel):
 * AT_RISK notifies the patient; HIGH_RISK notifies the patient and starts the confirmation
 * window; SOS opens (or adds to) the patient's SOS case with its ticket, calls and SMS to the
 * followers and an alert to the care team. Sub-users never get SOS (spec §6): their SOS is
 * handled as HIGH_RISK. Readings below SOS do nothing while the patient said "I am fine".
 */
export async function handleLevelSignal(
  tx: TenantTransaction,
  clock: Clock,
  signal: LevelSignal,
): Promise<SignalOutcome> {
  const patient = await loadAlertPatient(tx, signal.patientId, { lock: signal.level === 'SOS' });
  if (!patient?.isActive) return { alertId: null, sosCaseId: null };
  const level: AlertLevel = signal.level === 'SOS' && patient.isSubUser ? 'HIGH_RISK' : signal.level;
  const isEvent = signal.source !== 'READING';
  if (level !== 'SOS' && patient.isSuppressed) return { alertId: null, sosCaseId: null };
  // Readings signal a rise; a repeated signal at a level already reached adds nothing.
  if (!isEvent && RANK[level] <= RANK[signal.previousStatus] && level !== 'SOS')
    return { alertId: null, sosCaseId: null };

  if (level === 'SOS') return openSos(tx, clock, patient, signal);
  const alertId = await raiseAlert(tx, clock, patient, signal, level, null);
  const settings = await readAlertSettings(tx, signal.tenantId);
  const text = level === 'AT_RISK' ? 'AT_RISK_PATIENT' : 'HIGH_RISK_PATIENT';
  await notifyPatient(tx, clock, signal.tenantId, patient, {
    purpose: `ALERT_${level}`,
    body: renderAlertText(patient.language, text, {
      name: patient.fullName,
      level: signal.alertType,
      seconds: settings.highRiskConfirmSeconds,
    }),
  });
  if (level === 'HIGH_RISK') {
    const runAt = new Date(clock.now().getTime() + settings.highRiskConfirmSeconds * 1000);
    await scheduleJob(
      tx,
      signal.tenantId,
      HIGH_RISK_TIMEOUT_TASK,
      { alertId },
      { runAt, jobKey: highRiskJobKey(patient.id) },
    );
  }
  return { alertId, sosCaseId: null };
}

/**
 * The no-data alert: a bound watch has been silent longer than the tenant allows. An AT_RISK alert
 * of type NO_DATA for the care team (live event) and a notice to the patient to check the watch; it
 * does not change the patient's status (no vital sign says anything about it).
 */
export async function handleNoDataSignal(
  tx: TenantTransaction,
  clock: Clock,
  signal: NoDataSignal,
): Promise<string | null> {
  const patient = await loadAlertPatient(tx, signal.patientId, { lock: false });
  if (!patient?.isActive) return null;
  const levelSignal: LevelSignal = {
    tenantId: signal.tenantId,
    patientId: signal.patientId,
    healthCenterId: signal.healthCenterId,
    level: 'AT_RISK',
    previousStatus: 'NORMAL',
    alertType: 'NO_DATA',
    vitals: [],
    location: null,
    source: 'NO_DATA',
  };
  const alertId = await raiseAlert(tx, clock, patient, levelSignal, 'AT_RISK', null);
  await notifyPatient(tx, clock, signal.tenantId, patient, {
    purpose: 'ALERT_NO_DATA',
    body: renderAlertText(patient.language, 'NO_DATA_PATIENT', { name: patient.fullName }),
  });
  return alertId;
}

async function raiseAlert(
  tx: TenantTransaction,
  clock: Clock,
  patient: AlertPatient,
  signal: LevelSignal,
  level: AlertLevel,
  sosCaseId: string | null,
): Promise<string> {
  const id = uuidv7();
  await tx.insert(alerts).values({
    tenantId: signal.tenantId,
    id,
    patientId: patient.id,
    type: signal.alertType,
    level,
    measureValues: storedVitals(signal),
    source: signal.source,
    sosCaseId,
    createdAt: clock.now(),
  });
  await publishEvent(tx, signal.tenantId, {
    type: 'alert.raised',
    patientId: patient.id,
    healthCenterId: patient.healthCenterId,
    payload: { alertId: id, type: signal.alertType, level, source: signal.source, sosCaseId },
  });
  return id;
}

/** The patient's own notice: SMS to their phone, else email (the app's push comes later). */
async function notifyPatient(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patient: AlertPatient,
  message: { purpose: string; body: string },
): Promise<void> {
  const channel = patient.phone !== null ? 'SMS' : patient.email !== null ? 'EMAIL' : null;
  if (channel === null) return;
  await sendPatientMessage(tx, clock, tenantId, {
    patient,
    channel,
    recipient: (channel === 'SMS' ? patient.phone : patient.email) ?? '',
    toName: patient.fullName,
    subject: patient.language === 'vi' ? 'Cảnh báo sức khỏe' : 'Health alert',
    body: message.body,
    purpose: message.purpose,
  });
}

async function openSos(
  tx: TenantTransaction,
  clock: Clock,
  patient: AlertPatient,
  signal: LevelSignal,
): Promise<SignalOutcome> {
  const now = clock.now();
  const { tenantId } = signal;
  const [open] = await tx
    .select()
    .from(sosCases)
    .where(and(eq(sosCases.patientId, patient.id), ne(sosCases.status, 'CLOSED')))
    .limit(1)
    .for('update');
  if (open !== undefined) {
    // One open case per patient: a second SOS is recorded on it (and brings a resolved case back).
    const alertId = await raiseAlert(tx, clock, patient, signal, 'SOS', open.id);
    // System entries keep the source code as their note; the console shows it translated.
    const note = signal.source;
    await recordCaseHistory(tx, {
      tenantId,
      sosCaseId: open.id,
      patientId: patient.id,
      kind: 'SOS_REPEATED',
      note,
      at: now,
    });
    if (open.status === 'RESOLVED') {
      await tx
        .update(sosCases)
        .set({ status: 'IN_PROCESS', resolvedAt: null, updatedAt: now })
        .where(eq(sosCases.id, open.id));
      await recordCaseHistory(tx, {
        tenantId,
        sosCaseId: open.id,
        patientId: patient.id,
        kind: 'REOPEN',
        fromStatus: 'RESOLVED',
        toStatus: 'IN_PROCESS',
        note,
        at: now,
      });
    }
    await publishEvent(tx, tenantId, {
      type: 'sos.updated',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: {
        sosCaseId: open.id,
        status: open.status === 'RESOLVED' ? 'IN_PROCESS' : open.status,
        repeated: true,
      },
    });
    return { alertId, sosCaseId: open.id };
  }

  const settings = await readAlertSettings(tx, tenantId);
  const kpiDueAt = new Date(now.getTime() + settings.sosKpiMinutes * 60_000);
  const sosCaseId = uuidv7();
  const vitals = storedVitals(signal);
  const location = signal.location ?? null;
  await tx.insert(sosCases).values({
    tenantId,
    id: sosCaseId,
    patientId: patient.id,
    reason: signal.alertType,
    source: signal.source,
    vitals,
    locationLat: location?.lat ?? null,
    locationLng: location?.lng ?? null,
    openedAt: now,
    kpiDueAt,
    updatedAt: now,
  });
  await recordCaseHistory(tx, {
    tenantId,
    sosCaseId,
    patientId: patient.id,
    kind: 'OPENED',
    toStatus: 'NEW',
    note: signal.source,
    at: now,
  });
  const alertId = await raiseAlert(tx, clock, patient, signal, 'SOS', sosCaseId);
  await insertTicket(tx, clock, {
    tenantId,
    type: 'SOS',
    title: `SOS ${patient.patientCode} ${patient.fullName}`,
    patientId: patient.id,
    healthCenterId: patient.healthCenterId,
    sosCaseId,
    sosAt: now,
    location,
    healthIndicators: vitals,
    kpiDueAt,
    createdBy: null,
  });
  await scheduleJob(
    tx,
    tenantId,
    SOS_KPI_TASK,
    { sosCaseId },
    { runAt: kpiDueAt, jobKey: sosKpiJobKey(sosCaseId) },
  );

  // Spec §4: SOS -> automatic call and SMS to the followers; an alert to the care team.
  const text = { name: patient.fullName, level: signal.alertType, hotline: patient.hotline, location };
  for (const contact of await listFollowers(tx, patient.id)) {
    const link = { patient, sosCaseId, contact };
    if (contact.contactType === 'EMERGENCY') {
      await queueCall(tx, clock, tenantId, {
        ...link,
        to: contact.phone,
        toName: contact.name,
        purpose: 'SOS_FOLLOWER_CALL',
      });
    }
    await sendPatientMessage(tx, clock, tenantId, {
      ...link,
      channel: 'SMS',
      recipient: contact.phone,
      toName: contact.name,
      body: renderAlertText(patient.language, 'SOS_FOLLOWER', text),
      purpose: 'SOS_FOLLOWER_SMS',
    });
  }
  await notifyCareTeam(tx, clock, tenantId, patient, sosCaseId, text);
  await publishEvent(tx, tenantId, {
    type: 'sos.opened',
    patientId: patient.id,
    healthCenterId: patient.healthCenterId,
    payload: {
      sosCaseId,
      patientId: patient.id,
      patientName: patient.fullName,
      status: 'NEW',
      // What raised it, as the popup names it: the SOS button, or the alert type (fall, SpO2, hotline call …).
      reason: signal.source === 'SOS_BUTTON' ? 'SOS_BUTTON' : signal.alertType,
      location,
    },
  });
  return { alertId, sosCaseId };
}

/** An email (else SMS) to each doctor of the patient's care team. */
async function notifyCareTeam(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patient: AlertPatient,
  sosCaseId: string,
  text: Parameters<typeof renderAlertText>[2],
): Promise<void> {
  const doctors = await tx.execute<{
    id: string;
    email: string | null;
    phone: string | null;
    language: string;
    name: string;
  }>(sql`
    SELECT doctor.id, doctor.email, doctor.phone, doctor.language, doctor.first_name || ' ' || doctor.last_name AS name
      FROM patient_doctors link
      JOIN users doctor ON doctor.tenant_id = link.tenant_id AND doctor.id = link.doctor_id
     WHERE link.patient_id = ${patient.id}::uuid AND doctor.status = 'ACTIVE'
     ORDER BY link.assigned_at`);
  for (const doctor of doctors.rows) {
    const recipient = doctor.email ?? doctor.phone;
    if (recipient === null) continue;
    const language = doctor.language === 'vi' ? 'vi' : 'en';
    await sendPatientMessage(tx, clock, tenantId, {
      patient,
      sosCaseId,
      channel: doctor.email !== null ? 'EMAIL' : 'SMS',
      recipient,
      toName: doctor.name,
      subject: renderAlertText(language, 'SOS_CARE_TEAM_SUBJECT', text),
      body: renderAlertText(language, 'SOS_CARE_TEAM', text),
      purpose: 'SOS_CARE_TEAM',
    });
  }
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
  for (const contact of followers) {
    await sendPatientMessage(tx, clock, tenantId, {
      patient,
      contact,
      channel: 'SMS',
      recipient: contact.phone,
      toName: contact.name,
      body: renderAlertText(patient.language, 'HIGH_RISK_FOLLOWER', {
        name: patient.fullName,
        level,
        hotline: patient.hotline,
      }),
      purpose: 'HIGH_RISK_FOLLOWER_SMS',
    });
  }
  if (followers.length > 0) {
    await publishEvent(tx, tenantId, {
      type: 'message.updated',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: { kind: 'SMS', count: followers.length, purpose: 'HIGH_RISK_FOLLOWER_SMS' },
    });
  }
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
  for (const contact of followers) {
    await queueCall(tx, clock, tenantId, {
      patient,
      contact,
      to: contact.phone,
      toName: contact.name,
      purpose: 'FOLLOWER_CALL_REQUEST',
    });
  }
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
