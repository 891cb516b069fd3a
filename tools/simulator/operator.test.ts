import { describe, expect, it } from 'vitest';
import { ageOn, isSessionLost } from './fleet.js';
import { dueStep, planCase } from './operator.js';
import { createRandom } from '@rpm/vitals-sim';

const MINUTE = 60_000;
const seenAt = Date.parse('2026-03-02T10:00:00Z');
const opened = new Date(seenAt - MINUTE).toISOString();

describe('simulated duty operator', () => {
  it('plans to take a case within two minutes and close it after the drawn delay', () => {
    const random = createRandom(5);
    for (let index = 0; index < 500; index += 1) {
      const plan = planCase(random, seenAt, [3, 8]);
      expect(plan.closeAt - seenAt).toBeGreaterThanOrEqual(3 * MINUTE);
      expect(plan.closeAt - seenAt).toBeLessThanOrEqual(8 * MINUTE);
      expect(plan.acceptAt - seenAt).toBeGreaterThanOrEqual(30_000);
      expect(plan.acceptAt - seenAt).toBeLessThanOrEqual(2 * MINUTE);
    }
  });

  it('takes a new case, then resolves and closes it once its time came', () => {
    const plan = { seenAt, acceptAt: seenAt + MINUTE, closeAt: seenAt + 5 * MINUTE };
    const step = (status: 'NEW' | 'IN_PROCESS' | 'RESOLVED', at: number) =>
      dueStep({ status, openedAt: opened }, plan, false, at, 20);
    expect(step('NEW', seenAt)).toBeNull();
    expect(step('NEW', seenAt + MINUTE)).toBe('accept');
    expect(step('IN_PROCESS', seenAt + 4 * MINUTE)).toBeNull();
    expect(step('IN_PROCESS', seenAt + 5 * MINUTE)).toBe('resolve');
    expect(step('RESOLVED', seenAt + 5 * MINUTE)).toBe('close');
  });

  it('takes the newest open case but leaves it open until it is old enough', () => {
    const plan = { seenAt, acceptAt: seenAt + MINUTE, closeAt: seenAt + 5 * MINUTE };
    const newest = (at: number) => dueStep({ status: 'IN_PROCESS', openedAt: opened }, plan, true, at, 20);
    expect(dueStep({ status: 'NEW', openedAt: opened }, plan, true, seenAt + MINUTE, 20)).toBe('accept');
    expect(newest(seenAt + 5 * MINUTE)).toBeNull();
    expect(newest(seenAt + 18 * MINUTE)).toBeNull();
    expect(newest(seenAt + 19 * MINUTE)).toBe('resolve');
  });
});

describe('patient age for the episode thresholds', () => {
  it('counts whole years from the birthday, 60 when unknown', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(ageOn('1940-01-01', now)).toBe(86);
    expect(ageOn('1961-11-24', now)).toBe(65);
    expect(ageOn('1961-11-25', now)).toBe(64);
    expect(ageOn(null, now)).toBe(60);
  });
});

describe('session handling', () => {
  it('logs in again when the session expired or the same account logged in elsewhere', () => {
    expect(isSessionLost(Object.assign(new Error(), { status: 401 }))).toBe(true);
    expect(isSessionLost(Object.assign(new Error(), { status: 403, code: 'auth.loggedInElsewhere' }))).toBe(
      true,
    );
    expect(isSessionLost(Object.assign(new Error(), { status: 403, code: 'auth.forbidden' }))).toBe(false);
    expect(isSessionLost(Object.assign(new Error(), { status: 500 }))).toBe(false);
  });
});
