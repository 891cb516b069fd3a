import type { AlertLevel, AlertSettings, AlertType } from '@rpm/contracts';
import type { AlertPatient } from './patient-context.js';
import { renderAlertText } from './texts.js';

/*
 * The escalation rules as pure functions (no database): given what the alerting side knows of the
 * patient (loaded by the executor in escalation.ts) and what happened, they return an
 * EscalationPlan — the alert to open, the SOS case to open or rejoin with its history and ticket,
 * the messages and calls to queue (channel and recipient), the timers to schedule and the live
 * events. escalation.ts applies a plan in the caller's transaction (applyPlan).
 */

/**
 * What the vitals status engine tells the alerting side, inside the transaction that stored the
 * readings: a patient reached `level` because of these readings (or a fall, the SOS button, a
 * hotline call).
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

/** Task names of the durable timers (modules/jobs). */
export const HIGH_RISK_TIMEOUT_TASK = 'alerts.highRiskTimeout';
export const SOS_KPI_TASK = 'alerts.sosKpi';
export const highRiskJobKey = (patientId: string) => `high-risk:${patientId}`;
export const sosKpiJobKey = (sosCaseId: string) => `sos-kpi:${sosCaseId}`;

const RANK: Record<'NORMAL' | AlertLevel, number> = { NORMAL: 0, AT_RISK: 1, HIGH_RISK: 2, SOS: 3 };

/** A follower as the rules see it (patient_contacts). */
export interface Follower {
  id: string;
  name: string;
  phone: string;
  contactType: string;
}

/** A doctor of the patient's care team, with what reaches them. */
export interface CareTeamDoctor {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  language: string;
}

/** The patient's case that is not CLOSED, if any. */
export interface OpenCase {
  id: string;
  status: string;
}

/** What the escalation rules know of the patient, loaded by the executor in the transaction. */
export interface EscalationState {
  /** undefined: the patient is outside the transaction's visibility. */
  patient: AlertPatient | undefined;
  /** Loaded for SOS only. */
  openCase: OpenCase | null;
  /** Loaded when a new case opens. */
  followers: readonly Follower[];
  /** Loaded when a new case opens. */
  careTeam: readonly CareTeamDoctor[];
  /** Ids the plan gives to what it creates (the executor draws them; tests fix them). */
  ids: { alert: string; sosCase: string };
}

export interface StoredVitalValue {
  measure: string;
  value: number;
  measuredAt: string;
}

type Location = { lat: number; lng: number } | null;

export interface PlannedAlert {
  id: string;
  type: AlertType;
  level: AlertLevel;
  source: LevelSignal['source'];
  vitals: StoredVitalValue[];
  sosCaseId: string | null;
}

export type PlannedCase =
  | {
      kind: 'OPEN';
      id: string;
      reason: AlertType;
      source: LevelSignal['source'];
      vitals: StoredVitalValue[];
      location: Location;
      kpiDueAt: Date;
    }
  /** A resolved case taken up again by a new SOS (RESOLVED → IN_PROCESS). */
  | { kind: 'REOPEN'; id: string };

export interface PlannedCaseEntry {
  sosCaseId: string;
  kind: 'OPENED' | 'SOS_REPEATED' | 'REOPEN';
  fromStatus?: string;
  toStatus?: string;
  note: string;
}

export interface PlannedTicket {
  title: string;
  sosCaseId: string;
  sosAt: Date;
  location: Location;
  healthIndicators: StoredVitalValue[];
  kpiDueAt: Date;
}

export type PlannedDelivery =
  | {
      kind: 'CALL';
      to: string;
      toName: string;
      purpose: string;
      contactId: string | null;
      sosCaseId: string | null;
    }
  | {
      kind: 'MESSAGE';
      channel: 'SMS' | 'EMAIL';
      recipient: string;
      toName: string;
      subject?: string;
      body: string;
      purpose: string;
      contactId: string | null;
      sosCaseId: string | null;
    };

export interface PlannedJob {
  task: string;
  payload: Record<string, string>;
  runAt: Date;
  jobKey: string;
}

export interface PlannedEvent {
  type: 'sos.opened' | 'sos.updated' | 'message.updated';
  payload: Record<string, unknown>;
}

/** The decisions of one escalation step, as data, in the order the executor applies them. */
export interface EscalationPlan {
  tenantId: string;
  /** Who the plan is for (links of messages and calls, live events); null: nothing to do. */
  patient: Pick<AlertPatient, 'id' | 'healthCenterId' | 'hotline'> | null;
  sosCase: PlannedCase | null;
  alert: PlannedAlert | null;
  caseEntries: PlannedCaseEntry[];
  ticket: PlannedTicket | null;
  jobs: PlannedJob[];
  deliveries: PlannedDelivery[];
  events: PlannedEvent[];
}

const emptyPlan = (tenantId: string, patient: EscalationPlan['patient'] = null): EscalationPlan => ({
  tenantId,
  patient,
  sosCase: null,
  alert: null,
  caseEntries: [],
  ticket: null,
  jobs: [],
  deliveries: [],
  events: [],
});

/** Whether a plan does anything. */
export const isEmptyPlan = (plan: EscalationPlan) =>
  plan.alert === null &&
  plan.sosCase === null &&
  plan.caseEntries.length === 0 &&
  plan.jobs.length === 0 &&
  plan.deliveries.length === 0 &&
  plan.events.length === 0;

const storedVitals = (signal: LevelSignal): StoredVitalValue[] =>
  signal.vitals.map((vital) => ({
    measure: vital.measure,
    value: vital.value,
    measuredAt: vital.measuredAt.toISOString(),
  }));

/**
 * The level a signal alerts at for this patient, or null when it alerts nothing: an inactive or
 * unseen patient; below SOS while "I am fine" holds; a reading at a level the episode already
 * alerted. Sub-users never get SOS (spec §6): their SOS is HIGH_RISK.
 */
export function escalationLevel(patient: AlertPatient | undefined, signal: LevelSignal): AlertLevel | null {
  if (!patient?.isActive) return null;
  const level: AlertLevel = signal.level === 'SOS' && patient.isSubUser ? 'HIGH_RISK' : signal.level;
  if (level !== 'SOS' && patient.isSuppressed) return null;
  // Readings signal a rise; a repeated signal at a level already reached adds nothing.
  const isEvent = signal.source !== 'READING';
  if (!isEvent && level !== 'SOS' && RANK[level] <= RANK[signal.previousStatus]) return null;
  return level;
}

/** The patient's own notice: SMS to their phone, else email (none when the patient has neither). */
function patientNotice(patient: AlertPatient, purpose: string, body: string): PlannedDelivery[] {
  const channel = patient.phone !== null ? 'SMS' : patient.email !== null ? 'EMAIL' : null;
  if (channel === null) return [];
  return [
    {
      kind: 'MESSAGE',
      channel,
      recipient: (channel === 'SMS' ? patient.phone : patient.email) ?? '',
      toName: patient.fullName,
      subject: patient.language === 'vi' ? 'Cảnh báo sức khỏe' : 'Health alert',
      body,
      purpose,
      contactId: null,
      sosCaseId: null,
    },
  ];
}

const alertOf = (
  id: string,
  signal: LevelSignal,
  level: AlertLevel,
  sosCaseId: string | null,
): PlannedAlert => ({
  id,
  type: signal.alertType,
  level,
  source: signal.source,
  vitals: storedVitals(signal),
  sosCaseId,
});

/**
 * The escalation of a level signal (spec §4): AT_RISK notifies the patient; HIGH_RISK notifies the
 * patient and starts the confirmation window (a timer per patient); SOS opens the patient's SOS
 * case with its ticket and KPI timer, calls the emergency contacts, texts every follower and
 * writes to the care team — or, when a case is open, records the SOS on it (a resolved case is
 * taken up again).
 */
export function planEscalation(
  state: EscalationState,
  signal: LevelSignal,
  settings: AlertSettings,
  now: Date,
): EscalationPlan {
  const { patient } = state;
  const level = escalationLevel(patient, signal);
  if (patient === undefined || level === null) return emptyPlan(signal.tenantId);
  const plan = emptyPlan(signal.tenantId, {
    id: patient.id,
    healthCenterId: patient.healthCenterId,
    hotline: patient.hotline,
  });
  if (level === 'SOS')
    return state.openCase === null
      ? openCase(plan, patient, state, signal, settings, now)
      : joinCase(plan, state.openCase, state.ids.alert, signal);

  plan.alert = alertOf(state.ids.alert, signal, level, null);
  const text = level === 'AT_RISK' ? 'AT_RISK_PATIENT' : 'HIGH_RISK_PATIENT';
  plan.deliveries = patientNotice(
    patient,
    `ALERT_${level}`,
    renderAlertText(patient.language, text, {
      name: patient.fullName,
      level: signal.alertType,
      seconds: settings.highRiskConfirmSeconds,
    }),
  );
  if (level === 'HIGH_RISK') {
    plan.jobs.push({
      task: HIGH_RISK_TIMEOUT_TASK,
      payload: { alertId: state.ids.alert },
      runAt: new Date(now.getTime() + settings.highRiskConfirmSeconds * 1000),
      jobKey: highRiskJobKey(patient.id),
    });
  }
  return plan;
}

/** One open case per patient: a second SOS is recorded on it (and brings a resolved case back). */
function joinCase(
  plan: EscalationPlan,
  open: OpenCase,
  alertId: string,
  signal: LevelSignal,
): EscalationPlan {
  // System entries keep the source code as their note; the console shows it translated.
  const note = signal.source;
  const isReopened = open.status === 'RESOLVED';
  plan.alert = alertOf(alertId, signal, 'SOS', open.id);
  plan.caseEntries.push({ sosCaseId: open.id, kind: 'SOS_REPEATED', note });
  if (isReopened) {
    plan.sosCase = { kind: 'REOPEN', id: open.id };
    plan.caseEntries.push({
      sosCaseId: open.id,
      kind: 'REOPEN',
      fromStatus: 'RESOLVED',
      toStatus: 'IN_PROCESS',
      note,
    });
  }
  plan.events.push({
    type: 'sos.updated',
    payload: { sosCaseId: open.id, status: isReopened ? 'IN_PROCESS' : open.status, repeated: true },
  });
  return plan;
}

function openCase(
  plan: EscalationPlan,
  patient: AlertPatient,
  state: EscalationState,
  signal: LevelSignal,
  settings: AlertSettings,
  now: Date,
): EscalationPlan {
  const sosCaseId = state.ids.sosCase;
  const kpiDueAt = new Date(now.getTime() + settings.sosKpiMinutes * 60_000);
  const vitals = storedVitals(signal);
  const location = signal.location ?? null;
  plan.sosCase = {
    kind: 'OPEN',
    id: sosCaseId,
    reason: signal.alertType,
    source: signal.source,
    vitals,
    location,
    kpiDueAt,
  };
  plan.caseEntries.push({ sosCaseId, kind: 'OPENED', toStatus: 'NEW', note: signal.source });
  plan.alert = alertOf(state.ids.alert, signal, 'SOS', sosCaseId);
  plan.ticket = {
    title: `SOS ${patient.patientCode} ${patient.fullName}`,
    sosCaseId,
    sosAt: now,
    location,
    healthIndicators: vitals,
    kpiDueAt,
  };
  plan.jobs.push({
    task: SOS_KPI_TASK,
    payload: { sosCaseId },
    runAt: kpiDueAt,
    jobKey: sosKpiJobKey(sosCaseId),
  });

  // Spec §4: SOS -> automatic call and SMS to the followers; an alert to the care team.
  const text = { name: patient.fullName, level: signal.alertType, hotline: patient.hotline, location };
  for (const contact of state.followers) {
    if (contact.contactType === 'EMERGENCY') {
      plan.deliveries.push({
        kind: 'CALL',
        to: contact.phone,
        toName: contact.name,
        purpose: 'SOS_FOLLOWER_CALL',
        contactId: contact.id,
        sosCaseId,
      });
    }
    plan.deliveries.push({
      kind: 'MESSAGE',
      channel: 'SMS',
      recipient: contact.phone,
      toName: contact.name,
      body: renderAlertText(patient.language, 'SOS_FOLLOWER', text),
      purpose: 'SOS_FOLLOWER_SMS',
      contactId: contact.id,
      sosCaseId,
    });
  }
  // An email (else SMS) to each doctor of the care team, in the doctor's language.
  for (const doctor of state.careTeam) {
    const recipient = doctor.email ?? doctor.phone;
    if (recipient === null) continue;
    const language = doctor.language === 'vi' ? 'vi' : 'en';
    plan.deliveries.push({
      kind: 'MESSAGE',
      channel: doctor.email !== null ? 'EMAIL' : 'SMS',
      recipient,
      toName: doctor.name,
      subject: renderAlertText(language, 'SOS_CARE_TEAM_SUBJECT', text),
      body: renderAlertText(language, 'SOS_CARE_TEAM', text),
      purpose: 'SOS_CARE_TEAM',
      contactId: null,
      sosCaseId,
    });
  }
  plan.events.push({
    type: 'sos.opened',
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
  return plan;
}

/**
 * The no-data alert: a bound watch has been silent longer than the tenant allows. An AT_RISK alert
 * of type NO_DATA for the care team and a notice to the patient to check the watch; it does not
 * change the patient's status (no vital sign says anything about it).
 */
export function planNoData(
  patient: AlertPatient | undefined,
  signal: NoDataSignal,
  alertId: string,
): EscalationPlan {
  if (!patient?.isActive) return emptyPlan(signal.tenantId);
  const plan = emptyPlan(signal.tenantId, {
    id: patient.id,
    healthCenterId: patient.healthCenterId,
    hotline: patient.hotline,
  });
  plan.alert = {
    id: alertId,
    type: 'NO_DATA',
    level: 'AT_RISK',
    source: 'NO_DATA',
    vitals: [],
    sosCaseId: null,
  };
  plan.deliveries = patientNotice(
    patient,
    'ALERT_NO_DATA',
    renderAlertText(patient.language, 'NO_DATA_PATIENT', { name: patient.fullName }),
  );
  return plan;
}

/** SMS to every follower on the patient's behalf (a high-risk alert without an answer). */
export function planFollowerSms(
  tenantId: string,
  patient: AlertPatient,
  followers: readonly Follower[],
  level: string,
): EscalationPlan {
  const plan = emptyPlan(tenantId, {
    id: patient.id,
    healthCenterId: patient.healthCenterId,
    hotline: patient.hotline,
  });
  for (const contact of followers) {
    plan.deliveries.push({
      kind: 'MESSAGE',
      channel: 'SMS',
      recipient: contact.phone,
      toName: contact.name,
      body: renderAlertText(patient.language, 'HIGH_RISK_FOLLOWER', {
        name: patient.fullName,
        level,
        hotline: patient.hotline,
      }),
      purpose: 'HIGH_RISK_FOLLOWER_SMS',
      contactId: contact.id,
      sosCaseId: null,
    });
  }
  if (followers.length > 0) {
    plan.events.push({
      type: 'message.updated',
      payload: { kind: 'SMS', count: followers.length, purpose: 'HIGH_RISK_FOLLOWER_SMS' },
    });
  }
  return plan;
}

/** A call to every follower at once ("call followers", spec §4). */
export function planFollowerCalls(
  tenantId: string,
  patient: AlertPatient,
  followers: readonly Follower[],
): EscalationPlan {
  const plan = emptyPlan(tenantId, {
    id: patient.id,
    healthCenterId: patient.healthCenterId,
    hotline: patient.hotline,
  });
  plan.deliveries = followers.map((contact) => ({
    kind: 'CALL',
    to: contact.phone,
    toName: contact.name,
    purpose: 'FOLLOWER_CALL_REQUEST',
    contactId: contact.id,
    sosCaseId: null,
  }));
  return plan;
}
