import { actionsFrom, TICKET_ACTIONS, type TicketAction, type TicketStatus } from './cases.js';

/** Who looks at a ticket: their account, and whether they may act on tickets at all (health.sos). */
export interface TicketActor {
  userId: string;
  canAct: boolean;
}

/**
 * The actions a ticket offers to one person: the machine's moves from the current state
 * ({@link TICKET_ACTIONS}), narrowed to the actor. "Assign to me" is not offered to the current
 * handler (assigning the same handler again changes nothing); starting and completing the work
 * are the handler's; another handler may take the ticket over while the machine allows assigning,
 * cancel it, and check completed work (send back or close). A reader without the right to act is
 * offered nothing.
 */
export function ticketActionsFor(
  ticket: { status: TicketStatus; assigneeId: string | null },
  actor: TicketActor,
): TicketAction[] {
  if (!actor.canAct) return [];
  const isHandler = ticket.assigneeId !== null && ticket.assigneeId === actor.userId;
  return actionsFrom(TICKET_ACTIONS, ticket.status).filter((action) => {
    if (action === 'assign') return !isHandler;
    if (action === 'start' || action === 'complete') return isHandler;
    return true;
  });
}
