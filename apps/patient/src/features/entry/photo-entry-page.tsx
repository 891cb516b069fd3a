import {
  candidateInUnits,
  entryProblem,
  OCR_IMAGE_MAX_BYTES,
  OCR_IMAGE_TYPES,
  preferencesFromUnits,
  type EntryProblem,
  type EntryValues,
  type OcrCandidate,
  type UnitPreferences,
} from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { readPhoto, savePhotoEntries, thresholdsQuery, unitsQuery } from './entry-api';
import { EntryFields, entryValueText, localInputValue, valuesOf, warningText, type EntryDraft } from './entry-form';
import { newBatchId } from '../../lib/batch-id';
import { UnitsGate } from './units-gate';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import { isUpgradeRequired, UpgradeNotice, useFeature, useRefreshPackage } from '../subscription/upgrade-notice';
import './entry.css';

interface Row {
  draft: EntryDraft;
  include: boolean;
}

const rowOf = (candidate: OcrCandidate, measuredAt: string): Row => ({
  include: true,
  draft: {
    measure: candidate.measure,
    value: candidate.value === undefined ? '' : String(candidate.value),
    systolic: candidate.systolic === undefined ? '' : String(candidate.systolic),
    diastolic: candidate.diastolic === undefined ? '' : String(candidate.diastolic),
    measuredAt,
  },
});

/** Why a chosen file cannot be sent: over 5 MB or not a PNG, JPEG or WebP (the server checks the content too). */
function fileProblem(file: File): 'tooLarge' | 'unsupportedType' | undefined {
  if (file.size > OCR_IMAGE_MAX_BYTES) return 'tooLarge';
  if (file.type !== '' && !(OCR_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'unsupportedType';
  return undefined;
}

/**
 * Photo entry (spec §1, §2): take or pick a photo of a device's display, have it read (POST
 * /collector/ocr), check and correct the values found, and save the ticked ones as PHOTO_OCR
 * readings in one idempotent batch. A paid feature (spec §6): without it in the profile's package,
 * an upgrade notice leads to My package and to manual entry instead.
 */
export function PhotoEntryPage() {
  const { t } = useTranslation('appEntry');
  const viewOnly = useViewOnlyProfile();
  const photo = useFeature('PHOTO_ENTRY');
  const units = useQuery({ ...unitsQuery(), enabled: viewOnly === null && photo !== 'upgrade' });
  if (viewOnly !== null)
    return (
      <section className="entry">
        <h1>{t('photo.title')}</h1>
        <ViewOnlyNotice profile={viewOnly} />
      </section>
    );
  if (photo === 'upgrade')
    return (
      <section className="entry">
        <h1>{t('photo.title')}</h1>
        <PhotoUpgrade />
      </section>
    );
  return (
    <section className="entry">
      <h1>{t('photo.title')}</h1>
      <UnitsGate query={units}>{(effective) => <PhotoEntry units={preferencesFromUnits(effective)} />}</UnitsGate>
    </section>
  );
}

/** Photo entry is not in the package: what to do instead. */
function PhotoUpgrade() {
  const { t } = useTranslation('appEntry');
  return (
    <div className="card">
      <UpgradeNotice feature="PHOTO_ENTRY" />
      <Link className="button" to="/entry">{t('manualLink')}</Link>
    </div>
  );
}

function PhotoEntry({ units }: { units: UnitPreferences }) {
  const { t, i18n } = useTranslation('appEntry');
  const inputId = useId();
  const queryClient = useQueryClient();
  const thresholds = useQuery(thresholdsQuery());
  const [file, setFile] = useState<File | undefined>();
  const [preview, setPreview] = useState<string | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const [rows, setRows] = useState<Row[] | undefined>();
  const [problems, setProblems] = useState<(EntryProblem | null)[]>([]);
  const [batchId, setBatchId] = useState(newBatchId);
  const [saved, setSaved] = useState<EntryValues[] | undefined>();
  const refreshPackage = useRefreshPackage();

  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);

  const read = useMutation({
    mutationFn: readPhoto,
    onSuccess: (result) => {
      const now = localInputValue(new Date());
      setRows(result.candidates.map((candidate) => rowOf(candidateInUnits(candidate, units), now)));
      setProblems([]);
      setBatchId(newBatchId());
    },
    // The package read earlier gave photo entry, the server says it does not (any more).
    onError: (error) => {
      if (isUpgradeRequired(error)) void refreshPackage();
    },
  });
  const save = useMutation({
    mutationFn: (entries: EntryValues[]) => savePhotoEntries(batchId, entries),
    onSuccess: async (result, entries) => {
      if (result.rejected === 0) setSaved(entries);
      await queryClient.invalidateQueries();
    },
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setRows(undefined);
    read.reset();
    save.reset();
    setFile(undefined);
    setPreview(undefined);
    if (chosen === undefined) return;
    const problem = fileProblem(chosen);
    setFileError(problem === undefined ? undefined : t(`photo.${problem}`));
    if (problem !== undefined) return;
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  };

  const restart = () => {
    setSaved(undefined);
    setRows(undefined);
    setFile(undefined);
    setPreview(undefined);
    read.reset();
    save.reset();
  };

  if (saved !== undefined)
    return (
      <div className="card" role="status">
        <h2>{t('photo.saved')}</h2>
        <ul className="entry-list">
          {saved.map((entry) => (
            <li key={entry.measure}>
              <span>{t(`health:measures.${entry.measure}`)}</span>
              <span className="entry-value">{entryValueText(t, entry, units, i18n.language)}</span>
            </li>
          ))}
        </ul>
        <p className="hint">{t('photo.source')}</p>
        <button type="button" className="primary" onClick={restart}>{t('photo.another')}</button>
      </div>
    );

  const submit = () => {
    if (rows === undefined) return;
    const chosen = rows.filter((row) => row.include);
    const now = new Date();
    const found = rows.map((row) => (row.include ? entryProblem(valuesOf(row.draft), units, now) : null));
    setProblems(found);
    if (chosen.length === 0 || found.some((problem) => problem !== null)) return;
    save.mutate(chosen.map((row) => valuesOf(row.draft)));
  };
  const rejected = save.data?.problems ?? [];

  return (
    <>
      <p className="hint entry-intro">
        <Link to="/entry">{t('manualLink')}</Link>
      </p>
      <div className="card">
        <p className="hint">{t('photo.intro')}</p>
        <div className="field">
          <label htmlFor={inputId}>{t('photo.choose')}</label>
          <input id={inputId} className="photo-input" type="file" accept="image/*" capture="environment" onChange={choose} />
          {fileError ? <p className="field-error" role="alert">{fileError}</p> : null}
        </div>
        {preview ? <img className="photo-preview" src={preview} alt={t('photo.preview')} /> : null}
        {file && rows === undefined ? (
          <button type="button" className="primary" disabled={read.isPending} onClick={() => { read.mutate(file); }}>
            {read.isPending ? t('photo.reading') : t('photo.read')}
          </button>
        ) : null}
        {read.isError ? (
          isUpgradeRequired(read.error) ? <UpgradeNotice feature="PHOTO_ENTRY" /> : <Alert>{errorMessage(read.error)}</Alert>
        ) : null}
      </div>
      {rows === undefined ? null : rows.length === 0 ? (
        <div className="card">
          <Alert>{t('photo.noData')}</Alert>
          <Link className="button" to="/entry">{t('manualLink')}</Link>
        </div>
      ) : (
        <div className="card">
          <h2>{t('photo.confirm')}</h2>
          <p className="hint">{t('photo.confirmHint')}</p>
          {rows.map((row, index) => {
            const update = (next: Partial<Row>) => {
              setRows(rows.map((other, at) => (at === index ? { ...other, ...next } : other)));
              setProblems([]);
            };
            const values = valuesOf(row.draft);
            const warning = row.include && entryProblem(values, units, new Date()) === null
              ? warningText(t, values, thresholds.data?.thresholds, units)
              : undefined;
            return (
              <fieldset key={row.draft.measure} className="candidate">
                <legend className="candidate-title">{t(`health:measures.${row.draft.measure}`)}</legend>
                <div className="check">
                  <input
                    id={`${inputId}-include-${String(index)}`}
                    type="checkbox"
                    checked={row.include}
                    onChange={(event) => { update({ include: event.target.checked }); }}
                  />
                  <label htmlFor={`${inputId}-include-${String(index)}`}>{t('photo.include')}</label>
                </div>
                {row.include ? (
                  <EntryFields
                    draft={row.draft}
                    units={units}
                    fixedMeasure
                    withTime={index === 0}
                    problem={problems[index] ?? null}
                    onChange={(draft) => {
                      // One time for every value of the photo.
                      setRows(rows.map((other, at) => ({ ...other, draft: at === index ? draft : { ...other.draft, measuredAt: draft.measuredAt } })));
                      setProblems([]);
                    }}
                  />
                ) : null}
                {warning === undefined ? null : <p className="entry-warning" role="status">{warning}</p>}
              </fieldset>
            );
          })}
          {rows.every((row) => !row.include) && problems.length > 0 ? <Alert>{t('photo.noneChosen')}</Alert> : null}
          {rejected.map((problem) => (
            <Alert key={problem.index}>{t('photo.rejected', { reason: i18next.t(problem.code, { ns: 'errors' }) })}</Alert>
          ))}
          {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
          <button type="button" className="primary" disabled={save.isPending} onClick={submit}>{t('photo.save')}</button>
        </div>
      )}
    </>
  );
}

