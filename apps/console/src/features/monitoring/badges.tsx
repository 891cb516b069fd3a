import { Badge } from '@mantine/core';
import type { SosCaseStatus, TicketStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

const SOS_COLOR: Record<SosCaseStatus, string> = {
  NEW: 'red',
  IN_PROCESS: 'orange',
  RESOLVED: 'teal',
  CLOSED: 'gray',
};
const TICKET_COLOR: Record<TicketStatus, string> = {
  NEW: 'red',
  CONFIRMED: 'blue',
  PROCESSING: 'orange',
  COMPLETED: 'teal',
  SUCCESS: 'green',
  CANCELED: 'gray',
};

/** An SOS case's status (spec §4), loud while nobody has taken it. */
export function SosStatusBadge({ status }: { status: SosCaseStatus }) {
  const { t } = useTranslation('monitoring');
  return (
    <Badge
      variant={status === 'NEW' ? 'filled' : 'light'}
      color={SOS_COLOR[status]}
      tt="none"
      data-testid="sos-status"
      data-status={status}
    >
      {t(`sosStatus.${status}`)}
    </Badge>
  );
}

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('monitoring');
  return (
    <Badge
      variant="light"
      color={TICKET_COLOR[status]}
      tt="none"
      data-testid="ticket-status"
      data-status={status}
    >
      {t(`ticketStatus.${status}`)}
    </Badge>
  );
}

/** A KPI failure (or the deadline when none failed). */
export function KpiBadge({ failed }: { failed: boolean }) {
  const { t } = useTranslation('monitoring');
  return failed ? (
    <Badge color="red" variant="outline" tt="none">
      {t('kpi.failed')}
    </Badge>
  ) : null;
}
