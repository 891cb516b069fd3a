import { describe, expect, it } from 'vitest';
import { planCaseChange, planTicketFollow } from './case-plan.js';

/* What moving an SOS case decides, without a database. */

describe('planCaseChange', () => {
  it('accept: assigns, stops the KPI timer, acknowledges the open alerts; the status is left', () => {
    expect(planCaseChange('NEW', 'accept', undefined)).toMatchObject({
      ok: true,
      to: 'IN_PROCESS',
      assigns: true,
      cancelKpi: true,
      alerts: { to: 'ACKNOWLEDGED', from: ['OPEN'] },
      settlesStatus: false,
    });
  });

  it('close: records the reason, resolves the alerts and sets the status from the current readings', () => {
    expect(planCaseChange('RESOLVED', 'close', '  Patient fine  ')).toMatchObject({
      ok: true,
      to: 'CLOSED',
      reason: 'Patient fine',
      closes: true,
      cancelKpi: true,
      alerts: { to: 'RESOLVED', from: ['OPEN', 'ACKNOWLEDGED'] },
      settlesStatus: true,
    });
  });

  it('resolve sets resolvedAt and reopen clears it; neither touches the timer or the alerts', () => {
    expect(planCaseChange('IN_PROCESS', 'resolve', 'called back')).toMatchObject({
      resolvedAt: 'SET',
      cancelKpi: false,
      alerts: null,
    });
    expect(planCaseChange('RESOLVED', 'reopen', 'not fine after all')).toMatchObject({ resolvedAt: 'CLEAR' });
  });

  it('refuses what the machine refuses', () => {
    expect(planCaseChange('CLOSED', 'accept', undefined)).toEqual({
      ok: false,
      problem: 'invalidTransition',
    });
    expect(planCaseChange('RESOLVED', 'close', ' ')).toEqual({ ok: false, problem: 'reasonRequired' });
  });
});

describe('planTicketFollow', () => {
  it('accept takes a NEW ticket through assign and start, the acting user its handler', () => {
    expect(planTicketFollow('NEW', 'accept', '')).toEqual({
      steps: [
        { action: 'assign', from: 'NEW', to: 'CONFIRMED' },
        { action: 'start', from: 'CONFIRMED', to: 'PROCESSING' },
      ],
      status: 'PROCESSING',
      assigns: true,
      isFinal: false,
      cancelReason: null,
    });
  });

  it('close closes a completed ticket and cancels any other, with the reason', () => {
    expect(planTicketFollow('COMPLETED', 'close', 'fine')).toMatchObject({
      status: 'SUCCESS',
      isFinal: true,
    });
    expect(planTicketFollow('PROCESSING', 'close', 'fine')).toMatchObject({
      status: 'CANCELED',
      isFinal: true,
      cancelReason: 'fine',
    });
  });

  it('a step the ticket machine does not allow is skipped; nothing left, no move', () => {
    expect(planTicketFollow('SUCCESS', 'reopen', 'again')).toBeNull();
  });
});
