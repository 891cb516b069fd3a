import { SPORT_TYPES, type SportType } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { clockText, numberText, paceText } from './format';
import { saveSession, SPORT_KEY, weightQuery } from './sport-api';
import { useTracking, type LiveFigures } from './use-tracking';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import './sport.css';

/** iOS asks before giving a page the accelerometer; elsewhere there is nothing to ask. */
function askForMotion(): void {
  const motion = (globalThis as { DeviceMotionEvent?: { requestPermission?: () => Promise<string> } }).DeviceMotionEvent;
  if (typeof motion?.requestPermission === 'function') void motion.requestPermission().catch(() => undefined);
}

function LiveFiguresList({ figures }: { figures: LiveFigures }) {
  const { t, i18n } = useTranslation('appSport');
  const language = i18n.language;
  const dash = t('figures.none');
  const cells: [string, string, string][] = [];
  if (figures.steps !== null) cells.push(['steps', t('figures.steps'), numberText(figures.steps, language)]);
  if (figures.distanceSource !== null || figures.distanceM !== null)
    cells.push(['distance', t('figures.distance'), figures.distanceM === null ? dash : t('units.km', { value: numberText(figures.distanceM / 1000, language, 2) })]);
  if (figures.distanceM !== null) cells.push(['pace', t('figures.pace'), figures.paceSecondsPerKm === null ? dash : t('units.pace', { value: paceText(figures.paceSecondsPerKm) })]);
  cells.push(['calories', t('figures.calories'), figures.calories === null ? dash : t('units.kcal', { value: numberText(figures.calories, language) })]);
  return (
    <dl className="sport-live">
      {cells.map(([key, label, value]) => (
        <div key={key} data-figure={key}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Tracker({ sport }: { sport: SportType }) {
  const { t } = useTranslation('appSport');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const body = useQuery(weightQuery());
  const tracking = useTracking(sport, { heightCm: body.data?.heightCm ?? null, weightKg: body.data?.records[0]?.valueKg ?? null });
  const { state, figures, act } = tracking;
  const save = useMutation({
    mutationFn: () => saveSession(tracking.input()),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: SPORT_KEY });
      await navigate(`/sport/${saved.record.id}`, { replace: true });
    },
  });

  return (
    <div className="sport-page">
      <p className="back">
        <Link to="/sport">{t('back')}</Link>
      </p>
      <h1>{t(`sports.${sport}`)}</h1>
      <section className="card sport-tracker" aria-labelledby="tracker-time-label">
        <p id="tracker-time-label" className="hint">{t(`state.${state.status}`)}</p>
        <p className="sport-clock" role="timer" aria-label={t('figures.time')}>
          {clockText(figures.elapsedMs)}
        </p>
        <LiveFiguresList figures={figures} />
        {body.data?.records.length === 0 ? <p className="hint">{t('tracker.noWeight')}</p> : null}
        {figures.distanceSource === 'STEPS' ? <p className="hint">{t('distanceFrom.STEPS')}</p> : null}
        <div className="sport-actions">
          {state.status === 'idle' ? (
            <button type="button" className="primary" onClick={() => { askForMotion(); act('start'); }}>
              {t('actions.start')}
            </button>
          ) : null}
          {state.status === 'running' ? (
            <button type="button" onClick={() => { act('pause'); }}>
              {t('actions.pause')}
            </button>
          ) : null}
          {state.status === 'paused' ? (
            <button type="button" className="primary" onClick={() => { act('resume'); }}>
              {t('actions.resume')}
            </button>
          ) : null}
          {state.status === 'running' || state.status === 'paused' ? (
            <button type="button" className="danger" onClick={() => { act('stop'); }}>
              {t('actions.stop')}
            </button>
          ) : null}
        </div>
        {state.status === 'stopped' ? (
          <div className="sport-actions">
            {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
            <button type="button" className="primary" disabled={save.isPending} onClick={() => { save.mutate(); }}>
              {save.isPending ? t('actions.saving') : t('actions.save')}
            </button>
            <button type="button" disabled={save.isPending} onClick={() => { void navigate('/sport'); }}>
              {t('actions.discard')}
            </button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

/** /sport/track/:sport — live tracking of one session: start, pause, resume, stop, save. */
export function TrackingPage() {
  const { t } = useTranslation('appSport');
  const { sport = '' } = useParams();
  const viewOnly = useViewOnlyProfile();
  const known = SPORT_TYPES.find((type) => type === sport.toUpperCase());
  if (known === undefined) return <Navigate to="/sport" replace />;
  if (viewOnly !== null)
    return (
      <div className="sport-page">
        <p className="back">
          <Link to="/sport">{t('back')}</Link>
        </p>
        <h1>{t(`sports.${known}`)}</h1>
        <ViewOnlyNotice profile={viewOnly} />
      </div>
    );
  return <Tracker key={known} sport={known} />;
}
