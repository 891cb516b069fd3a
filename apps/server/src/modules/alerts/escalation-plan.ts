import type { AlertLevel, AlertSettings } from '@rpm/contracts';
import type {
  EscalationPlan,
  EscalationState,
  Follower,
  LevelSignal,
  NoDataSignal,
  OpenCase,
  PlannedAlert,
  PlannedDelivery,
  StoredVitalValue,
} from './escalation-types.js';
import type { AlertPatient } from './patient-context.js';
import { renderAlertText } from './texts.js';

export type * from './escalation-types.js';

/*
 * The escalation rules as pure functions (no database): given what the alerting side knows of the
 * patient (loaded by the executor in escalation.ts) and what happened, they return an
 * EscalationPlan — the alert to open, the SOS case to open or rejoin with its history and ticket,
 * the messages and calls to queue (channel and recipient), the timers to schedule and the live
 * events. escalation.ts applies a plan in the caller's transaction (applyPlan).
 */

/** Task names of the durable timers (modules/jobs). */
export const HIGH_RISK_TIMEOUT_TASK = 'alerts.highRiskTimeout';
export const SOS_KPI_TASK = 'alerts.sosKpi';
export const highRiskJobKey = (patientId: string) => `high-risk:${patientId}`;
export const sosKpiJobKey = (sosCaseId: string) => `sos-kpi:${sosCaseId}`;

const RANK: Record<'NORMAL' | AlertLevel, number> = { NORMAL: 0, AT_RISK: 1, HIGH_RISK: 2, SOS: 3 };

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
  notices: [],
});

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
 * case with its ticket and KPI timer, calls the followers one at a time (the first now, alerts/calls.ts
 * the next when one does not answer), texts every follower and
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
  // The calls go down the followers one at a time until one answers (alerts/calls.ts): the first
  // in call order now, the next when a call ends unanswered.
  const firstToCall = state.followers[0];
  if (firstToCall !== undefined) {
    plan.deliveries.push({
      kind: 'CALL',
      to: firstToCall.phone,
      toName: firstToCall.name,
      purpose: 'SOS_FOLLOWER_CALL',
      contactId: firstToCall.id,
      sosCaseId,
    });
  }
  for (const contact of state.followers) {
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
  // And a notice in each care-team doctor's inbox (ALERT: cannot be turned off), to the patient.
  if (state.careTeam.length > 0) {
    plan.notices.push({
      recipients: state.careTeam.map((doctor) => doctor.id),
      kind: 'sos.opened',
      params: { name: patient.fullName, patientCode: patient.patientCode },
      link: `/patients/${patient.id}`,
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
