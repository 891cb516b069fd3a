import { sleepTimings, type SleepDetail } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { durationText, nightLabel } from './format';
import { sleepListQuery, sleepNightQuery } from './health-api';

const STAGES = ['DEEP', 'LIGHT', 'REM', 'AWAKE'] as const;
/** Spec §9 reference shares of total sleep, in percent. */
const REFERENCE: Record<'DEEP' | 'LIGHT' | 'REM', [number, number]> = {
  DEEP: [13, 23],
  LIGHT: [50, 60],
  REM: [20, 25],
};

/** /health/sleep — the latest nights, newest first. */
export function SleepListPage() {
  const { t, i18n } = useTranslation('appHealth');
  const nights = useQuery(sleepListQuery());
  return (
    <div className="health-page">
      <p className="back">
        <Link to="/health">{t('back.hub')}</Link>
      </p>
      <h1>{t('sleep.title')}</h1>
      <section className="card">
        {nights.isPending ? <p role="status">{t('loading')}</p> : null}
        {nights.isError ? <Alert>{errorMessage(nights.error)}</Alert> : null}
        {nights.data?.items.length === 0 ? <p className="hint">{t('sleep.empty')}</p> : null}
        <ul className="measure-links">
          {nights.data?.items.map((night) => (
            <li key={night.id}>
              <Link to={`/health/sleep/${night.id}`}>
                <span>{nightLabel(night.startAt, night.endAt, i18n.language)}</span>
                <span className="measure-latest">{durationText(t, night.totalMinutes)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** The night as a strip of its stages from going to bed to getting up. */
function StageStrip({ night }: { night: SleepDetail }) {
  const { t } = useTranslation('appHealth');
  const start = Date.parse(night.startAt);
  const span = Math.max(1, Date.parse(night.endAt) - start);
  const percent = (at: string) => ((Date.parse(at) - start) / span) * 100;
  return (
    <>
      <div className="stage-strip" role="img" aria-label={t('sleep.stripLabel')}>
        {night.stages.map((stage) => (
          <span
            key={stage.from}
            className={`stage stage-${stage.stage.toLowerCase()}`}
            style={{
              left: `${String(percent(stage.from))}%`,
              width: `${String(percent(stage.to) - percent(stage.from))}%`,
            }}
          />
        ))}
      </div>
      <ul className="stage-legend">
        {STAGES.map((stage) => (
          <li key={stage}>
            <span className={`swatch stage-${stage.toLowerCase()}`} aria-hidden="true" />
            {t(`sleep.stages.${stage}`)}
          </li>
        ))}
      </ul>
    </>
  );
}

function NightDetail({ night }: { night: SleepDetail }) {
  const { t, i18n } = useTranslation('appHealth');
  const timings = sleepTimings(night, night);
  const stageMinutes = { DEEP: night.deepMinutes, LIGHT: night.lightMinutes, REM: night.remMinutes };
  const share = (minutes: number) =>
    night.totalMinutes > 0 ? Math.round((minutes / night.totalMinutes) * 100) : 0;
  return (
    <>
      <h2>{nightLabel(night.startAt, night.endAt, i18n.language)}</h2>
      {night.stages.length > 0 ? <StageStrip night={night} /> : null}
      <dl className="facts">
        <div data-fact="total">
          <dt>{t('sleep.total')}</dt>
          <dd>{durationText(t, night.totalMinutes)}</dd>
        </div>
        {(['DEEP', 'LIGHT', 'REM'] as const).map((stage) => (
          <div key={stage} data-fact={stage.toLowerCase()}>
            <dt>{t(`sleep.stages.${stage}`)}</dt>
            <dd>
              {durationText(t, stageMinutes[stage])} · {share(stageMinutes[stage])}
              {'\u00a0'}%
              <span className="hint">
                {t('sleep.reference', { from: REFERENCE[stage][0], to: REFERENCE[stage][1] })}
              </span>
            </dd>
          </div>
        ))}
        <div data-fact="awake">
          <dt>{t('sleep.stages.AWAKE')}</dt>
          <dd>
            {t('sleep.awakenings', { count: night.stages.length > 0 ? timings.awakenings : night.wakeCount })}
          </dd>
        </div>
        <div data-fact="falling-asleep">
          <dt>{t('sleep.fallingAsleep')}</dt>
          <dd>
            {timings.fallingAsleepMinutes === null
              ? t('none')
              : durationText(t, timings.fallingAsleepMinutes)}
          </dd>
        </div>
        <div data-fact="re-sleep">
          <dt>{t('sleep.reSleep')}</dt>
          <dd>{timings.reSleepMinutes === null ? t('none') : durationText(t, timings.reSleepMinutes)}</dd>
        </div>
      </dl>
      <p className="hint">{t('sleep.reSleepHint')}</p>
      <Link className="button" to={`/health/sleep/${night.id}/osahs`}>
        {t('sleep.osahsLink')}
      </Link>
    </>
  );
}

/** /health/sleep/:recordId — one night: stages, totals, falling-asleep and re-sleep time. */
export function SleepNightPage() {
  const { t } = useTranslation('appHealth');
  const { recordId = '' } = useParams();
  const night = useQuery(sleepNightQuery(recordId));
  return (
    <div className="health-page">
      <p className="back">
        <Link to="/health/sleep">{t('back.sleep')}</Link>
      </p>
      <h1>{t('sleep.night')}</h1>
      <section className="card">
        {night.isPending ? <p role="status">{t('loading')}</p> : null}
        {night.isError ? <Alert>{errorMessage(night.error)}</Alert> : null}
        {night.data ? <NightDetail night={night.data} /> : null}
      </section>
    </div>
  );
}
