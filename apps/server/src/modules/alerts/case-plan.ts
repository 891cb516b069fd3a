import {
  SOS_CASE_ACTIONS,
  TICKET_ACTIONS,
  transition,
  type SosCaseAction,
  type SosCaseStatus,
  type TicketAction,
  type TicketStatus,
} from '@rpm/contracts';

/*
 * What a staff member's move of an SOS case decides, as data (no database): the case's new state
 * and columns, the KPI timer, the case's alerts, the status lifecycle, and the steps its ticket
 * follows. sos-service.ts changeSosCase applies it in one transaction.
 */

export type CaseChangePlan =
  | { ok: false; problem: 'invalidTransition' | 'reasonRequired' }
  | {
      ok: true;
      from: SosCaseStatus;
      to: SosCaseStatus;
      /** The trimmed reason ('' when none was needed or given). */
      reason: string;
      /** Accepting assigns the case to the acting user. */
      assigns: boolean;
      /** resolvedAt: set now (resolve), cleared (reopen) or left. */
      resolvedAt: 'SET' | 'CLEAR' | null;
      /** Closing records closedAt and the reason. */
      closes: boolean;
      /** The SOS KPI timer is no longer needed once the case is accepted or closed. */
      cancelKpi: boolean;
      /** The case's alerts: acknowledged on accept (OPEN ones), resolved on close (OPEN or ACKNOWLEDGED). */
      alerts: { to: 'ACKNOWLEDGED' | 'RESOLVED'; from: readonly string[] } | null;
      /** Closing sets the patient's status from the current readings (status lifecycle planClose). */
      settlesStatus: boolean;
    };

/** Moves a case along its machine (contracts SOS_CASE_ACTIONS). */
export function planCaseChange(
  from: SosCaseStatus,
  action: SosCaseAction,
  reasonText: string | undefined,
): CaseChangePlan {
  const result = transition(SOS_CASE_ACTIONS, from, action, reasonText);
  if (!result.ok) return { ok: false, problem: result.problem };
  return {
    ok: true,
    from,
    to: result.to,
    reason: (reasonText ?? '').trim(),
    assigns: action === 'accept',
    resolvedAt: action === 'resolve' ? 'SET' : action === 'reopen' ? 'CLEAR' : null,
    closes: action === 'close',
    cancelKpi: action === 'accept' || action === 'close',
    alerts:
      action === 'close'
        ? { to: 'RESOLVED', from: ['OPEN', 'ACKNOWLEDGED'] }
        : action === 'accept'
          ? { to: 'ACKNOWLEDGED', from: ['OPEN'] }
          : null,
    settlesStatus: action === 'close',
  };
}

/** What the case's ticket does when the case moves (when the ticket machine allows it). */
const TICKET_FOLLOWS: Record<SosCaseAction, TicketAction[]> = {
  accept: ['assign', 'start'],
  resolve: ['complete'],
  reopen: ['reject'],
  close: ['close'],
};

export interface TicketFollowPlan {
  /** Each step the ticket takes, in order (one history row each). */
  steps: { action: TicketAction; from: TicketStatus; to: TicketStatus }[];
  status: TicketStatus;
  /** Accepting the case makes the acting user the ticket's handler (current action SOS). */
  assigns: boolean;
  /** SUCCESS or CANCELED: closedAt is set. */
  isFinal: boolean;
  /** A ticket canceled with its case keeps the reason. */
  cancelReason: string | null;
}

/**
 * The ticket's steps when its case moves: a closed case closes a completed ticket and cancels any
 * other; steps the ticket machine does not allow from where the ticket is are skipped. Null when
 * the ticket does not move.
 */
export function planTicketFollow(
  ticketStatus: TicketStatus,
  action: SosCaseAction,
  reason: string,
): TicketFollowPlan | null {
  const actions: TicketAction[] =
    action === 'close' && ticketStatus !== 'COMPLETED' ? ['cancel'] : TICKET_FOLLOWS[action];
  const steps: TicketFollowPlan['steps'] = [];
  let status = ticketStatus;
  for (const step of actions) {
    const result = transition(TICKET_ACTIONS, status, step, reason === '' ? 'SOS case' : reason);
    if (!result.ok) continue;
    steps.push({ action: step, from: status, to: result.to });
    status = result.to;
  }
  if (steps.length === 0) return null;
  return {
    steps,
    status,
    assigns: action === 'accept',
    isFinal: status === 'SUCCESS' || status === 'CANCELED',
    cancelReason: status === 'CANCELED' ? reason : null,
  };
}
