import { Badge } from '@mantine/core';
import type { StaffSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';

const STATUS_COLOR: Record<StaffSummary['status'], string> = {
  ACTIVE: 'teal',
  DISABLED: 'orange',
  UNACTIVATED: 'gray',
  LOCKED: 'red',
  DELETED: 'dark',
};

/** The account state (spec §4); a temporary disable says until when. */
export function StaffStatusBadge({ staff }: { staff: Pick<StaffSummary, 'status' | 'disabledUntil'> }) {
  const { t } = useTranslation('org');
  const label =
    staff.status === 'DISABLED'
      ? staff.disabledUntil
        ? t('staff.disabledUntil', { date: formatDateTime(staff.disabledUntil) })
        : t('staff.disabledIndefinitely')
      : t(`accountStatus.${staff.status}`);
  return (
    <Badge
      variant="light"
      color={STATUS_COLOR[staff.status]}
      tt="none"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="staff-status"
    >
      {label}
    </Badge>
  );
}

/** The role as people read it: a custom role by its name, a default one by its label. */
export function useRoleLabel() {
  const { t } = useTranslation();
  return (staff: { role: StaffSummary['role']; customRole: { name: string } | null }) =>
    staff.customRole?.name ?? t(`roles.${staff.role}`);
}
