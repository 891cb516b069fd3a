import { describe, expect, it } from 'vitest';
import {
  EMPTY_EVIDENCE,
  planClose,
  planManualChange,
  planReadings,
  planReview,
  readingReason,
  type EpisodeState,
  type JudgedItem,
  type LifecycleInput,
  type PatientLifecycle,
  type StatusReason,
} from './status-lifecycle.js';
import type { AlertLevel, VitalStatus } from './thresholds.js';

/*
 * Every arrow of docs/status-lifecycle.md's two diagrams, one named test each, on the pure plans
 * the status engine applies (no database).
 */

const MIN = 60_000;
const WINDOW = 30 * MIN;
const T0 = Date.parse('2026-03-10T08:00:00Z');
const at = (minutes: number) => T0 + minutes * MIN;
const NO_EPISODE: EpisodeState = { level: 'NORMAL', suppressed: false };

const patient = (overrides: Partial<PatientLifecycle> = {}): PatientLifecycle => ({
  status: 'NORMAL',
  evidence: EMPTY_EVIDENCE,
  hasOpenCase: false,
  episode: NO_EPISODE,
  ...overrides,
});

const worstOf = (items: readonly JudgedItem[]): VitalStatus | null =>
  items.length === 0
    ? null
    : items.reduce<VitalStatus>(
        (worst, item) => (rankOf(item.level) > rankOf(worst) ? item.level : worst),
        'NORMAL',
      );
const rankOf = (level: VitalStatus) => ['NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS'].indexOf(level);

/** A batch of readings, each at its level and minute. */
const readings = (...items: [VitalStatus, number][]): LifecycleInput => {
  const judged = items.map(([level, minute]) => ({ level, atMs: at(minute) }));
  return { items: judged, reached: worstOf(judged), direct: null, trigger: readingReason('SPO2', 84.5) };
};

/** A fall, an SOS press or a hotline call at a minute. */
const event = (
  source: 'FALL' | 'SOS_BUTTON' | 'HOTLINE_CALL',
  minute: number,
  level: AlertLevel = 'SOS',
) => ({
  items: [{ level, atMs: at(minute) }],
  reached: null,
  direct: level,
  trigger: { code: 'EVENT', params: { source } } satisfies StatusReason,
});

/** The patient after these batches, each planned at its last reading's time. */
function after(start: PatientLifecycle, ...batches: LifecycleInput[]): PatientLifecycle {
  let state = start;
  for (const batch of batches) {
    const nowMs = Math.max(...batch.items.map((item) => item.atMs));
    const plan = planReadings(state, batch, nowMs, WINDOW);
    state = {
      ...state,
      status: plan.change?.to ?? state.status,
      evidence: plan.write?.evidence ?? state.evidence,
      episode: plan.write?.episode ?? state.episode,
    };
  }
  return state;
}

describe('status lifecycle: every arrow of the diagram', () => {
  it('[*] → NORMAL: a new patient is NORMAL, and its normal readings write nothing', () => {
    const plan = planReadings(patient(), readings(['NORMAL', 0], ['NORMAL', 1]), at(1), WINDOW);
    expect(plan).toEqual({
      change: null,
      write: null,
      review: null,
      alert: null,
      episode: { rearmed: false, held: null },
    });
  });

  describe('rises, at once', () => {
    const rises: [VitalStatus, AlertLevel][] = [
      ['NORMAL', 'AT_RISK'],
      ['NORMAL', 'HIGH_RISK'],
      ['NORMAL', 'SOS'],
      ['AT_RISK', 'HIGH_RISK'],
      ['AT_RISK', 'SOS'],
      ['HIGH_RISK', 'SOS'],
    ];
    it.each(rises)('%s → %s: a reading at that level', (from, to) => {
      const state = from === 'NORMAL' ? patient() : after(patient(), readings([from, 0]));
      const plan = planReadings(state, readings(['NORMAL', 4], [to, 5]), at(5), WINDOW);
      expect(plan.change).toEqual({ from, to, reason: readingReason('SPO2', 84.5) });
      expect(plan.alert).toEqual({ level: to, episodeBefore: from });
      // An SOS the episode opens holds the status like an open case: no come-down job.
      expect(plan.review).toEqual(
        to === 'SOS' ? { kind: 'CANCEL' } : { kind: 'SCHEDULE', atMs: at(5) + WINDOW },
      );
    });

    const events = ['FALL', 'SOS_BUTTON', 'HOTLINE_CALL'] as const;
    it.each(['NORMAL', 'AT_RISK', 'HIGH_RISK'] as const)(
      '%s → SOS: a fall, an SOS press, a hotline call',
      (from) => {
        for (const source of events) {
          const state = from === 'NORMAL' ? patient() : after(patient(), readings([from, 0]));
          const plan = planReadings(state, event(source, 5), at(5), WINDOW);
          expect(plan.change).toEqual({ from, to: 'SOS', reason: { code: 'EVENT', params: { source } } });
          expect(plan.alert?.level).toBe('SOS');
          expect(plan.write?.evidence.lastAtOrAbove.SOS).toBe(at(5));
        }
      },
    );

    it('a milder reading within the window leaves a status where it is', () => {
      const state = after(patient(), readings(['HIGH_RISK', 0]));
      expect(planReadings(state, readings(['AT_RISK', 10]), at(10), WINDOW).change).toBeNull();
    });
  });

  describe('comes down: the window (at ingestion and by the job) or a closed case or ticket', () => {
    /** A patient at `from` whose readings since minute 10 are at `within`, looked at at minute 41. */
    const settling = (from: AlertLevel, within: VitalStatus) =>
      after(patient(), readings([from, 0]), readings([within, 10]));

    const downs: [AlertLevel, VitalStatus][] = [
      ['SOS', 'HIGH_RISK'],
      ['SOS', 'AT_RISK'],
      ['SOS', 'NORMAL'],
      ['HIGH_RISK', 'AT_RISK'],
      ['HIGH_RISK', 'NORMAL'],
      ['AT_RISK', 'NORMAL'],
    ];
    it.each(downs)('%s → %s', (from, to) => {
      const state = settling(from, to);
      expect(state.status).toBe(from);
      const settled = { from, to, reason: { code: 'SETTLED', params: { minutes: 30 } } };
      // Not before the window has passed since the last reading at the higher level.
      expect(planReview(state, at(29), WINDOW).change).toBeNull();
      // By the job at the window's end …
      const reviewed = planReview(state, at(30), WINDOW);
      expect(reviewed.change).toEqual(settled);
      expect(reviewed.review).toEqual(to === 'NORMAL' ? null : { kind: 'SCHEDULE', atMs: at(40) });
      // … or by the next reading at the lower level.
      expect(planReadings(state, readings([to, 31]), at(31), WINDOW).change).toEqual(settled);
      // A closed case or ticket sets the status from the current readings at once.
      const closed = planClose(state, to, from === 'SOS' ? 'CASE_CLOSED' : 'TICKET_CLOSED', at(12), WINDOW);
      expect(closed.change).toEqual({
        from,
        to,
        reason: { code: from === 'SOS' ? 'CASE_CLOSED' : 'TICKET_CLOSED', params: {} },
      });
      expect(closed.write?.episode?.level).toBe(to);
      expect(closed.review).toEqual(
        to === 'NORMAL' ? { kind: 'CANCEL' } : { kind: 'SCHEDULE', atMs: at(40) },
      );
    });

    it('SOS → lower: never while an SOS case is open (neither by the window nor by a ticket closed)', () => {
      const state = { ...settling('SOS', 'NORMAL'), hasOpenCase: true };
      expect(planReview(state, at(120), WINDOW).change).toBeNull();
      expect(planReadings(state, readings(['NORMAL', 120]), at(120), WINDOW).change).toBeNull();
      expect(planClose(state, 'NORMAL', 'TICKET_CLOSED', at(120), WINDOW)).toEqual({
        change: null,
        write: null,
        review: null,
        alert: null,
        episode: { rearmed: false, held: null },
      });
    });

    it('SOS → NORMAL: a case closed with no current readings', () => {
      const state = after(patient(), event('SOS_BUTTON', 0));
      expect(planClose(state, 'NORMAL', 'CASE_CLOSED', at(5), WINDOW).change).toMatchObject({
        from: 'SOS',
        to: 'NORMAL',
      });
    });

    it('a silent device after a high reading proves nothing: no come-down without a later reading', () => {
      const state = after(patient(), readings(['HIGH_RISK', 0]));
      expect(planReview(state, at(300), WINDOW).change).toBeNull();
    });
  });

  describe('manual (note of the diagram): any allowed change, reason MANUAL with the note', () => {
    it('a raise is recorded with the note, counts as evidence and alerts nobody', () => {
      const plan = planManualChange(patient(), 'HIGH_RISK', 'seen at the clinic', at(0), WINDOW);
      expect(plan.change).toEqual({
        from: 'NORMAL',
        to: 'HIGH_RISK',
        reason: { code: 'MANUAL', params: { text: 'seen at the clinic' } },
      });
      expect(plan.alert).toBeNull();
      expect(plan.write?.episode).toEqual(NO_EPISODE);
      // The raised status holds until readings stayed lower for the window after it (a silent
      // device does not bring it down).
      const raised = {
        ...patient({ status: 'HIGH_RISK' }),
        evidence: plan.write?.evidence ?? EMPTY_EVIDENCE,
      };
      expect(planReview(raised, at(300), WINDOW).change).toBeNull();
      expect(planReadings(raised, readings(['NORMAL', 20]), at(20), WINDOW).change).toBeNull();
      expect(planReadings(raised, readings(['NORMAL', 31]), at(31), WINDOW).change?.to).toBe('NORMAL');
    });

    it('a lowering brings the episode down and ends "I am fine" at NORMAL: the next crossing alerts again', () => {
      const state = {
        ...after(patient(), readings(['HIGH_RISK', 0])),
        episode: { level: 'HIGH_RISK' as const, suppressed: true },
      };
      const plan = planManualChange(state, 'NORMAL', 'measured again by hand', at(5), WINDOW);
      expect(plan.change?.reason).toEqual({ code: 'MANUAL', params: { text: 'measured again by hand' } });
      expect(plan.write?.episode).toEqual(NO_EPISODE);
      expect(plan.episode.rearmed).toBe(true);
      expect(plan.review).toEqual({ kind: 'CANCEL' });
      const lowered = { ...state, status: 'NORMAL' as const, episode: NO_EPISODE };
      const next = planReadings(lowered, readings(['HIGH_RISK', 6]), at(6), WINDOW);
      expect(next.change).toMatchObject({ from: 'NORMAL', to: 'HIGH_RISK' });
      expect(next.alert).toEqual({ level: 'HIGH_RISK', episodeBefore: 'NORMAL' });
    });
  });
});

describe('the episode rule: every arrow of the diagram', () => {
  it('[*] → NoEpisode: a new patient has no episode', () => {
    expect(patient().episode).toEqual(NO_EPISODE);
  });

  it('NoEpisode → Episode: a batch worse than NORMAL opens one with an alert at its level', () => {
    const plan = planReadings(patient(), readings(['NORMAL', 0], ['AT_RISK', 1]), at(1), WINDOW);
    expect(plan.alert).toEqual({ level: 'AT_RISK', episodeBefore: 'NORMAL' });
    expect(plan.write?.episode).toEqual({ level: 'AT_RISK', suppressed: false });
  });

  it('Episode → Episode (higher level): a new alert at the higher level', () => {
    const state = after(patient(), readings(['AT_RISK', 0]));
    const plan = planReadings(state, readings(['HIGH_RISK', 2]), at(2), WINDOW);
    expect(plan.alert).toEqual({ level: 'HIGH_RISK', episodeBefore: 'AT_RISK' });
  });

  it('Episode → Episode (higher level) while "I am fine" holds: the episode rises, the alert is held back', () => {
    const state = {
      ...after(patient(), readings(['AT_RISK', 0])),
      episode: { level: 'AT_RISK' as const, suppressed: true },
    };
    const plan = planReadings(state, readings(['HIGH_RISK', 2]), at(2), WINDOW);
    expect(plan.alert).toBeNull();
    expect(plan.episode).toEqual({ rearmed: false, held: 'HIGH_RISK' });
    expect(plan.write?.episode).toEqual({ level: 'HIGH_RISK', suppressed: true });
  });

  it('Episode → Episode (same or milder level): nothing', () => {
    const state = after(patient(), readings(['HIGH_RISK', 0]));
    expect(planReadings(state, readings(['HIGH_RISK', 2]), at(2), WINDOW).alert).toBeNull();
    expect(planReadings(state, readings(['AT_RISK', 3]), at(3), WINDOW).alert).toBeNull();
  });

  it('Episode → NoEpisode: a batch all NORMAL ends it and "I am fine" with it; the next crossing alerts', () => {
    const state = {
      ...after(patient(), readings(['HIGH_RISK', 0])),
      episode: { level: 'HIGH_RISK' as const, suppressed: true },
    };
    // While "I am fine" holds, nothing below SOS alerts.
    expect(planReadings(state, readings(['HIGH_RISK', 1]), at(1), WINDOW).alert).toBeNull();
    expect(planReadings(state, readings(['NORMAL', 2]), at(2), WINDOW).episode).toEqual({
      rearmed: true,
      held: null,
    });
    const ended = after(state, readings(['NORMAL', 2]));
    expect(ended.episode).toEqual(NO_EPISODE);
    // The status still shows HIGH_RISK for the window, but the next high reading alerts again.
    expect(ended.status).toBe('HIGH_RISK');
    expect(planReadings(ended, readings(['HIGH_RISK', 3]), at(3), WINDOW).alert).toEqual({
      level: 'HIGH_RISK',
      episodeBefore: 'NORMAL',
    });
  });

  it('Episode → Episode (fall, SOS press, hotline call): always SOS, even with "I am fine"', () => {
    const state = {
      ...after(patient(), readings(['HIGH_RISK', 0])),
      episode: { level: 'SOS' as const, suppressed: true },
    };
    const plan = planReadings(state, event('SOS_BUTTON', 1), at(1), WINDOW);
    expect(plan.alert).toEqual({ level: 'SOS', episodeBefore: 'SOS' });
  });

  it("NoEpisode → Episode (fall, SOS press, hotline call): SOS (a sub-user's at HIGH_RISK)", () => {
    expect(planReadings(patient(), event('FALL', 0), at(0), WINDOW).alert).toEqual({
      level: 'SOS',
      episodeBefore: 'NORMAL',
    });
    const subUser = planReadings(patient(), event('FALL', 0, 'HIGH_RISK'), at(0), WINDOW);
    expect(subUser.alert).toEqual({ level: 'HIGH_RISK', episodeBefore: 'NORMAL' });
    expect(subUser.change?.to).toBe('HIGH_RISK');
  });

  it('a closed case or ticket lowers the episode to the current level', () => {
    const state = after(patient(), event('SOS_BUTTON', 0));
    const plan = planClose(state, 'AT_RISK', 'CASE_CLOSED', at(5), WINDOW);
    expect(plan.write?.episode).toEqual({ level: 'AT_RISK', suppressed: false });
    expect(plan.episode.rearmed).toBe(true);
  });
});
