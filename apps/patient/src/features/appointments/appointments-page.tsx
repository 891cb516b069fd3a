import type { MyAppointment } from '@rpm/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { appointmentsQuery, type AppointmentsWhen } from './appointments-api';
import { StateBadge, WhenText } from './parts';

const TABS: readonly AppointmentsWhen[] = ['upcoming', 'past'];

function AppointmentItem({ appointment }: { appointment: MyAppointment }) {
  const { t } = useTranslation('appAppointments');
  return (
    <li>
      <Link className="appointment-link" to={`/appointments/${appointment.id}`} data-testid="appointment-item">
        <span className="appointment-head">
          <span className="appointment-when">
            <WhenText appointment={appointment} />
          </span>
          <StateBadge state={appointment.appState} />
        </span>
        <span className="appointment-doctor">{t('list.with', { name: appointment.doctor.fullName })}</span>
        <span className="appointment-meta">{t(`place.${appointment.place}`)}</span>
      </Link>
    </li>
  );
}

/**
 * /appointments — the profile's appointments under two tabs: upcoming (soonest first) and past
 * (latest first), a page at a time. The tab is kept in the address (?when=past), so coming back
 * from an appointment shows the same tab.
 */
export function AppointmentsPage() {
  const { t } = useTranslation('appAppointments');
  const [params, setParams] = useSearchParams();
  const when: AppointmentsWhen = params.get('when') === 'past' ? 'past' : 'upcoming';
  const list = useInfiniteQuery(appointmentsQuery(when));
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  return (
    <div className="appointments-page">
      <h1>{t('list.title')}</h1>
      <p className="appointments-book">
        <Link to="/doctors">{t('list.book')}</Link>
      </p>
      <div className="segmented" role="group" aria-label={t('list.tabs')}>
        {TABS.map((tab) => (
          <button
            key={tab}
            type="button"
            aria-pressed={when === tab}
            onClick={() => {
              setParams(tab === 'past' ? { when: 'past' } : {}, { replace: true });
            }}
          >
            {t(`list.${tab}`)}
          </button>
        ))}
      </div>
      <section className="card" aria-label={t(`list.${when}`)} aria-busy={list.isFetching}>
        {list.isPending ? <p role="status">{t('loading')}</p> : null}
        {list.isError ? (
          <div className="appointments-error">
            <Alert>{errorMessage(list.error)}</Alert>
            <button
              type="button"
              onClick={() => {
                void list.refetch();
              }}
            >
              {t('retry')}
            </button>
          </div>
        ) : null}
        {list.isSuccess && items.length === 0 ? (
          <p className="appointments-empty" role="status">
            {t(`list.empty.${when}`)}
          </p>
        ) : null}
        {items.length > 0 && total > items.length ? (
          <p className="hint" role="status">
            {t('list.count', { shown: items.length, total })}
          </p>
        ) : null}
        {items.length > 0 ? (
          <ul className="appointment-list">
            {items.map((appointment) => (
              <AppointmentItem key={appointment.id} appointment={appointment} />
            ))}
          </ul>
        ) : null}
        {list.hasNextPage ? (
          <button
            type="button"
            className="load-more"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? t('loading') : t('list.more')}
          </button>
        ) : null}
      </section>
    </div>
  );
}
