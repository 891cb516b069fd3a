import { z } from 'zod';
import { ALERT_LEVELS, THRESHOLD_UNITS, type AlertLevel, type VitalStatus } from './thresholds.js';

/**
 * The patient status lifecycle and the alert episode rule (spec §4 patient status and alerts in
 * the patient app; docs/status-lifecycle.md draws both). Pure: they take the patient's state and
 * what just happened and return the decisions as data; the server's status engine applies them
 * in the transaction that stored the readings (or closed the case).
 *
 * Times are epoch milliseconds. Readings given to these rules are current readings only (late
 * readings are stored and shown but never judged here).
 */

export const STATUS_RANK: Record<VitalStatus, number> = { NORMAL: 0, AT_RISK: 1, HIGH_RISK: 2, SOS: 3 };
const LEVELS_UP: readonly VitalStatus[] = ['NORMAL', ...ALERT_LEVELS];
const rank = (level: VitalStatus) => STATUS_RANK[level];
const above = (a: VitalStatus, b: VitalStatus) => rank(a) > rank(b);

/** Default minutes readings must stay within a lower level before the status comes down. */
export const DEFAULT_STATUS_SETTLE_MINUTES = 30;
export const STATUS_SETTLE_MINUTES_RANGE = [5, 1440] as const;

// Reasons -------------------------------------------------------------------------------------

/**
 * Why a status changed, stored as a code and parameters (patient_status_changes.reason_code and
 * reason_params) and rendered as a sentence by the console (i18n `patients:statusReasons.<code>`).
 * MANUAL is a staff member's change with their free-text reason.
 */
export const STATUS_REASON_CODES = [
  'READING',
  'EVENT',
  'SETTLED',
  'CASE_CLOSED',
  'TICKET_CLOSED',
  'MANUAL',
] as const;
export type StatusReasonCode = (typeof STATUS_REASON_CODES)[number];

export type StatusReason =
  | { code: 'READING'; params: { measure: string; value: number; unit: string } }
  | { code: 'EVENT'; params: { source: 'FALL' | 'SOS_BUTTON' | 'HOTLINE_CALL'; note?: string } }
  | { code: 'SETTLED'; params: { minutes: number } }
  | { code: 'CASE_CLOSED'; params: Record<string, never> }
  | { code: 'TICKET_CLOSED'; params: Record<string, never> }
  | { code: 'MANUAL'; params: { text: string } };

export const statusReasonSchema = z.object({
  code: z
    .enum(STATUS_REASON_CODES)
    .nullable()
    .describe('Why the status changed (null: recorded before reason codes)'),
  params: z.record(z.string(), z.union([z.string(), z.number()])).describe('The values the sentence names'),
});

const formatValue = (value: number) => String(Math.round(value * 100) / 100);

/** The plain-text form kept in patient_status_changes.reason (exports, older readers). */
export function statusReasonText(reason: StatusReason): string {
  switch (reason.code) {
    case 'READING':
      return `automatic: ${reason.params.measure} ${formatValue(reason.params.value)}`;
    case 'EVENT':
      return reason.params.note === undefined || reason.params.note === ''
        ? `automatic: ${reason.params.source}`
        : `${reason.params.source}: ${reason.params.note}`;
    case 'SETTLED':
      return `automatic: within thresholds for ${String(reason.params.minutes)} min`;
    case 'CASE_CLOSED':
      return 'SOS case closed: status from current readings';
    case 'TICKET_CLOSED':
      return 'ticket closed: status from current readings';
    case 'MANUAL':
      return reason.params.text;
  }
}

const UNITS: Partial<Record<string, string>> = THRESHOLD_UNITS;

export const readingReason = (measure: string, value: number): StatusReason => ({
  code: 'READING',
  params: { measure, value, unit: UNITS[measure] ?? '' },
});

// Evidence ------------------------------------------------------------------------------------

/**
 * A judged current reading at its level, with its measure; a fall / SOS press / hotline call (or
 * a manual raise) has no measure.
 */
export interface JudgedItem {
  level: VitalStatus;
  atMs: number;
  measure?: string;
}

/** One measure's evidence: per alert level, its latest reading at or above it and below it. */
export interface MeasureEvidence {
  lastAtOrAbove: Record<AlertLevel, number | null>;
  lastBelow: Record<AlertLevel, number | null>;
}

/**
 * What the lifecycle remembers of past readings: for each alert level, when the latest reading
 * (or event) at or above it was measured, when the latest judged reading of any level was
 * measured, and the same per measure, with the latest reading of the measure below each level.
 */
export interface LevelEvidence {
  lastAtOrAbove: Record<AlertLevel, number | null>;
  lastJudgedAt: number | null;
  byMeasure: Readonly<Record<string, MeasureEvidence>>;
}

export const EMPTY_EVIDENCE: LevelEvidence = {
  lastAtOrAbove: { AT_RISK: null, HIGH_RISK: null, SOS: null },
  lastJudgedAt: null,
  byMeasure: {},
};

const NO_LEVELS: Record<AlertLevel, number | null> = { AT_RISK: null, HIGH_RISK: null, SOS: null };

const later = (a: number | null, b: number) => (a === null || b > a ? b : a);

/** The evidence after these items. */
export function withItems(evidence: LevelEvidence, items: readonly JudgedItem[]): LevelEvidence {
  const lastAtOrAbove = { ...evidence.lastAtOrAbove };
  const byMeasure: Record<string, MeasureEvidence> = { ...evidence.byMeasure };
  let lastJudgedAt = evidence.lastJudgedAt;
  for (const item of items) {
    lastJudgedAt = later(lastJudgedAt, item.atMs);
    const measure =
      item.measure === undefined
        ? undefined
        : {
            lastAtOrAbove: { ...(byMeasure[item.measure]?.lastAtOrAbove ?? NO_LEVELS) },
            lastBelow: { ...(byMeasure[item.measure]?.lastBelow ?? NO_LEVELS) },
          };
    for (const level of ALERT_LEVELS) {
      if (rank(item.level) >= rank(level)) {
        lastAtOrAbove[level] = later(lastAtOrAbove[level], item.atMs);
        if (measure) measure.lastAtOrAbove[level] = later(measure.lastAtOrAbove[level], item.atMs);
      } else if (measure) {
        measure.lastBelow[level] = later(measure.lastBelow[level], item.atMs);
      }
    }
    if (item.measure !== undefined && measure) byMeasure[item.measure] = measure;
  }
  return { lastAtOrAbove, lastJudgedAt, byMeasure };
}

/**
 * Whether every measure that reached `higher` has since been measured below it, by a reading at
 * least `windowMs` after its last one at or above: the values that crossed have themselves stayed
 * within the lower level's thresholds for the window. Another measure's normal reading says
 * nothing about them, and neither does a single normal reading followed by silence.
 */
function measuresWithin(evidence: LevelEvidence, higher: AlertLevel, windowMs: number): boolean {
  return Object.values(evidence.byMeasure).every((measure) => {
    const above = measure.lastAtOrAbove[higher];
    if (above === null) return true;
    const below = measure.lastBelow[higher];
    return below !== null && below - above >= windowMs;
  });
}

/**
 * The lowest level the readings have stayed within for the window: every reading above it is at
 * least `windowMs` old, a reading came after the last one above it (values did normalize; a
 * silent device proves nothing), and each measure that crossed was measured within the lower
 * level for the window after its last crossing. NORMAL when nothing was ever above.
 */
export function settledLevel(evidence: LevelEvidence, nowMs: number, windowMs: number): VitalStatus {
  let settled: VitalStatus = 'SOS';
  for (const candidate of [...LEVELS_UP].reverse().slice(1)) {
    const higher = LEVELS_UP[rank(candidate) + 1] as AlertLevel;
    const lastAbove = evidence.lastAtOrAbove[higher];
    const isWithin =
      lastAbove === null ||
      (lastAbove <= nowMs - windowMs &&
        evidence.lastJudgedAt !== null &&
        evidence.lastJudgedAt > lastAbove &&
        measuresWithin(evidence, higher, windowMs));
    if (!isWithin) break;
    settled = candidate;
  }
  return settled;
}

const EVIDENCE_LEVEL_KEY = /^(above|below):(AT_RISK|HIGH_RISK|SOS):(.+)$/;

/** The evidence as stored (patients.level_evidence: a flat object of epoch milliseconds). */
export function evidenceToRecord(evidence: LevelEvidence): Record<string, number> {
  const stored: Record<string, number> = {};
  for (const level of ALERT_LEVELS) {
    const at = evidence.lastAtOrAbove[level];
    if (at !== null) stored[level] = at;
  }
  if (evidence.lastJudgedAt !== null) stored.judged = evidence.lastJudgedAt;
  for (const [measure, entry] of Object.entries(evidence.byMeasure)) {
    for (const level of ALERT_LEVELS) {
      const above = entry.lastAtOrAbove[level];
      const below = entry.lastBelow[level];
      if (above !== null) stored[`above:${level}:${measure}`] = above;
      if (below !== null) stored[`below:${level}:${measure}`] = below;
    }
  }
  return stored;
}

/** The evidence from its stored form (older rows hold only the level keys and "judged"). */
export function evidenceFromRecord(stored: Readonly<Record<string, number>>): LevelEvidence {
  const byMeasure: Record<string, MeasureEvidence> = {};
  for (const [key, at] of Object.entries(stored)) {
    const match = EVIDENCE_LEVEL_KEY.exec(key);
    if (match === null || typeof at !== 'number') continue;
    const [, side, level, measure] = match as unknown as [string, 'above' | 'below', AlertLevel, string];
    const entry = (byMeasure[measure] ??= { lastAtOrAbove: { ...NO_LEVELS }, lastBelow: { ...NO_LEVELS } });
    if (side === 'above') entry.lastAtOrAbove[level] = at;
    else entry.lastBelow[level] = at;
  }
  return {
    lastAtOrAbove: {
      AT_RISK: stored.AT_RISK ?? null,
      HIGH_RISK: stored.HIGH_RISK ?? null,
      SOS: stored.SOS ?? null,
    },
    lastJudgedAt: stored.judged ?? null,
    byMeasure,
  };
}

// The episode rule ----------------------------------------------------------------------------

/**
 * Alert episodes (spec §4 "I am fine suppresses alerts until values normalize"). An episode starts
 * when readings cross into a level above NORMAL and ends when a batch of judged readings is all
 * NORMAL. One alert per level reached within an episode (a rise within the episode — AT_RISK then
 * HIGH_RISK — alerts again at the higher level); the next crossing after the end starts a new
 * episode with a new alert and a new escalation. "I am fine" and answered or acknowledged alerts
 * belong to their episode and end with it. Falls, SOS presses and hotline calls always alert
 * (a second press joins the open case). While "I am fine" holds, nothing below SOS alerts.
 */
export interface EpisodeState {
  /** The highest level alerted in the current episode; NORMAL: no episode. */
  level: VitalStatus;
  /** "I am fine" holds. */
  suppressed: boolean;
}

export interface EpisodeDecision extends EpisodeState {
  /** The level to alert at (opens an alert, or the SOS case), or null. */
  alertAt: AlertLevel | null;
  started: boolean;
  ended: boolean;
}

/**
 * @param reached the worst level of the batch's judged readings (null when nothing was judged),
 *   already capped for the account.
 * @param direct the level of a fall / SOS press / hotline call in the batch, capped, or null.
 */
export function decideEpisode(
  state: EpisodeState,
  reached: VitalStatus | null,
  direct: AlertLevel | null = null,
): EpisodeDecision {
  const unchanged = { ...state, alertAt: null, started: false, ended: false };
  const quiet = (level: AlertLevel) => state.suppressed && level !== 'SOS';
  if (direct !== null) {
    const level = reached !== null && above(reached, direct) ? reached : direct;
    return {
      level: above(level, state.level) ? level : state.level,
      suppressed: state.suppressed,
      alertAt: quiet(direct) ? null : direct,
      started: state.level === 'NORMAL',
      ended: false,
    };
  }
  if (reached === null) return unchanged;
  if (reached === 'NORMAL') {
    const isEnding = state.level !== 'NORMAL' || state.suppressed;
    return { level: 'NORMAL', suppressed: false, alertAt: null, started: false, ended: isEnding };
  }
  if (!above(reached, state.level)) return unchanged;
  return {
    level: reached,
    suppressed: state.suppressed,
    alertAt: quiet(reached) ? null : reached,
    started: state.level === 'NORMAL',
    ended: false,
  };
}

// The status lifecycle ------------------------------------------------------------------------

export interface LifecycleState {
  status: VitalStatus;
  evidence: LevelEvidence;
  /** An SOS case of the patient is not CLOSED. */
  hasOpenCase: boolean;
}

export interface StatusChange {
  from: VitalStatus;
  to: VitalStatus;
  reason: StatusReason;
}

export interface LifecycleDecision {
  change: StatusChange | null;
  evidence: LevelEvidence;
  /**
   * When to look again for a come-down (a durable job per patient), null to cancel it: the
   * status is NORMAL, or an open case holds it.
   */
  reviewAtMs: number | null;
}

function reviewTime(
  status: VitalStatus,
  evidence: LevelEvidence,
  hasOpenCase: boolean,
  nowMs: number,
  windowMs: number,
) {
  if (status === 'NORMAL' || hasOpenCase) return null;
  const lastAbove = evidence.lastAtOrAbove[status];
  return Math.max(nowMs, (lastAbove ?? nowMs) + windowMs);
}

/**
 * Readings (and falls, SOS presses, hotline calls) in: the status rises at once to the worst
 * level reached; otherwise it comes down to the lowest level the readings have stayed within for
 * the window, unless an SOS case is open. `trigger` says what raised it (for the reason).
 */
export function decideLifecycle(
  state: LifecycleState,
  items: readonly JudgedItem[],
  trigger: StatusReason,
  nowMs: number,
  windowMs: number,
): LifecycleDecision {
  const evidence = withItems(state.evidence, items);
  let worst: VitalStatus = 'NORMAL';
  for (const item of items) if (above(item.level, worst)) worst = item.level;
  let change: StatusChange | null = null;
  if (above(worst, state.status)) {
    change = { from: state.status, to: worst, reason: trigger };
  } else if (!state.hasOpenCase) {
    const settled = settledLevel(evidence, nowMs, windowMs);
    if (above(state.status, settled)) {
      change = {
        from: state.status,
        to: settled,
        reason: { code: 'SETTLED', params: { minutes: Math.round(windowMs / 60_000) } },
      };
    }
  }
  const status = change?.to ?? state.status;
  return { change, evidence, reviewAtMs: reviewTime(status, evidence, state.hasOpenCase, nowMs, windowMs) };
}

/** The window job at its time: only the come-down half (no new readings). */
export function reviewLifecycle(state: LifecycleState, nowMs: number, windowMs: number): LifecycleDecision {
  return decideLifecycle(
    state,
    [],
    { code: 'SETTLED', params: { minutes: Math.round(windowMs / 60_000) } },
    nowMs,
    windowMs,
  );
}

/**
 * An SOS case or a ticket was closed: unless another case is still open, the status is set from the
 * patient's current readings (their worst level, capped for the account; NORMAL when there are
 * none), up or down. The episode comes down with it, so a new crossing opens a new alert or case.
 */
export function decideOnClose(
  state: LifecycleState & { episode: EpisodeState },
  currentLevel: VitalStatus,
  closed: 'CASE_CLOSED' | 'TICKET_CLOSED',
  nowMs: number,
  windowMs: number,
): LifecycleDecision & { episode: EpisodeState } {
  if (state.hasOpenCase) {
    return { change: null, evidence: state.evidence, reviewAtMs: null, episode: state.episode };
  }
  const change: StatusChange | null =
    currentLevel === state.status
      ? null
      : { from: state.status, to: currentLevel, reason: { code: closed, params: {} } };
  const episodeLevel = above(state.episode.level, currentLevel) ? currentLevel : state.episode.level;
  return {
    change,
    evidence: state.evidence,
    reviewAtMs: reviewTime(currentLevel, state.evidence, false, nowMs, windowMs),
    episode: {
      level: episodeLevel,
      suppressed: currentLevel === 'NORMAL' ? false : state.episode.suppressed,
    },
  };
}

// Status plans ---------------------------------------------------------------------------------

/**
 * Everything the lifecycle knows of a patient, as the server's status engine loads it under the
 * patient's row lock: the status, the evidence, whether an SOS case is open and the alert episode.
 */
export interface PatientLifecycle {
  status: VitalStatus;
  evidence: LevelEvidence;
  hasOpenCase: boolean;
  episode: EpisodeState;
}

/** The per-patient come-down job: scheduled at a time, cancelled, or left as it is (null). */
export type ReviewJob = { kind: 'SCHEDULE'; atMs: number } | { kind: 'CANCEL' } | null;

/**
 * The decisions of one lifecycle step as data, which the status engine's executor applies in one
 * transaction: the status change with its reason (history row and live event), the lifecycle
 * columns of the patient row, the come-down job, and the alert the episode rule opened (the
 * alerting side plans its escalation).
 */
export interface StatusPlan {
  change: StatusChange | null;
  /** The patient row's evidence and episode after the step; null: nothing to write. */
  write: { evidence: LevelEvidence; episode: EpisodeState | null } | null;
  review: ReviewJob;
  /** The level to alert at, with the episode's level before this step; null: no alert. */
  alert: { level: AlertLevel; episodeBefore: VitalStatus } | null;
  /**
   * The rest of the episode rule's decision: `rearmed`, the episode came down (values normalized,
   * a case or ticket closed, a lowering by hand), so the next crossing alerts again; `held`, the
   * level an alert would have been raised at but "I am fine" held it back.
   */
  episode: { rearmed: boolean; held: AlertLevel | null };
}

const NO_EPISODE_CHANGE = { rearmed: false, held: null };

/** Whether the episode came down (a lower level, or "I am fine" ended). */
const isRearmed = (before: EpisodeState, after: EpisodeState) =>
  above(before.level, after.level) || (before.suppressed && !after.suppressed);

/** What one batch (or one fall, SOS press or hotline call) brings, capped for the account. */
export interface LifecycleInput {
  /** Each judged reading (and each fall / SOS press / hotline call) at its level. */
  items: readonly JudgedItem[];
  /** The worst level of the judged readings, null when nothing was judged. */
  reached: VitalStatus | null;
  /** The level of a fall, SOS press or hotline call, or null. */
  direct: AlertLevel | null;
  /** What raised the status, if it rises (its reason). */
  trigger: StatusReason;
}

const reviewJob = (reviewAtMs: number | null): ReviewJob =>
  reviewAtMs === null ? { kind: 'CANCEL' } : { kind: 'SCHEDULE', atMs: reviewAtMs };

/**
 * New readings (or a fall, an SOS press, a hotline call): the episode rule decides what is alerted,
 * the status lifecycle what the status becomes (an SOS the episode opens holds the status like an
 * open case). A NORMAL patient's all-normal batch writes nothing; the come-down job is only touched
 * where its time moves (a change, or a reading at the status's level).
 */
export function planReadings(
  state: PatientLifecycle,
  input: LifecycleInput,
  nowMs: number,
  windowMs: number,
): StatusPlan {
  const episode = decideEpisode(state.episode, input.reached, input.direct);
  const lifecycle = decideLifecycle(
    {
      status: state.status,
      evidence: state.evidence,
      hasOpenCase: state.hasOpenCase || episode.alertAt === 'SOS',
    },
    input.items,
    input.trigger,
    nowMs,
    windowMs,
  );
  const status = lifecycle.change?.to ?? state.status;
  // The evidence's last judged time only counts after an abnormal reading: a NORMAL patient's
  // normal readings change nothing that matters.
  const isQuiet =
    lifecycle.change === null &&
    state.status === 'NORMAL' &&
    episode.level === state.episode.level &&
    episode.suppressed === state.episode.suppressed &&
    input.items.every((item) => item.level === 'NORMAL');
  const movesJob =
    lifecycle.change !== null ||
    input.items.some((item) => status !== 'NORMAL' && rank(item.level) >= rank(status));
  return {
    change: lifecycle.change,
    write: isQuiet
      ? null
      : { evidence: lifecycle.evidence, episode: { level: episode.level, suppressed: episode.suppressed } },
    review: movesJob ? reviewJob(lifecycle.reviewAtMs) : null,
    alert: episode.alertAt === null ? null : { level: episode.alertAt, episodeBefore: state.episode.level },
    episode: { rearmed: episode.ended, held: heldBack(state.episode, input, episode.alertAt) },
  };
}

/** The level "I am fine" held back in this batch (below SOS, above what the episode had alerted). */
function heldBack(
  before: EpisodeState,
  input: LifecycleInput,
  alertAt: AlertLevel | null,
): AlertLevel | null {
  if (!before.suppressed || alertAt !== null) return null;
  const candidate =
    input.direct ?? (input.reached === null || input.reached === 'NORMAL' ? null : input.reached);
  if (candidate === null || candidate === 'SOS') return null;
  return input.direct !== null || above(candidate, before.level) ? candidate : null;
}

/**
 * The come-down job at its time: the status comes down if it may, and the job is kept while the
 * status is still above NORMAL (an open case leaves it to the case's closing).
 */
export function planReview(state: PatientLifecycle, nowMs: number, windowMs: number): StatusPlan {
  const decision = reviewLifecycle(state, nowMs, windowMs);
  return {
    change: decision.change,
    write: decision.change === null ? null : { evidence: decision.evidence, episode: null },
    review:
      decision.reviewAtMs !== null && decision.reviewAtMs > nowMs
        ? { kind: 'SCHEDULE', atMs: decision.reviewAtMs }
        : null,
    alert: null,
    episode: NO_EPISODE_CHANGE,
  };
}

/**
 * An SOS case or a ticket was closed (decideOnClose): nothing while another case is open; else the
 * status from the current readings, the episode down with it, the come-down job kept or cancelled.
 */
export function planClose(
  state: PatientLifecycle,
  currentLevel: VitalStatus,
  closed: 'CASE_CLOSED' | 'TICKET_CLOSED',
  nowMs: number,
  windowMs: number,
): StatusPlan {
  if (state.hasOpenCase)
    return { change: null, write: null, review: null, alert: null, episode: NO_EPISODE_CHANGE };
  const decision = decideOnClose(state, currentLevel, closed, nowMs, windowMs);
  return {
    change: decision.change,
    write: { evidence: decision.evidence, episode: decision.episode },
    review: reviewJob(decision.reviewAtMs),
    alert: null,
    episode: { rearmed: isRearmed(state.episode, decision.episode), held: null },
  };
}

/**
 * A staff member changes the status by hand (spec §4, as PATIENT_STATUS_TRANSITIONS allows; the
 * caller checks that), reason MANUAL with their note. Nothing is alerted: staff already know.
 * - Raised: the staff member's judgement counts as evidence at the new level (like a fall), so
 *   the status comes down only once later readings stayed within a lower level for the window;
 *   the episode is left as it is, so the next reading at that level still alerts the patient.
 * - Lowered: the episode comes down with the status ("I am fine" ends at NORMAL), so the next
 *   crossing above the new status raises it again and alerts again, as after a closed case.
 */
export function planManualChange(
  state: PatientLifecycle,
  to: VitalStatus,
  note: string,
  nowMs: number,
  windowMs: number,
): StatusPlan {
  const isRaise = above(to, state.status);
  const evidence = isRaise ? withItems(state.evidence, [{ level: to, atMs: nowMs }]) : state.evidence;
  const episode: EpisodeState = isRaise
    ? state.episode
    : {
        level: above(state.episode.level, to) ? to : state.episode.level,
        suppressed: to === 'NORMAL' ? false : state.episode.suppressed,
      };
  return {
    change: { from: state.status, to, reason: { code: 'MANUAL', params: { text: note } } },
    write: { evidence, episode },
    review: reviewJob(reviewTime(to, evidence, state.hasOpenCase, nowMs, windowMs)),
    alert: null,
    episode: { rearmed: isRearmed(state.episode, episode), held: null },
  };
}
