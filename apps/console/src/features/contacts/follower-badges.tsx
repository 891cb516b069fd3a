import { Badge, Group, Text } from '@mantine/core';
import type { FollowerDataKind, InvitationStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BADGE_COLORS, type BadgeColor } from '../../theme';

// Palettes the theme test already holds to WCAG AA contrast (theme.ts BADGE_COLORS).
const INVITATION_COLOR: Record<InvitationStatus, BadgeColor> = {
  SENT: BADGE_COLORS.ticketStatus.CONFIRMED,
  RESENT: BADGE_COLORS.ticketStatus.PROCESSING,
  CONFIRMED: BADGE_COLORS.ticketStatus.COMPLETED,
  DELETED: BADGE_COLORS.ticketStatus.CANCELED,
};

const HIDDEN_COLOR: BadgeColor = BADGE_COLORS.ticketStatus.CANCELED;

/** Spec §4 relative invitation: sent, resent, confirmed, deleted. */
export function InvitationBadge({ status }: { status: InvitationStatus }) {
  const { t } = useTranslation('patientContacts');
  return (
    <Badge
      variant={INVITATION_COLOR[status].variant}
      color={INVITATION_COLOR[status].color}
      tt="none"
      // In a narrow cell the badge keeps its word whole rather than cut it to "Res…".
      styles={{ label: { overflow: 'visible' } }}
      data-testid="invitation-status"
      data-status={status}
    >
      {t(`contacts.state.${status}`)}
    </Badge>
  );
}

/** The favourite flag (called first): a star with its name for screen readers and on hover. */
export function FavouriteStar({ isFavourite }: { isFavourite: boolean }) {
  const { t } = useTranslation('patientContacts');
  if (!isFavourite) return null;
  return (
    <Text
      component="span"
      c="yellow.8"
      fz="md"
      lh={1}
      role="img"
      aria-label={t('contacts.favourite')}
      title={t('contacts.favourite')}
      data-testid="favourite-star"
    >
      ★
    </Text>
  );
}

/** The data kinds the patient hides from a follower (spec §6), read only for staff. */
export function HiddenKindChips({ kinds }: { kinds: readonly FollowerDataKind[] }) {
  const { t } = useTranslation('patientContacts');
  if (kinds.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        {t('contacts.nothingHidden')}
      </Text>
    );
  return (
    <Group gap={4} data-testid="hidden-kinds">
      {kinds.map((kind) => (
        <Badge key={kind} variant={HIDDEN_COLOR.variant} color={HIDDEN_COLOR.color} tt="none" size="sm" radius="sm">
          {t(`contacts.kind.${kind}`)}
        </Badge>
      ))}
    </Group>
  );
}
