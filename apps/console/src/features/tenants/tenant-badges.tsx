import { Badge, Text, Tooltip } from '@mantine/core';
import type { TenantConnectionType, TenantRequestStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

export function TenantStatusBadge({ status }: { status: 'ACTIVE' | 'INACTIVE' }) {
  const { t } = useTranslation('tenants');
  return (
    <Badge variant="light" color={status === 'ACTIVE' ? 'teal' : 'gray'} tt="none">
      {t(`status.${status}`)}
    </Badge>
  );
}

export function ConnectionTypeBadge({ type }: { type: TenantConnectionType }) {
  const { t } = useTranslation('tenants');
  return (
    <Badge variant="outline" color={type === 'DEDICATED' ? 'violet' : 'gray'} tt="none">
      {t(`connectionType.${type}`)}
    </Badge>
  );
}

const REQUEST_COLORS: Record<TenantRequestStatus, string> = {
  NEW: 'blue',
  APPROVED: 'teal',
  REJECTED: 'red',
};

export function RequestStatusBadge({ status }: { status: TenantRequestStatus }) {
  const { t } = useTranslation('tenants');
  return (
    <Badge variant="light" color={REQUEST_COLORS[status]} tt="none">
      {t(`requestStatus.${status}`)}
    </Badge>
  );
}

/** A count from the tenant's own database; a dash (explained on hover) when it could not be reached. */
export function CountValue({ value }: { value: number | undefined }) {
  const { t } = useTranslation('tenants');
  if (value !== undefined) return <>{value}</>;
  return (
    <Tooltip label={t('list.countsUnavailable')}>
      <Text span c="dimmed" aria-label={t('list.countsUnavailable')} tabIndex={0}>
        —
      </Text>
    </Tooltip>
  );
}
