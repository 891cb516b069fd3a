import { OSAHS_SEVERITIES, type OsahsResult } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { durationText, nightLabel } from './format';
import { osahsQuery, sleepListQuery } from './health-api';

const BANDS: Record<(typeof OSAHS_SEVERITIES)[number], string> = {
  NORMAL: '< 5',
  MILD: '5–15',
  MODERATE: '15–30',
  SEVERE: '≥ 30',
};

function Screening({ result }: { result: OsahsResult }) {
  const { t, i18n } = useTranslation('appHealth');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <>
      <h2>{nightLabel(result.startAt, result.endAt, i18n.language)}</h2>
      {result.odi === null || result.severity === null ? (
        <p className="hint">{t('osahs.noData')}</p>
      ) : (
        <div className={`odi severity-${result.severity.toLowerCase()}`} data-severity={result.severity}>
          <span className="odi-value">{number.format(result.odi)}</span>
          <span className="odi-unit">{t('osahs.perHour')}</span>
          <span className="odi-band">{t(`osahs.severity.${result.severity}`)}</span>
        </div>
      )}
      <dl className="facts">
        <div data-fact="dips">
          <dt>{t('osahs.dips')}</dt>
          <dd>{result.dips}</dd>
        </div>
        <div data-fact="sleep">
          <dt>{t('osahs.sleep')}</dt>
          <dd>{durationText(t, result.sleepHours * 60)}</dd>
        </div>
        <div data-fact="lowest">
          <dt>{t('osahs.lowest')}</dt>
          <dd>{result.lowestSpo2 === null ? t('none') : `${number.format(result.lowestSpo2)}\u00a0%`}</dd>
        </div>
        <div data-fact="average">
          <dt>{t('osahs.average')}</dt>
          <dd>{result.averageSpo2 === null ? t('none') : `${number.format(result.averageSpo2)}\u00a0%`}</dd>
        </div>
        <div data-fact="samples">
          <dt>{t('osahs.samples')}</dt>
          <dd>{result.samples}</dd>
        </div>
      </dl>
      <h3>{t('osahs.bandsTitle')}</h3>
      <ul className="bands">
        {OSAHS_SEVERITIES.map((severity) => (
          <li
            key={severity}
            className={`severity-${severity.toLowerCase()}`}
            aria-current={severity === result.severity ? 'true' : undefined}
          >
            <span>{t(`osahs.severity.${severity}`)}</span>
            <span>{t('osahs.band', { range: BANDS[severity] })}</span>
          </li>
        ))}
      </ul>
      <p className="hint">{t('osahs.method')}</p>
    </>
  );
}

/** /health/sleep/:recordId/osahs — the OSAHS screening of one night. */
export function OsahsPage() {
  const { t } = useTranslation('appHealth');
  const { recordId = '' } = useParams();
  const result = useQuery(osahsQuery(recordId));
  return (
    <div className="health-page">
      <p className="back">
        <Link to={`/health/sleep/${recordId}`}>{t('back.night')}</Link>
      </p>
      <h1>{t('osahs.title')}</h1>
      <Alert tone="info">{t('osahs.caveat')}</Alert>
      <section className="card">
        {result.isPending ? <p role="status">{t('loading')}</p> : null}
        {result.isError ? <Alert>{errorMessage(result.error)}</Alert> : null}
        {result.data ? <Screening result={result.data} /> : null}
      </section>
    </div>
  );
}

/** /health/osahs — the latest night's screening (or why there is none yet). */
export function LatestOsahsPage() {
  const { t } = useTranslation('appHealth');
  const nights = useQuery(sleepListQuery(1));
  const latest = nights.data?.items[0];
  if (latest !== undefined) return <Navigate to={`/health/sleep/${latest.id}/osahs`} replace />;
  return (
    <div className="health-page">
      <p className="back">
        <Link to="/health">{t('back.hub')}</Link>
      </p>
      <h1>{t('osahs.title')}</h1>
      <Alert tone="info">{t('osahs.caveat')}</Alert>
      <section className="card">
        {nights.isPending ? <p role="status">{t('loading')}</p> : null}
        {nights.isError ? <Alert>{errorMessage(nights.error)}</Alert> : null}
        {nights.data?.items.length === 0 ? <p className="hint">{t('osahs.noNights')}</p> : null}
      </section>
    </div>
  );
}
