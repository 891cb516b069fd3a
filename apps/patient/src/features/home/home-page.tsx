import { measureSlug, profileSchema, type Dashboard } from '@rpm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { SESSION_QUERY_ROOT, signOut } from '../auth/auth-api';
import { invitationsQuery } from '../contacts/contacts-api';
import { unitLabel } from '../health/format';
import { dashboardQuery } from '../health/health-api';
import './home.css';

/** The signed-in patient's own profile (the apps' variant of the profile call). */
export const profileQuery = () => ({
  queryKey: [SESSION_QUERY_ROOT, 'profile'],
  queryFn: () => api.get('/account/user/get', profileSchema),
});

/** How long ago, in the app's words: just now, minutes, hours, days. */
export function ageOf(measuredAt: string, nowMs: number): { key: string; count: number } {
  const minutes = Math.max(0, Math.floor((nowMs - Date.parse(measuredAt)) / 60_000));
  if (minutes < 1) return { key: 'home.ago.now', count: 0 };
  if (minutes < 60) return { key: 'home.ago.minutes', count: minutes };
  if (minutes < 24 * 60) return { key: 'home.ago.hours', count: Math.floor(minutes / 60) };
  return { key: 'home.ago.days', count: Math.floor(minutes / (24 * 60)) };
}

/** Quick links to the pages a patient opens most after the dashboard. */
const QUICK_LINKS = [
  { to: '/health/sleep', key: 'appHealth:home.sleep' },
  { to: '/health/osahs', key: 'appHealth:home.osahs' },
  { to: '/sport', key: 'appHealth:home.sport' },
  { to: '/weight', key: 'appHealth:home.weight' },
  { to: '/medicines', key: 'appCarePlan:entry' },
  { to: '/doctors', key: 'appDoctors:entry' },
  { to: '/appointments', key: 'appAppointments:entry' },
  { to: '/records', key: 'appCarePlan:records.entry' },
] as const;

function LatestReadingsList({ dashboard }: { dashboard: Dashboard }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const now = Date.now();
  return (
    <>
      <p className={`status-pill status-${dashboard.status.toLowerCase()}`}>
        {t('home.status', { status: t(`health:status.${dashboard.status}`) })}
      </p>
      {dashboard.readings.length === 0 ? (
        <p className="hint">{t('home.empty')}</p>
      ) : (
        <ul className="readings">
          {dashboard.readings.map((reading) => {
            const age = ageOf(reading.measuredAt, now);
            const level = reading.level ?? 'none';
            return (
              <li key={reading.measure} data-measure={reading.measure} data-level={level}>
                <Link
                  className={`reading-link level-${level.toLowerCase()}`}
                  to={`/health/${measureSlug(reading.measure)}`}
                >
                  <span className="reading-name">{t(`health:measures.${reading.measure}`)}</span>
                  <span className="reading-value">
                    {number.format(reading.value)} {unitLabel(t, reading.unit)}
                  </span>
                  <span className="reading-age">
                    {t(age.key, { count: age.count })}
                    {reading.level === null ? null : (
                      <span className="level-label"> · {t(`health:status.${reading.level}`)}</span>
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

/** The home dashboard: who is signed in, the latest readings with their levels, quick links, log out. */
export function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(profileQuery());
  const dashboard = useQuery(dashboardQuery());
  const invitations = useQuery(invitationsQuery()).data?.length ?? 0;
  const name = profile.data ? [profile.data.firstName, profile.data.lastName].filter(Boolean).join(' ') : '';
  const refreshing = profile.isFetching || dashboard.isFetching;

  return (
    <div className="home">
      {profile.isPending ? <p role="status">{t('loading')}</p> : null}
      {profile.isError ? <Alert>{errorMessage(profile.error)}</Alert> : null}
      {profile.data ? <h1>{t('home.greeting', { name })}</h1> : null}
      <section className="card" aria-labelledby="latest-heading">
        <div className="card-title">
          <h2 id="latest-heading">{t('home.latest')}</h2>
          <button
            type="button"
            disabled={refreshing}
            onClick={() => {
              void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT] });
            }}
          >
            {refreshing ? t('home.refreshing') : t('home.refresh')}
          </button>
        </div>
        {dashboard.isPending ? <p role="status">{t('loading')}</p> : null}
        {dashboard.isError ? <Alert>{errorMessage(dashboard.error)}</Alert> : null}
        {dashboard.data ? <LatestReadingsList dashboard={dashboard.data} /> : null}
      </section>
      <nav className="card quick-links" aria-label={t('appHealth:home.quickLinks')}>
        {QUICK_LINKS.map((link) => (
          <Link key={link.to} to={link.to}>
            {t(link.key)}
          </Link>
        ))}
        <Link to="/health">{t('appHealth:home.allMeasures')}</Link>
      </nav>
      <Link className="card contacts-tile" to={invitations > 0 ? '/contacts?section=invitations' : '/contacts'}>
        <span className="contacts-tile-name">{t('appContacts:home.link')}</span>
        {invitations > 0 ? <span className="contacts-tile-badge">{t('appContacts:home.invitations', { count: invitations })}</span> : null}
      </Link>
      <p className="home-account">
        <Link to="/notifications/settings">{t('appAlerts:centre.settingsLink')}</Link>
        {' · '}
        <Link to="/feedback">{t('appProfiles:feedback.entry')}</Link>
        {' · '}
        <Link to="/tickets">{t('appProfiles:tickets.entry')}</Link>
        {' · '}
        <Link to="/subscription">{t('appProfiles:subscription.entry')}</Link>
      </p>
      <button
        type="button"
        className="link-button"
        onClick={() => {
          void signOut().finally(() => {
            queryClient.clear();
            void navigate('/login', { replace: true });
          });
        }}
      >
        {t('home.logout')}
      </button>
    </div>
  );
}
