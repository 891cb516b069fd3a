import { Badge } from '@mantine/core';
import { formatMoney, UNLIMITED, type Currency, type SubscriptionStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<SubscriptionStatus, string> = {
  ACTIVE: 'teal',
  ABOUT_TO_EXPIRE: 'orange',
  EXPIRED: 'gray',
  CANCELED: 'gray',
  REPLACED: 'blue',
};

/** A subscription's status as a badge. */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  const { t } = useTranslation('packages');
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid="subscription-status">
      {t(`patient.statuses.${status}`)}
    </Badge>
  );
}

/** Whether a package is enabled, as a badge. */
export function PackageStateBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('packages');
  return (
    <Badge color={enabled ? 'teal' : 'gray'} variant="light" data-testid="package-state">
      {t(enabled ? 'enabledState.true' : 'enabledState.false')}
    </Badge>
  );
}

/** A price in the interface's language ("14.000 ₫", "$9.99"). */
export function useMoney(): (priceMinor: number, currency: Currency) => string {
  const { i18n } = useTranslation();
  return (priceMinor, currency) => formatMoney(priceMinor, currency, i18n.language);
}

/** "12 months", "Unlimited". */
export function useDuration(): (months: number) => string {
  const { t } = useTranslation('packages');
  return (months) => (months === UNLIMITED ? t('unlimited') : t('months', { count: months }));
}

/** A limit, "Unlimited" for -1. */
export function useLimit(): (value: number) => string {
  const { t } = useTranslation('packages');
  return (value) => (value === UNLIMITED ? t('unlimited') : String(value));
}
