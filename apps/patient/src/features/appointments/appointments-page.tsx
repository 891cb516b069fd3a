import type { MyAppointment } from '@rpm/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PagedList } from '../../ui/paged-list';
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
        <PagedList
          list={list}
          empty={t(`list.empty.${when}`)}
          listClassName="appointment-list"
          itemKey={(appointment) => appointment.id}
          renderItem={(appointment) => <AppointmentItem appointment={appointment} />}
        />
      </section>
    </div>
  );
}
