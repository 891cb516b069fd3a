import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useViewOnlyProfile } from '../profiles/view-only';
import type { RedeemedState } from './redeem-page';

function redeemedOf(state: unknown): RedeemedState['redeemed'] | null {
  const redeemed = (state as Partial<RedeemedState> | null)?.redeemed;
  return redeemed !== undefined && typeof redeemed.name === 'string' ? redeemed : null;
}

/**
 * My package's way to the scratch-card entry, and after a code was accepted the notice saying which
 * package the profile is now on (until when). Not offered on a view-only profile.
 */
export function ScratchCardEntry() {
  const { t, i18n } = useTranslation('appProfiles');
  const redeemed = redeemedOf(useLocation().state);
  const isViewOnly = useViewOnlyProfile() !== null;
  const until =
    redeemed?.endsAt == null ? null : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(redeemed.endsAt));
  return (
    <>
      {redeemed === null ? null : (
        <p className="alert alert-success" role="status" data-testid="code-redeemed">
          {redeemed.name === ''
            ? t('redeem.doneGeneric')
            : until === null
              ? t('redeem.done', { name: redeemed.name })
              : t('redeem.doneUntil', { name: redeemed.name, date: until })}
        </p>
      )}
      {isViewOnly ? null : (
        <p className="redeem-entry">
          <Link to="/subscription/redeem" className="redeem-entry-link">
            {t('redeem.entry')}
          </Link>
          <span className="hint">{t('redeem.entryHint')}</span>
        </p>
      )}
    </>
  );
}
