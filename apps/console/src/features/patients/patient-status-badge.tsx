import { Badge } from '@mantine/core';
import type { PatientStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BADGE_COLORS } from '../../theme';

/** Palettes by severity: the worse the status, the louder the colour (theme.ts holds them). */
export const STATUS_COLOR: Record<PatientStatus, string> = {
  NORMAL: BADGE_COLORS.patientStatus.NORMAL.color,
  AT_RISK: BADGE_COLORS.patientStatus.AT_RISK.color,
  HIGH_RISK: BADGE_COLORS.patientStatus.HIGH_RISK.color,
  SOS: BADGE_COLORS.patientStatus.SOS.color,
};

/** A patient's status (spec §4), coloured by severity. */
export function PatientStatusBadge({ status }: { status: PatientStatus }) {
  const { t } = useTranslation('patients');
  return (
    <Badge
      variant={BADGE_COLORS.patientStatus[status].variant}
      color={BADGE_COLORS.patientStatus[status].color}
      tt="none"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="patient-status"
      data-status={status}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
