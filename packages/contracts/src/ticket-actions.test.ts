import { describe, expect, it } from 'vitest';
import { actionsFrom, TICKET_ACTIONS, TICKET_STATUSES } from './cases.js';
import { ticketActionsFor } from './ticket-actions.js';

const me = { userId: 'me', canAct: true };

describe('ticketActionsFor', () => {
  it('never offers more than the machine allows from the state', () => {
    for (const status of TICKET_STATUSES) {
      for (const assigneeId of [null, 'me', 'someone']) {
        const offered = ticketActionsFor({ status, assigneeId }, me);
        const allowed = actionsFrom(TICKET_ACTIONS, status);
        expect(offered.every((action) => allowed.includes(action)), `${status} ${String(assigneeId)}`).toBe(true);
      }
    }
  });

  it('offers "assign" to everyone but the handler; start and complete to the handler only', () => {
    expect(ticketActionsFor({ status: 'NEW', assigneeId: null }, me)).toEqual(['assign', 'cancel']);
    expect(ticketActionsFor({ status: 'CONFIRMED', assigneeId: 'me' }, me)).toEqual(['start', 'cancel']);
    expect(ticketActionsFor({ status: 'CONFIRMED', assigneeId: 'someone' }, me)).toEqual(['assign', 'cancel']);
    expect(ticketActionsFor({ status: 'PROCESSING', assigneeId: 'me' }, me)).toEqual(['complete', 'cancel']);
    expect(ticketActionsFor({ status: 'PROCESSING', assigneeId: 'someone' }, me)).toEqual(['cancel']);
    // A ticket without a handler is taken first: nobody works it unassigned.
    expect(ticketActionsFor({ status: 'CONFIRMED', assigneeId: null }, me)).toEqual(['assign', 'cancel']);
    expect(ticketActionsFor({ status: 'PROCESSING', assigneeId: null }, me)).toEqual(['cancel']);
    expect(ticketActionsFor({ status: 'COMPLETED', assigneeId: 'someone' }, me)).toEqual(['reject', 'close']);
    expect(ticketActionsFor({ status: 'SUCCESS', assigneeId: 'me' }, me)).toEqual([]);
  });

  it('offers nothing to a reader who may not act', () => {
    expect(ticketActionsFor({ status: 'NEW', assigneeId: null }, { userId: 'doctor', canAct: false })).toEqual([]);
  });
});
