import {
  HEALTH_VIEWS,
  measureOfSlug,
  periodStart,
  periodStats,
  shiftPeriod,
  type HealthView,
} from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { seriesQuery, type LocalSeries } from './health-api';
import { periodLabel, pointLabel, todayIn, unitLabel } from './format';
import { SeriesChart } from './series-chart';

const isView = (value: string | null): value is HealthView =>
  (HEALTH_VIEWS as readonly string[]).includes(value ?? '');
const isDate = (value: string | null): value is string => /^\d{4}-\d{2}-\d{2}$/.test(value ?? '');

/** The report of one period: min, max and average, the chart and every bucket's values. */
function Report({ series }: { series: LocalSeries }) {
  const { t, i18n } = useTranslation('appHealth');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const unit = unitLabel(t, series.unit);
  const stats = periodStats(series.points);
  if (stats === null) return <p className="hint">{t('measure.empty')}</p>;
  const label = (at: string) => pointLabel(at, series.resolution, series.timeZone, i18n.language);
  const first = series.points[0];
  const last = series.points.at(-1);
  return (
    <>
      <dl className="stats" aria-label={t('measure.statsLabel')}>
        {(['min', 'average', 'max'] as const).map((key) => (
          <div key={key} data-stat={key}>
            <dt>{t(`measure.${key}`)}</dt>
            <dd>
              {number.format(stats[key])} <span className="unit">{unit}</span>
            </dd>
          </div>
        ))}
      </dl>
      <SeriesChart
        points={series.points}
        from={series.from}
        to={series.to}
        resolution={series.resolution}
        label={t('measure.chartLabel', {
          count: stats.count,
          min: number.format(stats.min),
          max: number.format(stats.max),
          unit,
        })}
        format={(value) => number.format(value)}
        startLabel={first === undefined ? '' : label(first.at)}
        endLabel={last === undefined ? '' : label(last.at)}
      />
      <details className="values">
        <summary>{t('measure.values', { count: series.points.length })}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('measure.time')}</th>
              <th scope="col">{t(series.resolution === 'raw' ? 'measure.value' : 'measure.average')}</th>
              {series.resolution === 'raw' ? null : <th scope="col">{t('measure.range')}</th>}
            </tr>
          </thead>
          <tbody>
            {series.points.map((point) => (
              <tr key={point.at}>
                <td>{label(point.at)}</td>
                <td>{number.format(point.value)}</td>
                {series.resolution === 'raw' ? null : (
                  <td>
                    {number.format(point.min)}–{number.format(point.max)}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

/** /health/:measure — day, week, month and year reports of one measure, with previous and next periods. */
export function MeasurePage() {
  const { t, i18n } = useTranslation('appHealth');
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const measure = measureOfSlug(params.measure ?? '');
  const viewParam = search.get('view');
  const dateParam = search.get('date');
  const view: HealthView = isView(viewParam) ? viewParam : 'week';
  // Days and weeks are the patient's (their zone, from the server's answer), not the phone's: at 02:00
  // in Hanoi a phone still on UTC is a day behind, and "this week" would miss what was just entered.
  const [timeZone, setTimeZone] = useState<string | undefined>(undefined);
  const today = todayIn(timeZone);
  const date = isDate(dateParam) ? dateParam : today;
  const series = useQuery({ ...seriesQuery(measure ?? 'HEART_RATE', view, date), enabled: measure !== null });
  const answeredZone = series.data?.timeZone;
  if (answeredZone !== undefined && answeredZone !== timeZone) setTimeZone(answeredZone);
  // Until then "today" may be the phone's: moving from it could skip the patient's current period.
  const todayUnsure = !isDate(dateParam) && timeZone === undefined && !series.isError;
  if (measure === null) return <Navigate to="/health" replace />;
  const go = (next: { view?: HealthView; date?: string }) => {
    setSearch({ view: next.view ?? view, date: next.date ?? date }, { replace: true });
  };
  const next = shiftPeriod(date, view, 1);
  // The next period starts after today: nothing to show there yet.
  const hasNext = periodStart(next, view) <= today;
  return (
    <div className="health-page">
      <p className="back">
        <Link to="/health">{t('back.hub')}</Link>
      </p>
      <h1>{t(`health:measures.${measure}`)}</h1>
      <div className="views" role="group" aria-label={t('measure.viewLabel')}>
        {HEALTH_VIEWS.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={option === view}
            onClick={() => {
              go({ view: option });
            }}
          >
            {t(`health:views.${option}`)}
          </button>
        ))}
      </div>
      <div className="period">
        <button
          type="button"
          aria-label={t('measure.previous')}
          disabled={todayUnsure}
          onClick={() => {
            go({ date: shiftPeriod(date, view, -1) });
          }}
        >
          ‹
        </button>
        <h2 aria-live="polite">{periodLabel(date, view, i18n.language)}</h2>
        <button
          type="button"
          aria-label={t('measure.next')}
          disabled={!hasNext || todayUnsure}
          onClick={() => {
            go({ date: next });
          }}
        >
          ›
        </button>
      </div>
      <section className="card" aria-busy={series.isFetching}>
        {series.isPending ? <p role="status">{t('loading')}</p> : null}
        {series.isError ? <Alert>{errorMessage(series.error)}</Alert> : null}
        {series.data ? <Report series={series.data} /> : null}
      </section>
    </div>
  );
}
