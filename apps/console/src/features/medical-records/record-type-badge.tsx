import { Badge } from '@mantine/core';
import type { MedicalRecordType } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BADGE_COLORS, type BadgeColor } from '../../theme';

// Palettes already held to WCAG AA by the theme's colour test (theme.ts), one per kind of paper.
const TYPE_COLOR: Record<MedicalRecordType, BadgeColor> = {
  EXAMINATION_CARD: BADGE_COLORS.ticketStatus.CONFIRMED,
  RESULT_CARD: BADGE_COLORS.ticketStatus.COMPLETED,
  PRESCRIPTION: BADGE_COLORS.connectionStatus.UNKNOWN,
  BILL: BADGE_COLORS.ticketStatus.PROCESSING,
  OTHER: BADGE_COLORS.ticketStatus.CANCELED,
};

/** A medical record's type (spec §3): examination card, result card, prescription, bill or other. */
export function RecordTypeBadge({ type }: { type: MedicalRecordType }) {
  const { t } = useTranslation('patients');
  return (
    <Badge
      variant={TYPE_COLOR[type].variant}
      color={TYPE_COLOR[type].color}
      tt="none"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="record-type"
      data-type={type}
    >
      {t(`records.type.${type}`)}
    </Badge>
  );
}
