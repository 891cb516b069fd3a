import { useTranslation } from 'react-i18next';
import { useActiveProfile, type ActiveProfile } from '../../api/profile-store';
import { Alert } from '../../ui/kit';

/**
 * The active profile when it is read only (a followed patient): screens that change data show
 * `ViewOnlyNotice` in place of their forms. The server refuses such changes anyway
 * (`profile.readOnly`).
 */
export function useViewOnlyProfile(): ActiveProfile | null {
  const active = useActiveProfile();
  return active?.readOnly === true ? active : null;
}

export function ViewOnlyNotice({ profile }: { profile: ActiveProfile }) {
  const { t } = useTranslation('appProfiles');
  return (
    <div className="view-only-notice">
      <Alert tone="info">{t('viewOnly.notice', { name: profile.name })}</Alert>
    </div>
  );
}
