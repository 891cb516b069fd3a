import { describe, expect, it } from 'vitest';
import {
  actionsFrom,
  SOS_CASE_ACTIONS,
  SOS_CASE_STATUSES,
  TICKET_ACTIONS,
  TICKET_STATUSES,
  transition,
  type Machine,
} from './cases.js';

function walk<State extends string, Action extends string>(
  machine: Machine<State, Action>,
  start: State,
  actions: Action[],
) {
  let state = start;
  for (const action of actions) {
    const result = transition(machine, state, action, 'because');
    if (!result.ok) throw new Error(`${action} from ${state}: ${result.problem}`);
    state = result.to;
  }
  return state;
}

/** Every (state, action) pair: allowed exactly when the table lists the state. */
function everyPair<State extends string, Action extends string>(
  machine: Machine<State, Action>,
  states: readonly State[],
) {
  return states.flatMap((state) =>
    (Object.keys(machine) as Action[]).map((action) => ({
      state,
      action,
      allowed: machine[action].from.includes(state),
    })),
  );
}

describe('SOS case machine', () => {
  it('goes new → in process → resolved → closed', () => {
    expect(walk(SOS_CASE_ACTIONS, 'NEW', ['accept', 'resolve', 'close'])).toBe('CLOSED');
  });
  it.each(everyPair(SOS_CASE_ACTIONS, SOS_CASE_STATUSES))(
    '$action from $state allowed: $allowed',
    ({ state, action, allowed }) => {
      expect(transition(SOS_CASE_ACTIONS, state, action, 'reason').ok).toBe(allowed);
    },
  );
  it('nothing leaves a closed case', () => {
    expect(actionsFrom(SOS_CASE_ACTIONS, 'CLOSED')).toEqual([]);
  });
  it('closing a false alarm needs a reason', () => {
    expect(transition(SOS_CASE_ACTIONS, 'NEW', 'close', '  ')).toEqual({
      ok: false,
      problem: 'reasonRequired',
    });
    expect(transition(SOS_CASE_ACTIONS, 'NEW', 'accept')).toEqual({ ok: true, to: 'IN_PROCESS' });
  });
});

describe('ticket machine', () => {
  it('goes new → confirmed → processing → completed → success', () => {
    expect(walk(TICKET_ACTIONS, 'NEW', ['assign', 'start', 'complete', 'close'])).toBe('SUCCESS');
  });
  it('a failed check goes back to processing', () => {
    expect(walk(TICKET_ACTIONS, 'NEW', ['assign', 'start', 'complete', 'reject'])).toBe('PROCESSING');
  });
  it.each(everyPair(TICKET_ACTIONS, TICKET_STATUSES))(
    '$action from $state allowed: $allowed',
    ({ state, action, allowed }) => {
      expect(transition(TICKET_ACTIONS, state, action, 'reason').ok).toBe(allowed);
    },
  );
  it('final states have no actions, cancel needs a reason', () => {
    expect(actionsFrom(TICKET_ACTIONS, 'SUCCESS')).toEqual([]);
    expect(actionsFrom(TICKET_ACTIONS, 'CANCELED')).toEqual([]);
    expect(transition(TICKET_ACTIONS, 'PROCESSING', 'cancel')).toEqual({
      ok: false,
      problem: 'reasonRequired',
    });
  });
});
