import { entryProblem, preferencesFromUnits, type EntryProblem, type EntryValues } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { saveManualEntry, thresholdsQuery, unitsQuery } from './entry-api';
import { EntryFields, emptyDraft, entryValueText, valuesOf, warningText } from './entry-form';
import { UnitsGate } from './units-gate';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import './entry.css';

/**
 * The form's time is to the minute: one in the current minute (its default) is sent as now, to the
 * second, so a record created this minute (a sub-user just added) takes it rather than refusing a
 * time before its creation (health.beforeMonitoring).
 */
const isSameMinute = (at: Date, now: Date) => Math.floor(at.getTime() / 60_000) === Math.floor(now.getTime() / 60_000);

/**
 * Manual entry (spec §2, §5): a measure, its value in the patient's units, when it was measured.
 * Refused values say why before anything is sent; a value over the patient's thresholds shows a
 * warning and can still be saved (POST /health/manual), then the saved value is shown.
 */
export function ManualEntryPage() {
  const { t } = useTranslation('appEntry');
  const viewOnly = useViewOnlyProfile();
  const units = useQuery({ ...unitsQuery(), enabled: viewOnly === null });
  if (viewOnly !== null)
    return (
      <section className="entry">
        <h1>{t('manual.title')}</h1>
        <ViewOnlyNotice profile={viewOnly} />
      </section>
    );
  return (
    <section className="entry">
      <h1>{t('manual.title')}</h1>
      <UnitsGate query={units}>{(effective) => <ManualEntryForm units={preferencesFromUnits(effective)} />}</UnitsGate>
    </section>
  );
}

function ManualEntryForm({ units }: { units: ReturnType<typeof preferencesFromUnits> }) {
  const { t, i18n } = useTranslation('appEntry');
  const queryClient = useQueryClient();
  const thresholds = useQuery(thresholdsQuery());
  const [draft, setDraft] = useState(() => emptyDraft());
  const [problem, setProblem] = useState<EntryProblem | null>(null);
  const [saved, setSaved] = useState<EntryValues | undefined>();
  const save = useMutation({
    mutationFn: saveManualEntry,
    onSuccess: async (_result, values) => {
      setSaved(values);
      await queryClient.invalidateQueries();
    },
  });

  if (saved !== undefined)
    return (
      <div className="card" role="status">
        <h2>{t('manual.saved')}</h2>
        <p className="entry-saved-value">
          {t(`health:measures.${saved.measure}`)}: {entryValueText(t, saved, units, i18n.language)}
        </p>
        <p className="hint">{new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(saved.measuredAt)}</p>
        <button type="button" className="primary" onClick={() => { setSaved(undefined); setDraft(emptyDraft(saved.measure)); save.reset(); }}>
          {t('manual.another')}
        </button>
      </div>
    );

  const values = valuesOf(draft);
  const warning = entryProblem(values, units, new Date()) === null ? warningText(t, values, thresholds.data?.thresholds, units) : undefined;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const now = new Date();
    const found = entryProblem(values, units, now);
    setProblem(found);
    if (found === null) save.mutate(isSameMinute(values.measuredAt, now) ? { ...values, measuredAt: now } : values);
  };
  return (
    <>
      <p className="hint entry-intro">
        <Link to="/entry/photo">{t('photoLink')}</Link>
      </p>
      <form className="card" noValidate onSubmit={submit}>
        <EntryFields draft={draft} units={units} problem={problem} onChange={(next) => { setDraft(next); setProblem(null); }} />
        {warning === undefined ? null : <p className="entry-warning" role="status">{warning}</p>}
        {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
        <button className="primary" type="submit" disabled={save.isPending}>{t('manual.save')}</button>
      </form>
    </>
  );
}
