import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { profileSchema } from '@rpm/contracts';
import { api } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { SESSION_QUERY_ROOT, signOut } from '../auth/auth-api';
import { LanguageSelect } from '../auth/language-select';

/** The signed-in patient's own profile (the apps' variant of the profile call). */
export const profileQuery = () => ({
  queryKey: [SESSION_QUERY_ROOT, 'profile'],
  queryFn: () => api.get('/account/user/get', profileSchema),
});

/** The home dashboard: who is signed in, the latest readings, refresh and log out. */
export function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(profileQuery());
  const name = profile.data ? [profile.data.firstName, profile.data.lastName].filter(Boolean).join(' ') : '';
  const refreshing = profile.isFetching;

  return (
    <div className="shell">
      <header className="app-header">
        <span className="brand">{t('appName')}</span>
        <LanguageSelect />
      </header>
      <main className="home">
        {profile.isPending ? <p role="status">{t('loading')}</p> : null}
        {profile.isError ? <Alert>{errorMessage(profile.error)}</Alert> : null}
        {profile.data ? <h1>{t('home.greeting', { name })}</h1> : null}
        <section className="card" aria-labelledby="latest-heading">
          <div className="card-title">
            <h2 id="latest-heading">{t('home.latest')}</h2>
            <button type="button" disabled={refreshing} onClick={() => { void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT] }); }}>
              {refreshing ? t('home.refreshing') : t('home.refresh')}
            </button>
          </div>
          <p className="hint">{t('home.notLinked')}</p>
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
      </main>
    </div>
  );
}
