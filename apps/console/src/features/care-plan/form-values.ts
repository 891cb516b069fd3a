import type {
  DoseUnit,
  FREQUENCY_CYCLES,
  MEAL_DEPENDENCES,
  Medicine,
  MedicineForm,
  MedicineInput,
  MedicineMode,
  MedicineRoute,
  PrescriptionDetail,
  PrescriptionInput,
  ReminderRepeat,
  ReminderRepeatKind,
  ReminderSchedule,
  TIMES_OF_DAY,
} from '@rpm/contracts';
import { displayDateForSchema, toDisplayDate } from '../../lib/format';

/**
 * The prescription form's values as the screen holds them (text as typed, dates as dd/MM/yyyy,
 * empty numbers as ''), and their conversion to and from the contract's PrescriptionInput. The
 * contract's schema and §5 rules judge what the conversion hands them; nothing is decided here.
 */

export type FrequencyCycle = (typeof FREQUENCY_CYCLES)[number];
export type TimeOfDay = (typeof TIMES_OF_DAY)[number];
export type MealDependence = (typeof MEAL_DEPENDENCES)[number];
/** A number input's value: '' while empty. */
export type NumberValue = number | '';

export const REPEAT_KINDS: readonly ReminderRepeatKind[] = [
  'WEEKDAYS',
  'MONTH_DAYS',
  'HOUR_CYCLE',
  'DAY_CYCLE',
  'EVERY_N_DAYS',
];
export const ALL_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export interface ScheduleTimeValues {
  /** React's key for the row; never sent. */
  key: string;
  label: string;
  time: string;
}

export interface ScheduleValues {
  times: ScheduleTimeValues[];
  repeatKind: ReminderRepeatKind;
  weekdays: number[];
  monthDays: string;
  everyHours: NumberValue;
  activeDays: NumberValue;
  inactiveDays: NumberValue;
  everyDays: NumberValue;
  startDate: string;
  endDate: string;
  /** No end date: the reminders last as long as the prescription. */
  isForever: boolean;
}

export interface MedicineValues {
  key: string;
  catalogueId: string | null;
  name: string;
  /** As typed ("0.5", "0,5"): the §5 rules judge the number it reads as. */
  dose: string;
  doseUnit: DoseUnit;
  strength: string;
  quantity: NumberValue;
  sideEffects: string;
  instructions: string;
  note: string;
  route: MedicineRoute | null;
  form: MedicineForm | null;
  frequencyCycle: FrequencyCycle;
  timesOfDay: TimeOfDay[];
  meal: MealDependence;
  /** A picture kept from the prescription edited or reused (the console does not upload one yet). */
  imageId: string | null;
  color: string;
  mode: MedicineMode;
  /** Kept while the medicine is on demand, so switching back does not lose it; sent only on schedule. */
  schedule: ScheduleValues;
}

export interface PrescriptionValues {
  name: string;
  rxNumber: string;
  diagnosis: string;
  doctorInChargeId: string | null;
  noteForPatient: string;
  startDate: string;
  endDate: string;
  refills: NumberValue;
  medicines: MedicineValues[];
}

let keySequence = 0;
/** A key for a new list row, unique in this page. */
export function newKey(): string {
  keySequence += 1;
  return `row-${String(keySequence)}`;
}

// Dates --------------------------------------------------------------------------------------------

/** The calendar day `days` after an ISO day (before, when negative). */
export function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole days from one ISO day to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Today's calendar day in a time zone (lib/today, shared with the medical records' form). */
export { todayIn } from '../../lib/today';

// Numbers ------------------------------------------------------------------------------------------

/**
 * A typed dose as a number: digits with one decimal point or comma (vi writes 0,5); NaN for
 * anything else, which the §5 rule reports as "enter a dose".
 */
export function parseDose(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+([.,]\d+)?$/.test(trimmed)) return Number.NaN;
  return Number(trimmed.replace(',', '.'));
}

/**
 * Puts the colon in while a time is typed ("0830" -> "08:30"), 24-hour as the product writes times
 * (spec §9), so people type digits only; the colon appears once a digit follows it.
 */
export function formatTimeTyping(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

const optionalText = (text: string): string | undefined => (text.trim() === '' ? undefined : text);
const optionalNumber = (value: NumberValue): number | undefined => (value === '' ? undefined : value);

// New values ---------------------------------------------------------------------------------------

/** A new medicine's reminders: one time, every day, from the prescription's start, as long as it lasts. */
export function emptySchedule(startDate: string, firstTime: { label: string; time: string }): ScheduleValues {
  return {
    times: [{ key: newKey(), ...firstTime }],
    repeatKind: 'WEEKDAYS',
    weekdays: [...ALL_WEEKDAYS],
    monthDays: '',
    everyHours: '',
    activeDays: '',
    inactiveDays: '',
    everyDays: '',
    startDate,
    endDate: '',
    isForever: true,
  };
}

export function emptyMedicine(startDate: string, firstTime: { label: string; time: string }): MedicineValues {
  return {
    key: newKey(),
    catalogueId: null,
    name: '',
    dose: '',
    doseUnit: 'PILL',
    strength: '',
    quantity: '',
    sideEffects: '',
    instructions: '',
    note: '',
    route: null,
    form: null,
    frequencyCycle: 'DAY',
    timesOfDay: [],
    meal: 'ANYTIME',
    imageId: null,
    color: '',
    mode: 'ON_SCHEDULE',
    schedule: emptySchedule(startDate, firstTime),
  };
}

/** A new prescription from `today` for 30 days, one medicine to fill in. */
export function emptyPrescription(
  today: string,
  doctorInChargeId: string | null,
  firstTime: { label: string; time: string },
): PrescriptionValues {
  const startDate = toDisplayDate(today);
  return {
    name: '',
    rxNumber: '',
    diagnosis: '',
    doctorInChargeId,
    noteForPatient: '',
    startDate,
    endDate: toDisplayDate(addDays(today, 29)),
    refills: 0,
    medicines: [emptyMedicine(startDate, firstTime)],
  };
}

// From a stored prescription -----------------------------------------------------------------------

function scheduleValues(schedule: ReminderSchedule, shift: (day: string) => string): ScheduleValues {
  const { repeat } = schedule;
  return {
    times: schedule.times.map((item) => ({ key: newKey(), label: item.label, time: item.time })),
    repeatKind: repeat.kind,
    weekdays: repeat.kind === 'WEEKDAYS' ? [...repeat.weekdays].sort((a, b) => a - b) : [...ALL_WEEKDAYS],
    monthDays: repeat.kind === 'MONTH_DAYS' ? repeat.days : '',
    everyHours: repeat.kind === 'HOUR_CYCLE' ? repeat.everyHours : '',
    activeDays: repeat.kind === 'DAY_CYCLE' ? repeat.activeDays : '',
    inactiveDays: repeat.kind === 'DAY_CYCLE' ? repeat.inactiveDays : '',
    everyDays: repeat.kind === 'EVERY_N_DAYS' ? repeat.everyDays : '',
    startDate: toDisplayDate(shift(schedule.startDate)),
    endDate: schedule.endDate === null ? '' : toDisplayDate(shift(schedule.endDate)),
    isForever: schedule.endDate === null,
  };
}

function medicineValues(
  medicine: Medicine,
  shift: (day: string) => string,
  startDate: string,
  firstTime: { label: string; time: string },
): MedicineValues {
  return {
    key: newKey(),
    catalogueId: medicine.catalogueId,
    name: medicine.name,
    dose: String(medicine.dose),
    doseUnit: medicine.doseUnit,
    strength: medicine.strength ?? '',
    quantity: medicine.quantity ?? '',
    sideEffects: medicine.sideEffects ?? '',
    instructions: medicine.instructions ?? '',
    note: medicine.note ?? '',
    route: medicine.route,
    form: medicine.form,
    frequencyCycle: medicine.frequencyCycle,
    timesOfDay: [...medicine.timesOfDay],
    meal: medicine.meal,
    imageId: medicine.imageId,
    color: medicine.color ?? '',
    mode: medicine.mode,
    schedule:
      medicine.schedule === null
        ? emptySchedule(startDate, firstTime)
        : scheduleValues(medicine.schedule, shift),
  };
}

/**
 * The form's values for a stored prescription. `edit` keeps its dates. `reuse` starts it again
 * today for as many days, every reminder date moved by the same number of days (never before today).
 */
export function valuesFromDetail(
  detail: PrescriptionDetail,
  purpose: 'edit' | 'reuse',
  today: string,
  firstTime: { label: string; time: string },
): PrescriptionValues {
  const offset = purpose === 'reuse' ? daysBetween(detail.startDate, today) : 0;
  const shift = (day: string) => {
    if (offset === 0) return day;
    const moved = addDays(day, offset);
    return moved < today ? today : moved;
  };
  const startDate = toDisplayDate(shift(detail.startDate));
  return {
    name: detail.name,
    rxNumber: detail.rxNumber ?? '',
    diagnosis: detail.diagnosis ?? '',
    doctorInChargeId: detail.doctorInCharge.id,
    noteForPatient: detail.noteForPatient ?? '',
    startDate,
    endDate: toDisplayDate(shift(detail.endDate)),
    refills: detail.refills,
    medicines: [...detail.medicines]
      .sort((a, b) => a.position - b.position)
      .map((medicine) => medicineValues(medicine, shift, startDate, firstTime)),
  };
}

// To the contract ----------------------------------------------------------------------------------

/** The entries whose value is set: a field left out is one the schema calls "required". */
function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

// An empty number or date goes as undefined, an unreadable date as typed: the schema then says
// "required" or "not a date" under its field. Hence the casts: this is what the schema is to judge.

function repeatOf(schedule: ScheduleValues): ReminderRepeat {
  switch (schedule.repeatKind) {
    case 'WEEKDAYS':
      return { kind: 'WEEKDAYS', weekdays: [...schedule.weekdays].sort((a, b) => a - b) };
    case 'MONTH_DAYS':
      return { kind: 'MONTH_DAYS', days: schedule.monthDays };
    case 'HOUR_CYCLE':
      return defined({
        kind: 'HOUR_CYCLE',
        everyHours: optionalNumber(schedule.everyHours),
      }) as ReminderRepeat;
    case 'DAY_CYCLE':
      return defined({
        kind: 'DAY_CYCLE',
        activeDays: optionalNumber(schedule.activeDays),
        inactiveDays: optionalNumber(schedule.inactiveDays),
      }) as ReminderRepeat;
    case 'EVERY_N_DAYS':
      return defined({
        kind: 'EVERY_N_DAYS',
        everyDays: optionalNumber(schedule.everyDays),
      }) as ReminderRepeat;
  }
}

/** A schedule as the contract shapes it, not yet checked (see toPrescriptionInput). */
export function scheduleInput(schedule: ScheduleValues): ReminderSchedule {
  return defined({
    times: schedule.times.map((item) => ({ label: item.label, time: item.time })),
    repeat: repeatOf(schedule),
    startDate: displayDateForSchema(schedule.startDate),
    endDate: schedule.isForever ? null : displayDateForSchema(schedule.endDate),
  }) as unknown as ReminderSchedule;
}

function medicineInput(medicine: MedicineValues): MedicineInput {
  return defined({
    catalogueId: medicine.catalogueId ?? undefined,
    name: medicine.name,
    dose: parseDose(medicine.dose),
    doseUnit: medicine.doseUnit,
    strength: optionalText(medicine.strength),
    quantity: optionalNumber(medicine.quantity),
    sideEffects: optionalText(medicine.sideEffects),
    instructions: optionalText(medicine.instructions),
    note: optionalText(medicine.note),
    route: medicine.route ?? undefined,
    form: medicine.form ?? undefined,
    frequencyCycle: medicine.frequencyCycle,
    timesOfDay: medicine.timesOfDay,
    meal: medicine.meal,
    imageId: medicine.imageId ?? undefined,
    color: optionalText(medicine.color),
    mode: medicine.mode,
    schedule: medicine.mode === 'ON_SCHEDULE' ? scheduleInput(medicine.schedule) : null,
  }) as unknown as MedicineInput;
}

/**
 * What the form sends, shaped as PrescriptionInput but not yet checked: an unchosen or empty field
 * is left out (the schema says "required"), an unreadable date or dose is passed as typed (the
 * schema or the §5 rule says what is wrong with it).
 */
export function toPrescriptionInput(values: PrescriptionValues): PrescriptionInput {
  return defined({
    name: values.name,
    rxNumber: optionalText(values.rxNumber),
    diagnosis: optionalText(values.diagnosis),
    doctorInChargeId: values.doctorInChargeId ?? undefined,
    noteForPatient: optionalText(values.noteForPatient),
    startDate: displayDateForSchema(values.startDate),
    endDate: displayDateForSchema(values.endDate),
    refills: optionalNumber(values.refills),
    medicines: values.medicines.map(medicineInput),
  }) as unknown as PrescriptionInput;
}
