import type { PackageFeature } from '@rpm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { mySubscriptionQuery, SUBSCRIPTION_KEY } from './subscription-api';

/** The features the app offers behind a package today (docs/decisions.md). */
export type GatedFeature = Extract<PackageFeature, 'VIDEO_CONSULTATION' | 'PHOTO_ENTRY'>;

/** The server's refusal of a paid feature the profile's package does not give (spec §6). */
export const UPGRADE_REQUIRED = 'package.upgradeRequired';

export function isUpgradeRequired(error: unknown): boolean {
  return error instanceof ApiError && error.code === UPGRADE_REQUIRED;
}

/**
 * Whether the active profile's package gives `feature` (GET /health/me/subscription): 'upgrade'
 * only when the health center sells packages and this one lacks it; while loading, or when the
 * package cannot be read, the action stays offered and the server decides.
 */
export function useFeature(feature: PackageFeature): 'allowed' | 'upgrade' | 'unknown' {
  const mine = useQuery(mySubscriptionQuery());
  const entitlements = mine.data?.entitlements;
  if (entitlements === undefined) return mine.isPending ? 'unknown' : 'allowed';
  return !entitlements.packagesEnabled || entitlements.features.includes(feature) ? 'allowed' : 'upgrade';
}

/** After a refusal the package read earlier was stale: read it again so the screens follow. */
export function useRefreshPackage(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
}

/**
 * "Upgrade required": what the feature needs, what the patient can do instead, and a link to My
 * package (where the package and the offer are shown).
 */
export function UpgradeNotice({ feature, id }: { feature: GatedFeature; id?: string | undefined }) {
  const { t } = useTranslation('appProfiles');
  return (
    <div id={id} className="upgrade-notice" role="status" data-testid="upgrade-notice" data-feature={feature}>
      <p className="upgrade-notice-title">{t('upgrade.title')}</p>
      <p>
        {t(`upgrade.${feature}`)} {t('upgrade.ask')}
      </p>
      <Link to="/subscription">{t('upgrade.link')}</Link>
    </div>
  );
}
