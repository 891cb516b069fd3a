import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { latestReadingsSchema, profileSchema, type LatestReadings } from '@rpm/contracts';
import { api } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { SESSION_QUERY_ROOT, signOut } from '../auth/auth-api';

/** The signed-in patient's own profile (the apps' variant of the profile call). */
export const profileQuery = () => ({
  queryKey: [SESSION_QUERY_ROOT, 'profile'],
  queryFn: () => api.get('/account/user/get', profileSchema),
});

/** The signed-in patient's own status and latest value of every measure. */
export const latestQuery = () => ({
  queryKey: [SESSION_QUERY_ROOT, 'latest'],
  queryFn: () => api.get('/health/me/latest', latestReadingsSchema),
});

/** Units the catalogue words (steps, per minute); symbols (bpm, %, mmHg, °C) read the same everywhere. */
const UNIT_KEYS: Partial<Record<string, string>> = { count: 'count', '/min': 'perMinute' };

/** How long ago, in the app's words: just now, minutes, hours, days. */
export function ageOf(measuredAt: string, nowMs: number): { key: string; count: number } {
  const minutes = Math.max(0, Math.floor((nowMs - Date.parse(measuredAt)) / 60_000));
  if (minutes < 1) return { key: 'home.ago.now', count: 0 };
  if (minutes < 60) return { key: 'home.ago.minutes', count: minutes };
  if (minutes < 24 * 60) return { key: 'home.ago.hours', count: Math.floor(minutes / 60) };
  return { key: 'home.ago.days', count: Math.floor(minutes / (24 * 60)) };
}

function LatestReadingsList({ latest }: { latest: LatestReadings }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const now = Date.now();
  return (
    <>
      <p className={`status-pill status-${latest.status.toLowerCase()}`}>
        {t('home.status', { status: t(`health:status.${latest.status}`) })}
      </p>
      {latest.readings.length === 0 ? (
        <p className="hint">{t('home.empty')}</p>
      ) : (
        <ul className="readings">
          {latest.readings.map((reading) => {
            const age = ageOf(reading.measuredAt, now);
            const unitKey = UNIT_KEYS[reading.unit];
            return (
              <li key={reading.measure} data-measure={reading.measure}>
                <span className="reading-name">{t(`health:measures.${reading.measure}`)}</span>
                <span className="reading-value">
                  {number.format(reading.value)}{' '}
                  {unitKey === undefined ? reading.unit : t(`health:units.${unitKey}`)}
                </span>
                <span className="reading-age">{t(age.key, { count: age.count })}</span>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

/** The home dashboard: who is signed in, the latest readings, refresh and log out. */
export function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(profileQuery());
  const latest = useQuery(latestQuery());
  const name = profile.data ? [profile.data.firstName, profile.data.lastName].filter(Boolean).join(' ') : '';
  const refreshing = profile.isFetching || latest.isFetching;

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
          {latest.isPending ? <p role="status">{t('loading')}</p> : null}
          {latest.isError ? <Alert>{errorMessage(latest.error)}</Alert> : null}
          {latest.data ? <LatestReadingsList latest={latest.data} /> : null}
        </section>
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
