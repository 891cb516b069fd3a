import { Badge } from '@mantine/core';
import type { SosCaseStatus, TicketStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BADGE_COLORS, type BadgeColor } from '../../theme';

// The colours live in theme.ts, where a test holds each to WCAG AA contrast.
const SOS_COLOR: Record<SosCaseStatus, BadgeColor> = BADGE_COLORS.sosStatus;
const TICKET_COLOR: Record<TicketStatus, BadgeColor> = BADGE_COLORS.ticketStatus;

/** An SOS case's status (spec §4), loud while nobody has taken it. */
export function SosStatusBadge({ status }: { status: SosCaseStatus }) {
  const { t } = useTranslation('monitoring');
  return (
    <Badge
      variant={SOS_COLOR[status].variant}
      color={SOS_COLOR[status].color}
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
      variant={TICKET_COLOR[status].variant}
      color={TICKET_COLOR[status].color}
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
    <Badge color={BADGE_COLORS.kpiFailed.FAILED.color} variant={BADGE_COLORS.kpiFailed.FAILED.variant} tt="none">
      {t('kpi.failed')}
    </Badge>
  ) : null;
}
