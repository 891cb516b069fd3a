import type { TicketDetail } from '@rpm/contracts';

/**
 * The texts of a ticket's detail that depend on its type (keys of the `monitoring` namespace): an
 * SOS ticket speaks of the SOS (its time, the vital signs that came with it); support, alert and
 * consultation tickets speak of the ticket and never of an SOS.
 */
export function ticketWording(type: TicketDetail['type']) {
  const isSos = type === 'SOS';
  return {
    indicatorsTitle: isSos ? 'sos.detail.vitals' : 'tickets.detail.healthIndicators',
    noIndicators: isSos ? 'sos.detail.noVitals' : 'tickets.detail.noIndicators',
    eventAt: isSos ? 'tickets.detail.sosAt' : 'tickets.detail.reportedAt',
  } as const;
}

/**
 * The label of the assign action: the server offers it only to someone who is not the handler, so
 * it reads "Assign to me" on an unassigned ticket and "Take over" on one another person handles.
 */
export function assignLabel(ticket: Pick<TicketDetail, 'assignee'>): 'ticketAction.assign' | 'ticketAction.takeOver' {
  return ticket.assignee === null ? 'ticketAction.assign' : 'ticketAction.takeOver';
}
