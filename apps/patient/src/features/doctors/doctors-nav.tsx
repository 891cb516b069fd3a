import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/** The three doctors screens, one link each. */
export function DoctorsNav() {
  const { t } = useTranslation('appDoctors');
  return (
    <nav className="doctors-nav" aria-label={t('nav.label')}>
      <NavLink to="/doctors" end>
        {t('nav.search')}
      </NavLink>
      <NavLink to="/doctors/mine">{t('nav.mine')}</NavLink>
      <NavLink to="/doctors/requests">{t('nav.requests')}</NavLink>
    </nav>
  );
}
