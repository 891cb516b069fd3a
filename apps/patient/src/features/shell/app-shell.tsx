import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { notificationsQuery } from '../alerts/alerts-api';
import { AlertsLayer } from '../alerts/alerts-layer';
import { SosButton } from '../alerts/sos-button';
import { LanguageSelect } from '../auth/language-select';
import { unreadCountQuery } from '../notifications/notifications-api';
import { profileQuery } from '../home/home-page';
import { ProfileBanner, ProfileSwitcher } from '../profiles/profile-switcher';
import { useViewOnlyProfile } from '../profiles/view-only';
import './app-shell.css';

/** The bottom navigation: the five places a patient goes most (spec §2 patient app). */
const NAV: { to: string; key: string; end?: boolean }[] = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/health', key: 'nav.health' },
  { to: '/entry', key: 'nav.entry' },
  { to: '/devices', key: 'nav.devices' },
  { to: '/notifications', key: 'nav.notifications' },
];

/**
 * Runs the watches' sync loop for the signed-in account from the first signed-in screen (fetched
 * apart from the first screen), and stops it when the shell closes (sign-out, session ended).
 */
function useWatchSync() {
  const accountId = useQuery(profileQuery()).data?.id;
  useEffect(() => {
    if (accountId === undefined) return;
    void import('../devices/devices-runtime').then((runtime) => runtime.startDevices(accountId));
    return () => {
      void import('../devices/devices-runtime').then((runtime) => { runtime.stopDevices(); });
    };
  }, [accountId]);
}

/**
 * Every signed-in screen: the header with the profile switcher, the SOS button and language, the
 * active profile's banner, the screen, and the bottom navigation (no entry for a view-only
 * profile). The alerts layer (high-risk confirmation, live notifications) sits over all of them.
 */
export function AppShell() {
  const { t } = useTranslation();
  useWatchSync();
  const isViewOnly = useViewOnlyProfile() !== null;
  const nav = isViewOnly ? NAV.filter((item) => item.to !== '/entry') : NAV;
  // One count on the Notifications tab: the alerts' and the updates' unread. Kept fresh by the
  // alerts layer, which refetches both on their live events (and the updates' every minute).
  const alertsUnread = useQuery(notificationsQuery(1)).data?.unread ?? 0;
  const updatesUnread = useQuery(unreadCountQuery()).data?.unread ?? 0;
  const unread = alertsUnread + updatesUnread;
  return (
    <div className="shell">
      <header className="app-header">
        <div className="header-identity">
          <span className="brand">{t('appName')}</span>
          <ProfileSwitcher />
        </div>
        <div className="header-actions">
          <SosButton />
          <LanguageSelect />
        </div>
      </header>
      <main className="screen">
        <ProfileBanner />
        <Outlet />
      </main>
      <nav className="bottom-nav" aria-label={t('nav.label')}>
        {nav.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.end ?? false}
            aria-label={item.to === '/notifications' && unread > 0 ? t('nav.notificationsUnread', { count: unread }) : undefined}
          >
            {t(item.key)}
            {item.to === '/notifications' && unread > 0 ? (
              <>
                {/* The space keeps the visible words ("Alerts 1") inside the spoken name ("Alerts, 1 unread"). */}{' '}
                <span className="nav-badge" aria-hidden="true">
                  {unread > 99 ? '99+' : unread}
                </span>
              </>
            ) : null}
          </NavLink>
        ))}
      </nav>
      <AlertsLayer />
    </div>
  );
}
