import { displayUnit, fromCanonical, manualValueProblem, preferencesFromUnits, toCanonical, weightGoalInputSchema, type WeightOverview } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { unitsQuery } from '../entry/entry-api';
import { dateTimeText, numberText } from './format';
import { enterWeight, setWeightGoal, WEIGHT_KEY, weightQuery } from './sport-api';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import './sport.css';

/** A typed number ("72,5" or "72.5"), or NaN. */
const parseNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.replace(',', '.')));

/** Weights are kept in kg and shown and typed in the patient's own unit (kg, or lbs in the imperial system). */
type WeightUnit = 'kg' | 'lbs';

function useWeightText(unit: WeightUnit): (kg: number) => string {
  const { t, i18n } = useTranslation('appSport');
  return (kg) => t(unit === 'lbs' ? 'units.lbs' : 'units.kg', { value: numberText(fromCanonical('WEIGHT', kg, unit), i18n.language, 1) });
}

function BmiCard({ overview }: { overview: WeightOverview }) {
  const { t, i18n } = useTranslation('appSport');
  const language = i18n.language;
  return (
    <section className="card" aria-labelledby="bmi-heading">
      <h2 id="bmi-heading">{t('weight.bmi')}</h2>
      {overview.bmi === null || overview.band === null ? (
        <p className="hint">{overview.heightCm === null ? t('weight.noHeight') : t('weight.noWeight')}</p>
      ) : (
        <>
          <p className="bmi-value">
            <strong>{numberText(overview.bmi, language, 1)}</strong>{' '}
            <span className={`bmi-band bmi-${overview.band.toLowerCase()}`}>{t(`bands.${overview.band}`)}</span>
          </p>
          {overview.asianRisk !== null ? <p className="hint">{t(`asianRisk.${overview.asianRisk}`)}</p> : null}
          <p className="hint">{t('weight.bmiBasis', { height: numberText(overview.heightCm ?? 0, language) })}</p>
        </>
      )}
    </section>
  );
}

function GoalCard({ overview, unit }: { overview: WeightOverview; unit: WeightUnit }) {
  const { t } = useTranslation('appSport');
  const viewOnly = useViewOnlyProfile();
  const weightText = useWeightText(unit);
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (goalKg: number) => setWeightGoal(goalKg),
    onSuccess: (updated) => {
      queryClient.setQueryData(WEIGHT_KEY, updated);
      setText('');
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const parsed = weightGoalInputSchema.safeParse({ goalKg: toCanonical('WEIGHT', parseNumber(text), unit) });
    setProblem(parsed.success ? undefined : t('weight.outOfRange'));
    if (parsed.success) save.mutate(parsed.data.goalKg);
  };
  const { goal, progress } = overview;
  return (
    <section className="card" aria-labelledby="goal-heading">
      <h2 id="goal-heading">{t('weight.goal')}</h2>
      {goal === null ? <p className="hint">{t('weight.noGoal')}</p> : <p className="goal-value">{weightText(goal.goalKg)}</p>}
      {progress !== null ? (
        <>
          <progress className="goal-progress" max={1} value={progress.fraction} aria-label={t('weight.progressLabel')} />
          <p>{progress.isReached ? t('weight.reached') : t('weight.remaining', { weight: weightText(progress.remainingKg) })}</p>
        </>
      ) : null}
      {viewOnly !== null ? null : (
        <form onSubmit={submit} noValidate>
          <TextField label={t('weight.goalField', { unit })} inputMode="decimal" value={text} error={problem} onChange={(event) => { setText(event.target.value); }} />
          {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
          <button type="submit" className="primary" disabled={save.isPending}>
            {t('weight.setGoal')}
          </button>
        </form>
      )}
    </section>
  );
}

function EntryCard({ unit }: { unit: WeightUnit }) {
  const { t } = useTranslation('appSport');
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    // Sent as typed: the manual entry call reads a value in the patient's own unit.
    mutationFn: (value: number) => enterWeight(value, new Date()),
    onSuccess: async () => {
      setText('');
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: WEIGHT_KEY });
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSaved(false);
    const value = parseNumber(text);
    // Spec §5: above 1 and below 700 kg (the bounds converted to the unit typed in).
    const isRefused = manualValueProblem('WEIGHT', value, unit) !== null;
    setProblem(isRefused ? t('weight.outOfRange') : undefined);
    if (!isRefused) save.mutate(value);
  };
  return (
    <section className="card" aria-labelledby="entry-heading">
      <h2 id="entry-heading">{t('weight.enter')}</h2>
      <form onSubmit={submit} noValidate>
        <TextField label={t('weight.weightField', { unit })} inputMode="decimal" value={text} error={problem} onChange={(event) => { setText(event.target.value); }} />
        {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
        {saved ? <Alert tone="info">{t('weight.saved')}</Alert> : null}
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('weight.add')}
        </button>
      </form>
    </section>
  );
}

/** /weight — weight goal and progress, BMI with its band, entering a weight, recent weights. */
export function WeightPage() {
  const { t } = useTranslation('appSport');
  const overview = useQuery(weightQuery());
  const units = useQuery(unitsQuery());
  const unit: WeightUnit = units.data !== undefined && displayUnit('WEIGHT', preferencesFromUnits(units.data)) === 'lbs' ? 'lbs' : 'kg';
  const weightText = useWeightText(unit);
  const viewOnly = useViewOnlyProfile();
  const latest = overview.data?.records[0];
  return (
    <div className="sport-page">
      <p className="back">
        <Link to="/sport">{t('back')}</Link>
      </p>
      <h1>{t('weight.title')}</h1>
      {overview.isPending || units.isPending ? <p role="status">{t('loading')}</p> : null}
      {overview.isError ? <Alert>{errorMessage(overview.error)}</Alert> : null}
      {units.isError ? <Alert>{errorMessage(units.error)}</Alert> : null}
      {overview.data && units.data ? (
        <>
          <section className="card" aria-labelledby="latest-weight-heading">
            <h2 id="latest-weight-heading">{t('weight.latest')}</h2>
            {latest === undefined ? (
              <p className="hint">{t('weight.noWeight')}</p>
            ) : (
              <p className="goal-value">
                {weightText(latest.valueKg)}{' '}
                <span className="hint">{dateTimeText(latest.measuredAt)}</span>
              </p>
            )}
          </section>
          <BmiCard overview={overview.data} />
          <GoalCard overview={overview.data} unit={unit} />
          {viewOnly !== null ? <ViewOnlyNotice profile={viewOnly} /> : <EntryCard unit={unit} />}
          <section className="card" aria-labelledby="records-heading">
            <h2 id="records-heading">{t('weight.records')}</h2>
            {overview.data.records.length === 0 ? <p className="hint">{t('weight.noWeight')}</p> : null}
            <ul className="weight-records">
              {overview.data.records.map((record) => (
                <li key={`${record.measuredAt}-${record.source}`}>
                  <span>{dateTimeText(record.measuredAt)}</span>
                  <strong>{weightText(record.valueKg)}</strong>
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </div>
  );
}
