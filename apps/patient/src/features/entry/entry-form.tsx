import {
  ENTRY_MEASURES,
  entryBounds,
  entryUnit,
  type EntryMeasure,
  type EntryProblem,
  type EntryValues,
  type ThresholdSet,
  type UnitPreferences,
  entryWarning,
} from '@rpm/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../ui/kit';

/** An entry as typed: text in each box, the time as a datetime-local value (the phone's time). */
export interface EntryDraft {
  measure: EntryMeasure;
  value: string;
  systolic: string;
  diastolic: string;
  measuredAt: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A datetime-local value for an instant, in the phone's time zone (minutes). */
export function localInputValue(date: Date): string {
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function emptyDraft(measure: EntryMeasure = 'BLOOD_PRESSURE', now = new Date()): EntryDraft {
  return { measure, value: '', systolic: '', diastolic: '', measuredAt: localInputValue(now) };
}

/** Typed text as a number: empty is no value; a decimal comma reads as a point. */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text.trim().replace(',', '.')));

export function valuesOf(draft: EntryDraft): EntryValues {
  return draft.measure === 'BLOOD_PRESSURE'
    ? { measure: draft.measure, systolic: numberOf(draft.systolic), diastolic: numberOf(draft.diastolic), measuredAt: new Date(draft.measuredAt) }
    : { measure: draft.measure, value: numberOf(draft.value), measuredAt: new Date(draft.measuredAt) };
}

const UNIT_KEYS: Record<string, string> = {
  bpm: 'bpm',
  '%': 'percent',
  mmHg: 'mmHg',
  C: 'celsius',
  F: 'fahrenheit',
  'mg/dL': 'mgPerDl',
  'mmol/L': 'mmolPerL',
  kg: 'kg',
  lbs: 'lbs',
};

/** A unit as the patient reads it (°C, lb, mmol/L). */
export function unitText(t: TFunction, unit: string): string {
  const key = UNIT_KEYS[unit];
  return key === undefined ? unit : t(`health:units.${key}`);
}

/** The spec's message for a refused value, with the bounds in the unit it was typed in. */
export function problemText(t: TFunction, problem: EntryProblem, measure: EntryMeasure, units: UnitPreferences): string {
  if (problem.code === 'outOfRange') {
    const bounded = measure !== 'BLOOD_PRESSURE' ? measure : problem.field === 'diastolic' ? 'DIASTOLIC' : 'SYSTOLIC';
    const { above, below } = entryBounds(bounded, units);
    return t('appEntry:problems.outOfRange', {
      measure: t(`health:measures.${bounded}`),
      above,
      below,
      unit: unitText(t, entryUnit(measure, units)),
    });
  }
  return t(`appEntry:problems.${problem.code.replace('health.', '')}`);
}

/** The threshold warning for an accepted entry, or undefined when it crosses none. */
export function warningText(t: TFunction, values: EntryValues, thresholds: ThresholdSet | undefined, units: UnitPreferences) {
  if (thresholds === undefined) return undefined;
  const warning = entryWarning(values, thresholds, units);
  if (warning.level === 'NORMAL') return undefined;
  return t('appEntry:warning', {
    measures: warning.metrics.map((metric) => t(`health:measures.${metric}`)).join(', '),
    level: t(`health:status.${warning.level}`),
  });
}

/**
 * The boxes of one entry: the measure (unless fixed), its value or the blood pressure pair in the
 * patient's units, and when it was measured. The problem, if any, shows under its own box.
 */
export function EntryFields(props: {
  draft: EntryDraft;
  onChange: (draft: EntryDraft) => void;
  units: UnitPreferences;
  problem: EntryProblem | null;
  fixedMeasure?: boolean;
  withTime?: boolean;
}) {
  const { t } = useTranslation('appEntry');
  const { draft, onChange, units, problem } = props;
  const errorOf = (field: EntryProblem['field']) =>
    problem?.field === field ? problemText(t, problem, draft.measure, units) : undefined;
  const unit = unitText(t, entryUnit(draft.measure, units));
  const numberProps = { inputMode: 'decimal' as const, autoComplete: 'off' };
  return (
    <>
      {props.fixedMeasure ? null : (
        <div className="field">
          <label htmlFor="entry-measure">{t('measure')}</label>
          <select
            id="entry-measure"
            value={draft.measure}
            onChange={(event) => { onChange({ ...draft, measure: event.target.value as EntryMeasure }); }}
          >
            {ENTRY_MEASURES.map((measure) => (
              <option key={measure} value={measure}>{t(`health:measures.${measure}`)}</option>
            ))}
          </select>
        </div>
      )}
      {draft.measure === 'BLOOD_PRESSURE' ? (
        <div className="entry-pair">
          <TextField
            label={t('valueIn', { measure: t('health:measures.SYSTOLIC'), unit })}
            {...numberProps}
            value={draft.systolic}
            error={errorOf('systolic')}
            onChange={(event) => { onChange({ ...draft, systolic: event.target.value }); }}
          />
          <TextField
            label={t('valueIn', { measure: t('health:measures.DIASTOLIC'), unit })}
            {...numberProps}
            value={draft.diastolic}
            error={errorOf('diastolic')}
            onChange={(event) => { onChange({ ...draft, diastolic: event.target.value }); }}
          />
        </div>
      ) : (
        <TextField
          label={t('valueIn', { measure: t(`health:measures.${draft.measure}`), unit })}
          {...numberProps}
          value={draft.value}
          error={errorOf('value')}
          onChange={(event) => { onChange({ ...draft, value: event.target.value }); }}
        />
      )}
      {props.withTime === false ? null : (
        <TextField
          label={t('measuredAt')}
          type="datetime-local"
          max={localInputValue(new Date())}
          value={draft.measuredAt}
          error={errorOf('measuredAt')}
          onChange={(event) => { onChange({ ...draft, measuredAt: event.target.value }); }}
        />
      )}
    </>
  );
}

/** The value of an entry as one line: "128/82 mmHg", "97 %". */
export function entryValueText(t: TFunction, values: EntryValues, units: UnitPreferences, language: string): string {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const unit = unitText(t, entryUnit(values.measure, units));
  return values.measure === 'BLOOD_PRESSURE'
    ? `${number.format(values.systolic ?? 0)}/${number.format(values.diastolic ?? 0)} ${unit}`
    : `${number.format(values.value ?? 0)} ${unit}`;
}
