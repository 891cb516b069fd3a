import { Badge } from '@mantine/core';
import type { PatientStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

/** Colours by severity: the worse the status, the louder the colour. */
export const STATUS_COLOR: Record<PatientStatus, string> = {
  NORMAL: 'teal',
  AT_RISK: 'yellow',
  HIGH_RISK: 'orange',
  SOS: 'red',
};

/** A patient's status (spec §4), coloured by severity. */
export function PatientStatusBadge({ status }: { status: PatientStatus }) {
  const { t } = useTranslation('patients');
  return (
    <Badge
      variant={status === 'SOS' ? 'filled' : 'light'}
      color={STATUS_COLOR[status]}
      tt="none"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="patient-status"
      data-status={status}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
