/**
 * SOS cases and tickets (spec §3, §4) as state machines written as data: each action names the
 * states it may start from, the state it leads to and whether it needs a reason. The server refuses
 * any other move with the machine's invalid-transition code; the console offers only the actions
 * that {@link actionsFrom} returns.
 */

export interface MachineAction<State extends string> {
  from: readonly State[];
  to: State;
  /** The action needs a written reason (closing a false alarm, canceling). */
  needsReason: boolean;
}
export type Machine<State extends string, Action extends string> = Record<Action, MachineAction<State>>;

// SOS case: new -> in process -> resolved -> closed ------------------------------------------

export const SOS_CASE_STATUSES = ['NEW', 'IN_PROCESS', 'RESOLVED', 'CLOSED'] as const;
export type SosCaseStatus = (typeof SOS_CASE_STATUSES)[number];

export const SOS_CASE_ACTIONS = {
  /** An operator takes the case: from now the SOS processing KPI timer stops. */
  accept: { from: ['NEW'], to: 'IN_PROCESS', needsReason: false },
  /** The emergency is handled (patient reached, help on site); the note says how. */
  resolve: { from: ['IN_PROCESS'], to: 'RESOLVED', needsReason: true },
  /** Back to work when the resolution did not hold. */
  reopen: { from: ['RESOLVED'], to: 'IN_PROCESS', needsReason: true },
  /** Closing a resolved case, or a false alarm straight away (then the reason is required). */
  close: { from: ['NEW', 'IN_PROCESS', 'RESOLVED'], to: 'CLOSED', needsReason: true },
} as const satisfies Machine<SosCaseStatus, string>;
export type SosCaseAction = keyof typeof SOS_CASE_ACTIONS;

/** What an operator did while handling a case (its action history). */
export const SOS_CASE_STEP_TYPES = [
  'CALL_PATIENT',
  'SMS_PATIENT',
  'CALL_FOLLOWER',
  'CALL_EMERGENCY',
  'SMS',
  'DISPATCH',
  'NOTE',
] as const;

// Ticket: new -> confirm (assigned) -> processing -> complete (checked) -> success (closed); canceled

export const TICKET_STATUSES = [
  'NEW',
  'CONFIRMED',
  'PROCESSING',
  'COMPLETED',
  'SUCCESS',
  'CANCELED',
] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_ACTIONS = {
  /** Confirm and assign to a handler. */
  assign: { from: ['NEW', 'CONFIRMED'], to: 'CONFIRMED', needsReason: false },
  start: { from: ['CONFIRMED'], to: 'PROCESSING', needsReason: false },
  /** The work is done and waits for a check. */
  complete: { from: ['PROCESSING'], to: 'COMPLETED', needsReason: false },
  /** The check failed: back to processing. */
  reject: { from: ['COMPLETED'], to: 'PROCESSING', needsReason: true },
  /** Checked and closed. */
  close: { from: ['COMPLETED'], to: 'SUCCESS', needsReason: false },
  cancel: { from: ['NEW', 'CONFIRMED', 'PROCESSING'], to: 'CANCELED', needsReason: true },
} as const satisfies Machine<TicketStatus, string>;
export type TicketAction = keyof typeof TICKET_ACTIONS;

export const TICKET_TYPES = ['SOS', 'ALERT', 'CONSULTATION', 'SUPPORT'] as const;

/** The three KPI failure reasons of spec §3. */
export const KPI_FAILURE_REASONS = [
  'SOS_PROCESSING_OVERDUE',
  'CONSULTATION_OVERDUE',
  'RESULT_RETURN_OVERDUE',
] as const;
export type KpiFailureReason = (typeof KPI_FAILURE_REASONS)[number];

/** Alert types of spec §3, and NO_DATA: a bound watch stopped syncing for the tenant's allowed time. */
export const ALERT_TYPES = [
  'HEART_RATE',
  'BLOOD_PRESSURE',
  'SPO2',
  'FALL',
  'TEMPERATURE',
  'GLUCOSE',
  'CALL',
  'NO_DATA',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

// Shared ---------------------------------------------------------------------------------------

export type TransitionResult<State extends string> =
  { ok: true; to: State } | { ok: false; problem: 'invalidTransition' | 'reasonRequired' };

/** Where `action` leads from `state`, or why it may not be taken. */
export function transition<State extends string, Action extends string>(
  machine: Machine<State, Action>,
  state: State,
  action: Action,
  reason?: string | null,
): TransitionResult<State> {
  const step = machine[action];
  if (!step.from.includes(state)) return { ok: false, problem: 'invalidTransition' };
  if (step.needsReason && (reason ?? '').trim() === '') return { ok: false, problem: 'reasonRequired' };
  return { ok: true, to: step.to };
}

/** The actions that may be taken from `state`, in the machine's order. */
export function actionsFrom<State extends string, Action extends string>(
  machine: Machine<State, Action>,
  state: State,
): Action[] {
  return (Object.keys(machine) as Action[]).filter((action) => machine[action].from.includes(state));
}
