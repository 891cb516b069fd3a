import { useTranslation } from 'react-i18next';
import { ShieldIcon } from './icons';
import { StatusPage } from './status-page';
import { usePageTitle } from './use-page-title';

/** Shown by route guards when the user lacks the page's permission or the area is not theirs. */
export function ForbiddenPage() {
  const { t } = useTranslation(['common', 'errors']);
  usePageTitle(t('forbidden.pageTitle'));
  return (
    <StatusPage
      code="403"
      title={t('errors:auth.permissionDenied')}
      description={t('forbidden.description')}
      actionLabel={t('forbidden.action')}
      actionTo="/"
      icon={<ShieldIcon width={28} height={28} />}
    />
  );
}
