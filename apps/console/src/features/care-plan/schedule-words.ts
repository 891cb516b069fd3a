import type { DoseUnit, ReminderRepeat, ReminderSchedule, ScheduleTime } from '@rpm/contracts';
import type { TFunction } from 'i18next';
import { toDisplayDate } from '../../lib/format';
import { ALL_WEEKDAYS } from './form-values';

/**
 * A medicine's dose and reminders said in words, in the reader's language: "1 pill", "0,5 viên";
 * "Every Mon, Wed and Fri at 08:00 (Morning), from 01/12/2026 until the prescription ends".
 */

type CarePlanT = TFunction<'carePlan'>;

export type WeekdayKey = '1' | '2' | '3' | '4' | '5' | '6' | '7';
/** A weekday (1 Monday … 7 Sunday) as its message key under `weekdays.short` and `weekdays.long`. */
export const weekdayKey = (day: number) => String(day) as WeekdayKey;

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A dose as the language writes numbers, up to the thousandths the §5 steps need (0.125). */
export function formatDose(dose: number, language: string): string {
  let format = numberFormats.get(language);
  if (format === undefined) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 3, numberingSystem: 'latn' });
    numberFormats.set(language, format);
  }
  return format.format(dose);
}

/** "1 pill", "1.5 pills", "0,5 viên": one up to a whole unit, several above. */
export function doseText(dose: number, unit: DoseUnit, t: CarePlanT, language: string): string {
  const amount = formatDose(dose, language);
  return dose > 1
    ? t(`doseAmount.${unit}.several`, { dose: amount })
    : t(`doseAmount.${unit}.single`, { dose: amount });
}

/** The items of a list joined the language's way ("Mon, Wed and Fri"; "T2, T4 và T6"). */
export function joinList(items: readonly string[], language: string): string {
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(items);
}

/** "08:00 (Morning), 20:00 (Evening)", in time order. */
export function timesText(times: readonly ScheduleTime[], t: CarePlanT, language: string): string {
  const sorted = [...times].sort((a, b) => a.time.localeCompare(b.time));
  return joinList(
    sorted.map((item) =>
      item.label.trim() === '' ? item.time : t('words.timeWithLabel', { time: item.time, label: item.label }),
    ),
    language,
  );
}

function repeatText(repeat: ReminderRepeat, t: CarePlanT, language: string): string {
  switch (repeat.kind) {
    case 'WEEKDAYS': {
      const days = [...new Set(repeat.weekdays)].sort((a, b) => a - b);
      if (days.length === ALL_WEEKDAYS.length) return t('words.everyDay');
      return t('words.weekdays', {
        days: joinList(
          days.map((day) => t(`weekdays.short.${weekdayKey(day)}`)),
          language,
        ),
      });
    }
    case 'MONTH_DAYS':
      return t('words.monthDays', {
        days: repeat.days
          .split(',')
          .map((day) => day.trim())
          .join(', '),
      });
    case 'HOUR_CYCLE':
      return t('words.hourCycle', { count: repeat.everyHours });
    case 'DAY_CYCLE':
      return t('words.dayCycle', {
        active: t('words.days', { count: repeat.activeDays }),
        inactive: t('words.days', { count: repeat.inactiveDays }),
      });
    case 'EVERY_N_DAYS':
      return repeat.everyDays === 1
        ? t('words.everyDay')
        : t('words.everyNDays', { count: repeat.everyDays });
  }
}

/** The period reminders run: "from 01/12/2026 until 31/12/2026" or "… until the prescription ends". */
export function periodText(
  schedule: Pick<ReminderSchedule, 'startDate' | 'endDate'>,
  t: CarePlanT,
  openEnd: OpenEnd = 'prescription',
): string {
  const start = toDisplayDate(schedule.startDate);
  return schedule.endDate === null
    ? t(openEnd === 'prescription' ? 'words.periodOpen' : 'words.periodForever', { start })
    : t('words.period', { start, end: toDisplayDate(schedule.endDate) });
}

/** What a schedule without an end date lasts: its prescription (a medicine's) or for good (a care reminder). */
export type OpenEnd = 'prescription' | 'forever';

/** A whole reminder schedule as one sentence. */
export function scheduleInWords(
  schedule: ReminderSchedule,
  t: CarePlanT,
  language: string,
  openEnd: OpenEnd = 'prescription',
): string {
  const repeat = repeatText(schedule.repeat, t, language);
  const times = timesText(schedule.times, t, language);
  const period = periodText(schedule, t, openEnd);
  // Every n hours counts from the one first time: "from 08:00", not "at 08:00".
  return schedule.repeat.kind === 'HOUR_CYCLE'
    ? t('words.sentenceFrom', { repeat, times, period })
    : t('words.sentenceAt', { repeat, times, period });
}
