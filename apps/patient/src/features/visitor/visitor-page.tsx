import { defaultThresholds, entryProblem, preferencesFromUnits, type EntryProblem, type EntryValues } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../ui/kit';
import { LanguageSelect } from '../auth/language-select';
import { EntryFields, emptyDraft, entryValueText, valuesOf, warningText } from '../entry/entry-form';
import { addVisitorEntry, deleteVisitorData, listVisitorEntries, type VisitorEntry } from './visitor-store';
import '../entry/entry.css';

/** Visitor mode keeps metric units and warns against the spec's reference ranges (no account, no care team). */
const UNITS = preferencesFromUnits({ unitSystem: 'metric', thermalUnit: 'C', bloodGlucoseUnit: 'mg/dL', uricAcidUnit: 'mg/dL' });
const REFERENCE = defaultThresholds(null);
const ENTRIES_KEY = ['visitor', 'entries'];

const valuesOfEntry = (entry: VisitorEntry): EntryValues => ({ ...entry, measuredAt: new Date(entry.measuredAt) });

/**
 * Visitor mode (spec §1, §2): the app without an account. Readings are checked with the §5 rules,
 * kept in IndexedDB on this phone only and shown as the latest value per measure and a history;
 * nothing is sent anywhere. The data can be deleted, and the mode left for the login page.
 */
export function VisitorPage() {
  const { t, i18n } = useTranslation('appEntry');
  const queryClient = useQueryClient();
  const entries = useQuery({ queryKey: ENTRIES_KEY, queryFn: listVisitorEntries, networkMode: 'always' });
  const [draft, setDraft] = useState(() => emptyDraft());
  const [problem, setProblem] = useState<EntryProblem | null>(null);
  const [notice, setNotice] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ENTRIES_KEY });
  const add = useMutation({
    networkMode: 'always',
    mutationFn: (values: EntryValues) => addVisitorEntry({ ...values, measuredAt: values.measuredAt.getTime() }),
    onSuccess: async () => {
      setNotice(t('visitor.saved'));
      setDraft(emptyDraft(draft.measure));
      await refresh();
    },
  });
  const remove = useMutation({
    networkMode: 'always',
    mutationFn: deleteVisitorData,
    onSuccess: async () => {
      setNotice(t('visitor.deleted'));
      await refresh();
    },
  });

  const values = valuesOf(draft);
  const warning = entryProblem(values, UNITS, new Date()) === null ? warningText(t, values, REFERENCE, UNITS) : undefined;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setNotice(undefined);
    const found = entryProblem(values, UNITS, new Date());
    setProblem(found);
    if (found === null) add.mutate(values);
  };
  const list = entries.data ?? [];
  const latest = list.filter((entry, index) => list.findIndex((other) => other.measure === entry.measure) === index);
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const row = (entry: VisitorEntry) => (
    <li key={entry.id}>
      <span>{t(`health:measures.${entry.measure}`)}</span>
      <span className="entry-value">{entryValueText(t, valuesOfEntry(entry), UNITS, i18n.language)}</span>
      <span className="entry-when">{when.format(entry.measuredAt)}</span>
    </li>
  );

  return (
    <div className="auth entry">
      <header className="auth-header">
        <span className="brand">{t('patient:appName')}</span>
        <LanguageSelect />
      </header>
      <p className="visitor-banner" role="note">{t('visitor.banner')}</p>
      <h1>{t('visitor.title')}</h1>
      <form className="card" noValidate onSubmit={submit} aria-label={t('visitor.add')}>
        <h2>{t('visitor.add')}</h2>
        <EntryFields draft={draft} units={UNITS} problem={problem} onChange={(next) => { setDraft(next); setProblem(null); setNotice(undefined); }} />
        {warning === undefined ? null : <p className="entry-warning" role="status">{warning} {t('visitor.referenceNote')}</p>}
        {add.isError || entries.isError ? <Alert>{t('visitor.storageError')}</Alert> : null}
        {notice ? <Alert tone="info">{notice}</Alert> : null}
        <button className="primary" type="submit" disabled={add.isPending}>{t('visitor.save')}</button>
      </form>
      <section className="card" aria-labelledby="visitor-latest">
        <h2 id="visitor-latest">{t('visitor.latest')}</h2>
        {entries.isPending ? <p className="loading" role="status">{t('loading')}</p> : null}
        {entries.isSuccess && list.length === 0 ? <p className="hint">{t('visitor.empty')}</p> : null}
        <ul className="entry-list visitor-latest">{latest.map(row)}</ul>
      </section>
      {list.length > 0 ? (
        <section className="card" aria-labelledby="visitor-history">
          <h2 id="visitor-history">{t('visitor.history')}</h2>
          <ul className="entry-list visitor-history">{list.map(row)}</ul>
        </section>
      ) : null}
      <div className="entry-actions">
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => { if (window.confirm(t('visitor.deleteConfirm'))) remove.mutate(); }}
        >
          {t('visitor.delete')}
        </button>
        <Link className="button" to="/login">{t('visitor.leave')}</Link>
      </div>
    </div>
  );
}
