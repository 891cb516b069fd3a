import { SPORT_TYPES, type SportSession } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { clockText, dateTimeText, numberText, paceText } from './format';
import { sportHistoryQuery, sportSessionQuery } from './sport-api';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import './sport.css';

/** /sport — pick one of the ten sports to track, and the sessions so far. */
export function SportHubPage() {
  const { t } = useTranslation('appSport');
  const history = useQuery(sportHistoryQuery());
  const viewOnly = useViewOnlyProfile();
  return (
    <div className="sport-page">
      <h1>{t('hub.title')}</h1>
      {viewOnly !== null ? (
        <ViewOnlyNotice profile={viewOnly} />
      ) : (
        <section className="card" aria-labelledby="sport-start-heading">
          <h2 id="sport-start-heading">{t('hub.start')}</h2>
          <ul className="sport-grid">
            {SPORT_TYPES.map((sport) => (
              <li key={sport}>
                <Link to={`/sport/track/${sport}`} className="sport-tile">
                  {t(`sports.${sport}`)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p>
        <Link to="/weight" className="sport-link">
          {t('hub.weight')}
        </Link>
      </p>
      <section className="card" aria-labelledby="sport-history-heading">
        <h2 id="sport-history-heading">{t('history.title')}</h2>
        {history.isPending ? <p role="status">{t('loading')}</p> : null}
        {history.isError ? <Alert>{errorMessage(history.error)}</Alert> : null}
        {history.data?.items.length === 0 ? <p className="hint">{t('history.empty')}</p> : null}
        <ul className="sport-history">
          {history.data?.items.map((session) => (
            <li key={session.id}>
              <Link to={`/sport/${session.id}`}>
                <span className="sport-history-name">{t(`sports.${session.sport}`)}</span>
                <span className="sport-history-time">{dateTimeText(session.startAt)}</span>
                <span className="sport-history-length">{clockText(session.practiceSeconds * 1000)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** The figures of a saved session, each only when it was measured. */
export function SessionFigures({ session }: { session: Pick<SportSession, 'practiceSeconds' | 'steps' | 'distanceM' | 'calories' | 'speedKmh' | 'tempo' | 'strideCm'> }) {
  const { t, i18n } = useTranslation('appSport');
  const language = i18n.language;
  const pace = session.distanceM !== null && session.distanceM >= 10 ? session.practiceSeconds / (session.distanceM / 1000) : null;
  const rows: [string, string][] = [[t('figures.time'), clockText(session.practiceSeconds * 1000)]];
  if (session.steps !== null) rows.push([t('figures.steps'), numberText(session.steps, language)]);
  if (session.distanceM !== null) rows.push([t('figures.distance'), t('units.km', { value: numberText(session.distanceM / 1000, language, 2) })]);
  if (pace !== null) rows.push([t('figures.pace'), t('units.pace', { value: paceText(pace) })]);
  if (session.speedKmh !== null) rows.push([t('figures.speed'), t('units.kmh', { value: numberText(session.speedKmh, language, 1) })]);
  if (session.tempo !== null) rows.push([t('figures.tempo'), t('units.stepsPerMinute', { value: numberText(session.tempo, language) })]);
  if (session.strideCm !== null) rows.push([t('figures.stride'), t('units.cm', { value: numberText(session.strideCm, language) })]);
  if (session.calories !== null) rows.push([t('figures.calories'), t('units.kcal', { value: numberText(session.calories, language) })]);
  return (
    <dl className="sport-figures">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** /sport/:id — one saved session. */
export function SportDetailPage() {
  const { t } = useTranslation('appSport');
  const { id = '' } = useParams();
  const session = useQuery(sportSessionQuery(id));
  return (
    <div className="sport-page">
      <p className="back">
        <Link to="/sport">{t('back')}</Link>
      </p>
      {session.isPending ? <p role="status">{t('loading')}</p> : null}
      {session.isError ? <Alert>{errorMessage(session.error)}</Alert> : null}
      {session.data ? (
        <>
          <h1>{t(`sports.${session.data.sport}`)}</h1>
          <p className="hint">{dateTimeText(session.data.startAt)}</p>
          <section className="card">
            <SessionFigures session={session.data} />
            {session.data.distanceSource !== null ? <p className="hint">{t(`distanceFrom.${session.data.distanceSource}`)}</p> : null}
          </section>
        </>
      ) : null}
    </div>
  );
}
