import type { AlertLevel, AlertType } from '@rpm/contracts';
import type { AlertPatient } from './patient-context.js';

/*
 * The data of the escalation rules (escalation-plan.ts): the signals they take, the state the
 * executor loads for them, and the plan they return.
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

/** A notice in the inbox (notification centre) of accounts that must know, e.g. the care team. */
export interface PlannedNotice {
  recipients: string[];
  kind: 'sos.opened';
  params: Record<string, string>;
  /** A console path (the recipient's area is put in front). */
  link: string;
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
  notices: PlannedNotice[];
}
