import { Badge } from '@mantine/core';
import type { IntakeState, MedicineMode, PrescriptionState } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BADGE_COLORS, type BadgeColor } from '../../theme';

// Palettes already held to WCAG AA by the theme's colour test (theme.ts), reused by meaning.
const PRESCRIPTION_COLOR: Record<PrescriptionState, BadgeColor> = {
  IN_USE: BADGE_COLORS.ticketStatus.COMPLETED,
  EXPIRED: BADGE_COLORS.ticketStatus.PROCESSING,
  DEACTIVATED: BADGE_COLORS.ticketStatus.CANCELED,
};

const INTAKE_COLOR: Record<IntakeState, BadgeColor> = {
  TO_TAKE: BADGE_COLORS.ticketStatus.CONFIRMED,
  TAKEN: BADGE_COLORS.ticketStatus.COMPLETED,
  TAKEN_EARLY: BADGE_COLORS.ticketStatus.SUCCESS,
  TAKEN_LATE: BADGE_COLORS.patientStatus.AT_RISK,
  SKIPPED: BADGE_COLORS.ticketStatus.PROCESSING,
  UNCONFIRMED: BADGE_COLORS.ticketStatus.NEW,
};

/** A prescription's state (spec §4): in use, expired (its end date passed) or deactivated for good. */
export function PrescriptionStateBadge({ state }: { state: PrescriptionState }) {
  const { t } = useTranslation('carePlan');
  return (
    <Badge
      variant={PRESCRIPTION_COLOR[state].variant}
      color={PRESCRIPTION_COLOR[state].color}
      tt="none"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="prescription-state"
      data-state={state}
    >
      {t(`state.${state}`)}
    </Badge>
  );
}

/** A dose's state (spec §4 medication intake). */
export function IntakeStateBadge({ state }: { state: IntakeState }) {
  const { t } = useTranslation('carePlan');
  return (
    <Badge
      variant={INTAKE_COLOR[state].variant}
      color={INTAKE_COLOR[state].color}
      tt="none"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="intake-state"
      data-state={state}
    >
      {t(`intakeState.${state}`)}
    </Badge>
  );
}

/** On schedule (reminders) or on demand (taken when needed). */
export function MedicineModeBadge({ mode }: { mode: MedicineMode }) {
  const { t } = useTranslation('carePlan');
  const color =
    mode === 'ON_SCHEDULE' ? BADGE_COLORS.ticketStatus.CONFIRMED : BADGE_COLORS.ticketStatus.CANCELED;
  return (
    <Badge variant={color.variant} color={color.color} tt="none" data-testid="medicine-mode" data-mode={mode}>
      {t(`mode.${mode}`)}
    </Badge>
  );
}
