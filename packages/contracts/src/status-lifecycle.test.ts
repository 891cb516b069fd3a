import { describe, expect, it } from 'vitest';
import {
  decideEpisode,
  decideLifecycle,
  decideOnClose,
  EMPTY_EVIDENCE,
  evidenceFromRecord,
  evidenceToRecord,
  readingReason,
  reviewLifecycle,
  settledLevel,
  statusReasonText,
  withItems,
  type LifecycleState,
} from './status-lifecycle.js';

const MIN = 60_000;
const WINDOW = 30 * MIN;
const T0 = Date.parse('2026-03-10T08:00:00Z');
const at = (minutes: number) => T0 + minutes * MIN;
const trigger = readingReason('SPO2', 84.5);

const state = (overrides: Partial<LifecycleState> = {}): LifecycleState => ({
  status: 'NORMAL',
  evidence: EMPTY_EVIDENCE,
  hasOpenCase: false,
  ...overrides,
});

describe('the episode rule', () => {
  it('a crossing from no episode starts one and alerts at its level', () => {
    expect(decideEpisode({ level: 'NORMAL', suppressed: false }, 'AT_RISK')).toEqual({
      level: 'AT_RISK',
      suppressed: false,
      alertAt: 'AT_RISK',
      started: true,
      ended: false,
    });
  });
  it('one alert per level within an episode: the same or a milder level adds nothing, a higher one alerts', () => {
    expect(decideEpisode({ level: 'HIGH_RISK', suppressed: false }, 'HIGH_RISK').alertAt).toBeNull();
    expect(decideEpisode({ level: 'HIGH_RISK', suppressed: false }, 'AT_RISK')).toMatchObject({
      level: 'HIGH_RISK',
      alertAt: null,
    });
    expect(decideEpisode({ level: 'AT_RISK', suppressed: false }, 'HIGH_RISK')).toMatchObject({
      level: 'HIGH_RISK',
      alertAt: 'HIGH_RISK',
      started: false,
    });
  });
  it('values normalizing end the episode and "I am fine" with it; the next crossing alerts again', () => {
    const ended = decideEpisode({ level: 'HIGH_RISK', suppressed: true }, 'NORMAL');
    expect(ended).toEqual({ level: 'NORMAL', suppressed: false, alertAt: null, started: false, ended: true });
    expect(decideEpisode(ended, 'HIGH_RISK')).toMatchObject({ alertAt: 'HIGH_RISK', started: true });
  });
  it('"I am fine" holds while values stay abnormal: nothing below SOS alerts, SOS does', () => {
    const fine = { level: 'HIGH_RISK' as const, suppressed: true };
    expect(decideEpisode(fine, 'HIGH_RISK').alertAt).toBeNull();
    expect(decideEpisode({ level: 'AT_RISK', suppressed: true }, 'HIGH_RISK')).toMatchObject({
      level: 'HIGH_RISK',
      alertAt: null,
      suppressed: true,
    });
    expect(decideEpisode(fine, 'SOS')).toMatchObject({ level: 'SOS', alertAt: 'SOS', suppressed: true });
  });
  it('nothing judged (steps only) changes nothing', () => {
    expect(decideEpisode({ level: 'AT_RISK', suppressed: true }, null)).toEqual({
      level: 'AT_RISK',
      suppressed: true,
      alertAt: null,
      started: false,
      ended: false,
    });
  });
  it('a fall or an SOS press always alerts (a second press joins the open case)', () => {
    expect(decideEpisode({ level: 'SOS', suppressed: false }, null, 'SOS')).toMatchObject({
      level: 'SOS',
      alertAt: 'SOS',
    });
    expect(decideEpisode({ level: 'NORMAL', suppressed: false }, 'NORMAL', 'SOS')).toMatchObject({
      level: 'SOS',
      alertAt: 'SOS',
      started: true,
    });
    // A sub-user's fall is capped at HIGH_RISK by the caller; "I am fine" then holds it back.
    expect(decideEpisode({ level: 'HIGH_RISK', suppressed: true }, null, 'HIGH_RISK').alertAt).toBeNull();
  });
});

describe('evidence and the settled level', () => {
  it('remembers the latest reading at or above each level and the latest judged reading', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'HIGH_RISK', atMs: at(0) },
      { level: 'AT_RISK', atMs: at(5) },
      { level: 'NORMAL', atMs: at(6) },
    ]);
    expect(evidence).toEqual({
      lastAtOrAbove: { AT_RISK: at(5), HIGH_RISK: at(0), SOS: null },
      lastJudgedAt: at(6),
      byMeasure: {},
    });
  });
  it('remembers per measure its latest reading at or above each level and below it', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'HIGH_RISK', atMs: at(0), measure: 'SPO2' },
      { level: 'AT_RISK', atMs: at(5), measure: 'SPO2' },
      { level: 'NORMAL', atMs: at(6), measure: 'HEART_RATE' },
    ]);
    expect(evidence.byMeasure).toEqual({
      SPO2: {
        lastAtOrAbove: { AT_RISK: at(5), HIGH_RISK: at(0), SOS: null },
        lastBelow: { AT_RISK: null, HIGH_RISK: at(5), SOS: at(5) },
      },
      HEART_RATE: {
        lastAtOrAbove: { AT_RISK: null, HIGH_RISK: null, SOS: null },
        lastBelow: { AT_RISK: at(6), HIGH_RISK: at(6), SOS: at(6) },
      },
    });
    expect(evidenceFromRecord(evidenceToRecord(evidence))).toEqual(evidence);
  });
  it('reads evidence stored before measures were kept (level keys and "judged" only)', () => {
    expect(evidenceFromRecord({ AT_RISK: at(0), judged: at(2) })).toEqual({
      lastAtOrAbove: { AT_RISK: at(0), HIGH_RISK: null, SOS: null },
      lastJudgedAt: at(2),
      byMeasure: {},
    });
  });
  it("another measure's normal reading does not bring down a level the crossing measure reached", () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'AT_RISK', atMs: at(0), measure: 'SYSTOLIC' },
      { level: 'NORMAL', atMs: at(1), measure: 'HEART_RATE' },
      { level: 'NORMAL', atMs: at(45), measure: 'HEART_RATE' },
    ]);
    expect(settledLevel(evidence, at(60), WINDOW)).toBe('AT_RISK');
    const remeasured = withItems(evidence, [{ level: 'NORMAL', atMs: at(50), measure: 'SYSTOLIC' }]);
    expect(settledLevel(remeasured, at(60), WINDOW)).toBe('NORMAL');
  });
  it('one normal reading of the crossing measure then silence proves nothing; readings through the window do', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'AT_RISK', atMs: at(0), measure: 'SPO2' },
      { level: 'NORMAL', atMs: at(2), measure: 'SPO2' },
    ]);
    expect(settledLevel(evidence, at(600), WINDOW)).toBe('AT_RISK');
    const through = withItems(evidence, [{ level: 'NORMAL', atMs: at(30), measure: 'SPO2' }]);
    expect(settledLevel(through, at(30), WINDOW)).toBe('NORMAL');
  });
  it('old readings that cross then normalize a minute later raise the status and do not settle it at once', () => {
    // A batch posted now with a systolic of 136 measured 40 minutes ago and a normal one 39 minutes ago.
    const items = [
      { level: 'AT_RISK' as const, atMs: at(-40), measure: 'SYSTOLIC' },
      { level: 'NORMAL' as const, atMs: at(-39), measure: 'SYSTOLIC' },
    ];
    const decision = decideLifecycle(state(), items, trigger, at(0), WINDOW);
    expect(decision.change).toMatchObject({ from: 'NORMAL', to: 'AT_RISK' });
    const next = decideLifecycle(
      state({ status: 'AT_RISK', evidence: decision.evidence }),
      [],
      trigger,
      at(1),
      WINDOW,
    );
    expect(next.change).toBeNull();
  });
  it('comes down only to a level every later reading stayed within for the whole window', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'SOS', atMs: at(0) },
      { level: 'AT_RISK', atMs: at(20) },
      { level: 'NORMAL', atMs: at(25) },
    ]);
    expect(settledLevel(evidence, at(29), WINDOW)).toBe('SOS');
    expect(settledLevel(evidence, at(30), WINDOW)).toBe('AT_RISK');
    expect(settledLevel(evidence, at(49), WINDOW)).toBe('AT_RISK');
    expect(settledLevel(evidence, at(50), WINDOW)).toBe('NORMAL');
  });
  it('a silent device proves nothing: without a reading after the last abnormal one it stays', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [{ level: 'HIGH_RISK', atMs: at(0) }]);
    expect(settledLevel(evidence, at(600), WINDOW)).toBe('HIGH_RISK');
  });
});

describe('the status lifecycle', () => {
  it('readings raise the status at once, with what raised it', () => {
    const decision = decideLifecycle(state(), [{ level: 'HIGH_RISK', atMs: at(0) }], trigger, at(0), WINDOW);
    expect(decision.change).toEqual({ from: 'NORMAL', to: 'HIGH_RISK', reason: trigger });
    expect(statusReasonText(trigger)).toBe('automatic: SPO2 84.5');
    expect(decision.reviewAtMs).toBe(at(30));
  });
  it('AT_RISK then normal readings for the window: NORMAL (automatic, with the window)', () => {
    const raised = decideLifecycle(state(), [{ level: 'AT_RISK', atMs: at(0) }], trigger, at(0), WINDOW);
    const atRisk = state({ status: 'AT_RISK', evidence: raised.evidence });
    const early = decideLifecycle(atRisk, [{ level: 'NORMAL', atMs: at(10) }], trigger, at(10), WINDOW);
    expect(early.change).toBeNull();
    expect(early.reviewAtMs).toBe(at(30));
    const settled = decideLifecycle(
      { ...atRisk, evidence: early.evidence },
      [{ level: 'NORMAL', atMs: at(31) }],
      trigger,
      at(31),
      WINDOW,
    );
    expect(settled.change).toEqual({
      from: 'AT_RISK',
      to: 'NORMAL',
      reason: { code: 'SETTLED', params: { minutes: 30 } },
    });
    expect(settled.reviewAtMs).toBeNull();
  });
  it('HIGH_RISK comes down one level when readings stay within AT_RISK', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'HIGH_RISK', atMs: at(0) },
      { level: 'AT_RISK', atMs: at(31) },
    ]);
    const decision = decideLifecycle(state({ status: 'HIGH_RISK', evidence }), [], trigger, at(31), WINDOW);
    expect(decision.change?.to).toBe('AT_RISK');
    expect(decision.reviewAtMs).toBe(at(61));
  });
  it('never comes down while an SOS case is open, and no review is scheduled then', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'SOS', atMs: at(0) },
      { level: 'NORMAL', atMs: at(1) },
    ]);
    const open = decideLifecycle(
      state({ status: 'SOS', evidence, hasOpenCase: true }),
      [],
      trigger,
      at(90),
      WINDOW,
    );
    expect(open).toMatchObject({ change: null, reviewAtMs: null });
  });
  it('the window job with no new readings brings the status down at the window end', () => {
    const evidence = withItems(EMPTY_EVIDENCE, [
      { level: 'AT_RISK', atMs: at(0) },
      { level: 'NORMAL', atMs: at(2) },
    ]);
    expect(reviewLifecycle(state({ status: 'AT_RISK', evidence }), at(29), WINDOW).change).toBeNull();
    expect(reviewLifecycle(state({ status: 'AT_RISK', evidence }), at(30), WINDOW).change).toMatchObject({
      to: 'NORMAL',
      reason: { code: 'SETTLED' },
    });
  });
  it('a fall or SOS press counts as evidence at its level (no instant come-down after it)', () => {
    const decision = decideLifecycle(
      state(),
      [{ level: 'SOS', atMs: at(0) }],
      { code: 'EVENT', params: { source: 'SOS_BUTTON' } },
      at(0),
      WINDOW,
    );
    expect(decision.change?.to).toBe('SOS');
    expect(settledLevel(decision.evidence, at(1), WINDOW)).toBe('SOS');
  });
  it('closing the case sets the status from the current readings, down or up, and lowers the episode', () => {
    const base = { ...state({ status: 'SOS' }), episode: { level: 'SOS' as const, suppressed: true } };
    const normal = decideOnClose(base, 'NORMAL', 'CASE_CLOSED', at(0), WINDOW);
    expect(normal.change).toEqual({ from: 'SOS', to: 'NORMAL', reason: { code: 'CASE_CLOSED', params: {} } });
    expect(normal.episode).toEqual({ level: 'NORMAL', suppressed: false });
    const stillHigh = decideOnClose(base, 'HIGH_RISK', 'CASE_CLOSED', at(0), WINDOW);
    expect(stillHigh.change?.to).toBe('HIGH_RISK');
    expect(stillHigh.episode).toEqual({ level: 'HIGH_RISK', suppressed: true });
    expect(stillHigh.reviewAtMs).toBe(at(30));
    const same = decideOnClose({ ...base, status: 'HIGH_RISK' }, 'HIGH_RISK', 'TICKET_CLOSED', at(0), WINDOW);
    expect(same.change).toBeNull();
  });
  it('closing a ticket while an SOS case is still open changes nothing', () => {
    const base = {
      ...state({ status: 'SOS', hasOpenCase: true }),
      episode: { level: 'SOS' as const, suppressed: false },
    };
    expect(decideOnClose(base, 'NORMAL', 'TICKET_CLOSED', at(0), WINDOW).change).toBeNull();
  });
});
