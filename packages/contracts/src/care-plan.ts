import { z } from 'zod';
import { INTAKE_WINDOW } from './tenant-setting-keys.js';
import { safeName, safeNote, safeText } from './text.js';

/**
 * The care plan's shapes and rules (spec §3 Prescription, Medicine, Reminder; §4 prescription and
 * medication intake states; §5 medicines and reminders): shared by the console's forms, the patient
 * app and the server, which checks every write with the same functions.
 *
 * Rules are pure functions returning problems as `{ path, code }` (the path names the field the
 * screen marks, the code is a message key under `carePlan.problems`), as the entry screens do.
 */

// Medicine (spec §3) ------------------------------------------------------------------------------

export const DOSE_UNITS = ['PILL', 'DROP', 'TEASPOON', 'TABLESPOON'] as const;
export const MEDICINE_ROUTES = [
  'ORAL',
  'RECTAL',
  'INTRAVENOUS',
  'INTRAMUSCULAR',
  'SUBCUTANEOUS',
  'SUBLINGUAL',
  'PULMONARY',
  'TRANSDERMAL',
  'TOPICAL',
] as const;
export const MEDICINE_FORMS = [
  'TABLET',
  'CAPSULE',
  'INJECTABLE',
  'SOLUTION',
  'CREAM',
  'DROPS',
  'SPRAY',
] as const;
export const FREQUENCY_CYCLES = ['DAY', 'WEEK', 'MONTH'] as const;
export const TIMES_OF_DAY = ['MORNING', 'AFTERNOON', 'EVENING', 'NIGHT'] as const;
export const MEAL_DEPENDENCES = ['WITH_MEAL', 'BEFORE_MEAL', 'AFTER_MEAL', 'ANYTIME'] as const;
export const MEDICINE_MODES = ['ON_SCHEDULE', 'ON_DEMAND'] as const;

export type DoseUnit = (typeof DOSE_UNITS)[number];
export type MedicineRoute = (typeof MEDICINE_ROUTES)[number];
export type MedicineForm = (typeof MEDICINE_FORMS)[number];
export type MedicineMode = (typeof MEDICINE_MODES)[number];

/**
 * Spec §5: "Dose 0 to 300. Decimals only in steps 0.125, 0.25, 0.33, 0.5, 0.66, 0.75." A dose of
 * 0 is refused (docs/decisions.md: a reminder to take nothing is a typing slip, never a dose).
 */
export const DOSE_RULES = { max: 300, fractions: [0, 0.125, 0.25, 0.33, 0.5, 0.66, 0.75] } as const;

export type DoseProblem = 'dose.required' | 'dose.range' | 'dose.step';

export function doseProblem(dose: number | null | undefined): DoseProblem | null {
  if (dose === null || dose === undefined || !Number.isFinite(dose)) return 'dose.required';
  if (dose <= 0 || dose > DOSE_RULES.max) return 'dose.range';
  // Compared in thousandths, so 2.33 and 0.125 are exact whatever the binary representation.
  const thousandths = Math.round(dose * 1000);
  if (Math.abs(thousandths - dose * 1000) > 1e-6) return 'dose.step';
  const fraction = thousandths % 1000;
  return DOSE_RULES.fractions.some((allowed) => Math.round(allowed * 1000) === fraction) ? null : 'dose.step';
}

// Reminder schedule (spec §3 Reminder, §5) ----------------------------------------------------------

/** A local wall-clock time, 24-hour "HH:mm". */
export const localTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be HH:mm' });
/** A local calendar date, "yyyy-MM-dd", that exists (2026-02-30 does not). */
export const localDateSchema = z.iso.date();

export const scheduleTimeSchema = z.object({
  label: safeName(60),
  time: localTimeSchema,
});
export type ScheduleTime = z.infer<typeof scheduleTimeSchema>;

/**
 * How a reminder repeats (spec §3): by weekday (1 Monday … 7 Sunday), by days of the month ("1,15"),
 * every n hours from the first time, by a day cycle of active and inactive days (for example 21 on,
 * 7 off), or every n days.
 */
const REPEAT_OPTIONS = [
  z.object({ kind: z.literal('WEEKDAYS'), weekdays: z.array(z.int().min(1).max(7)).max(7) }),
  z.object({ kind: z.literal('MONTH_DAYS'), days: z.string().trim().max(100) }),
  z.object({ kind: z.literal('HOUR_CYCLE'), everyHours: z.int().min(1).max(24) }),
  z.object({
    kind: z.literal('DAY_CYCLE'),
    activeDays: z.int().min(1).max(365),
    inactiveDays: z.int().min(1).max(365),
  }),
  z.object({ kind: z.literal('EVERY_N_DAYS'), everyDays: z.int().min(1).max(365) }),
] as const;
/**
 * A plain union rather than a discriminated one: the console's first screen loads zod's shared
 * chunk, and the discriminated union's code would weigh it past its budget. A failed repeat is
 * reported as the whole "repeat"; screens that mark the exact field ask `repeatIssues`.
 */
export const reminderRepeatSchema = z.union(REPEAT_OPTIONS);

/** The issues of a repeat by its own kind (paths inside the repeat); null for an unknown kind. */
export function repeatIssues(repeat: unknown): z.core.$ZodIssue[] | null {
  const kind =
    typeof repeat === 'object' && repeat !== null ? (repeat as { kind?: unknown }).kind : undefined;
  const option = REPEAT_OPTIONS.find((candidate) => candidate.shape.kind.value === kind);
  if (option === undefined) return null;
  const parsed = option.safeParse(repeat);
  return parsed.success ? [] : parsed.error.issues;
}
export type ReminderRepeat = z.infer<typeof reminderRepeatSchema>;
export type ReminderRepeatKind = ReminderRepeat['kind'];

export const reminderScheduleSchema = z.object({
  times: z.array(scheduleTimeSchema).max(24),
  repeat: reminderRepeatSchema,
  startDate: localDateSchema,
  /** null: forever. */
  endDate: localDateSchema.nullable(),
});
export type ReminderSchedule = z.infer<typeof reminderScheduleSchema>;

export interface CarePlanProblem {
  /** The field, as a path from the checked object ("medicines.1.schedule.times"). */
  path: string;
  /** A message key under carePlan.problems. */
  code: string;
}

/** Spec §5 "Repeat-days format, for example 1,15": the days, or null when the text is not that. */
export function parseMonthDays(text: string): number[] | null {
  if (!/^\s*\d{1,2}(\s*,\s*\d{1,2})*\s*$/.test(text)) return null;
  const days = text.split(',').map((part) => Number(part.trim()));
  if (days.some((day) => day < 1 || day > 31)) return null;
  if (new Set(days).size !== days.length) return null;
  return [...days].sort((a, b) => a - b);
}

function normalizedLabel(label: string): string {
  return label.trim().toLocaleLowerCase();
}

/** Spec §5: at least one time, no duplicate labels or times, repeat rules, start not after end. */
export function scheduleProblems(schedule: ReminderSchedule, path = 'schedule'): CarePlanProblem[] {
  const problems: CarePlanProblem[] = [];
  if (schedule.times.length === 0) problems.push({ path: `${path}.times`, code: 'times.required' });
  const labels = schedule.times.map((item) => normalizedLabel(item.label));
  schedule.times.forEach((item, index) => {
    if (labels.indexOf(normalizedLabel(item.label)) !== index) {
      problems.push({ path: `${path}.times.${index}.label`, code: 'times.duplicateLabel' });
    }
    if (schedule.times.findIndex((other) => other.time === item.time) !== index) {
      problems.push({ path: `${path}.times.${index}.time`, code: 'times.duplicateTime' });
    }
  });
  const { repeat } = schedule;
  if (repeat.kind === 'WEEKDAYS') {
    if (repeat.weekdays.length === 0)
      problems.push({ path: `${path}.repeat.weekdays`, code: 'repeat.weekdaysRequired' });
    else if (new Set(repeat.weekdays).size !== repeat.weekdays.length) {
      problems.push({ path: `${path}.repeat.weekdays`, code: 'repeat.weekdaysRepeated' });
    }
  }
  if (repeat.kind === 'MONTH_DAYS' && parseMonthDays(repeat.days) === null) {
    problems.push({ path: `${path}.repeat.days`, code: 'repeat.monthDaysFormat' });
  }
  if (repeat.kind === 'HOUR_CYCLE' && schedule.times.length > 1) {
    // The cycle counts from one first time; more times would be a second, overlapping cycle.
    problems.push({ path: `${path}.times`, code: 'repeat.hourCycleOneTime' });
  }
  if (schedule.endDate !== null && schedule.startDate > schedule.endDate) {
    problems.push({ path: `${path}.endDate`, code: 'dates.startAfterEnd' });
  }
  return problems;
}

// Medicines and prescriptions ----------------------------------------------------------------------

export const medicineInputSchema = z.object({
  /** A catalogue entry it was picked from, or free text only. */
  catalogueId: safeText().max(40).optional(),
  name: safeName(200),
  dose: z.number(),
  doseUnit: z.enum(DOSE_UNITS),
  strength: safeText().max(60).optional(),
  quantity: z.int().min(1).max(10_000).optional(),
  sideEffects: safeNote(1000).optional(),
  instructions: safeNote(1000).optional(),
  note: safeNote(1000).optional(),
  route: z.enum(MEDICINE_ROUTES),
  form: z.enum(MEDICINE_FORMS),
  frequencyCycle: z.enum(FREQUENCY_CYCLES),
  timesOfDay: z.array(z.enum(TIMES_OF_DAY)).max(TIMES_OF_DAY.length),
  meal: z.enum(MEAL_DEPENDENCES),
  /** The medicine's picture (a stored upload's id) or a colour; neither is required. */
  imageId: z.uuid().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'must be #rrggbb' })
    .optional(),
  mode: z.enum(MEDICINE_MODES),
  /** The reminder schedule: required on schedule, refused on demand (spec §5). */
  schedule: reminderScheduleSchema.nullable(),
});
export type MedicineInput = z.infer<typeof medicineInputSchema>;

export const prescriptionInputSchema = z.object({
  name: safeName(200),
  rxNumber: safeText().max(60).optional(),
  diagnosis: safeNote(2000).optional(),
  doctorInChargeId: z.uuid(),
  noteForPatient: safeNote(2000).optional(),
  startDate: localDateSchema,
  endDate: localDateSchema,
  refills: z.int().min(0).max(99),
  medicines: z.array(medicineInputSchema).max(50),
});
export type PrescriptionInput = z.infer<typeof prescriptionInputSchema>;

/**
 * What makes two medicines of one prescription "the same medicine" (spec §5: a medicine cannot be
 * added twice): the same catalogue entry, else the same name and strength, ignoring case and spaces.
 * Two strengths of one drug (warfarin 1 mg and 5 mg) are two medicines; one drug twice would be
 * two reminders for one dose.
 */
export function medicineIdentity(medicine: Pick<MedicineInput, 'catalogueId' | 'name' | 'strength'>): string {
  if (medicine.catalogueId) return `catalogue:${medicine.catalogueId}`;
  const squash = (text: string | undefined) => (text ?? '').trim().toLocaleLowerCase().replace(/\s+/g, ' ');
  return `name:${squash(medicine.name)}|${squash(medicine.strength).replace(/\s/g, '')}`;
}

export function medicineProblems(medicine: MedicineInput, path = 'medicine'): CarePlanProblem[] {
  const problems: CarePlanProblem[] = [];
  const dose = doseProblem(medicine.dose);
  if (dose !== null) problems.push({ path: `${path}.dose`, code: dose });
  if (medicine.mode === 'ON_DEMAND') {
    if (medicine.schedule !== null)
      problems.push({ path: `${path}.schedule`, code: 'medicine.onDemandNoReminders' });
  } else if (medicine.schedule === null) {
    problems.push({ path: `${path}.schedule.times`, code: 'times.required' });
  } else {
    problems.push(...scheduleProblems(medicine.schedule, `${path}.schedule`));
  }
  return problems;
}

/** Every §5 rule of a prescription and its medicines; an empty list means it may be saved. */
export function prescriptionProblems(prescription: PrescriptionInput): CarePlanProblem[] {
  const problems: CarePlanProblem[] = [];
  if (prescription.startDate > prescription.endDate)
    problems.push({ path: 'endDate', code: 'dates.startAfterEnd' });
  if (prescription.medicines.length === 0) problems.push({ path: 'medicines', code: 'medicines.required' });
  const identities = prescription.medicines.map(medicineIdentity);
  prescription.medicines.forEach((medicine, index) => {
    if (identities.indexOf(medicineIdentity(medicine)) !== index) {
      problems.push({ path: `medicines.${index}.name`, code: 'medicines.duplicate' });
    }
    problems.push(...medicineProblems(medicine, `medicines.${index}`));
  });
  return problems;
}

/** Spec §3 "total days": the days from start to end, both counted. */
export function prescriptionTotalDays(startDate: string, endDate: string): number {
  return (
    Math.round((Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000) + 1
  );
}

// States (spec §4) ----------------------------------------------------------------------------------

export const PRESCRIPTION_STATES = ['IN_USE', 'EXPIRED', 'DEACTIVATED'] as const;
export type PrescriptionState = (typeof PRESCRIPTION_STATES)[number];

/** In use until its end date has passed in the patient's zone; deactivation is permanent. */
export function prescriptionState(
  prescription: { endDate: string; deactivatedAt: Date | null },
  today: string,
): PrescriptionState {
  if (prescription.deactivatedAt !== null) return 'DEACTIVATED';
  return prescription.endDate < today ? 'EXPIRED' : 'IN_USE';
}

export const INTAKE_STATES = [
  'TO_TAKE',
  'TAKEN',
  'TAKEN_LATE',
  'TAKEN_EARLY',
  'SKIPPED',
  'UNCONFIRMED',
] as const;
export type IntakeState = (typeof INTAKE_STATES)[number];

/** How far from the scheduled time a dose counts as on time (either side) where the tenant has not set it. */
export const INTAKE_ON_TIME_MINUTES = INTAKE_WINDOW.defaultMinutes;

/**
 * The state a dose marked taken at `takenAt` gets: early, on time or late by `windowMinutes` (the
 * tenant's INTAKE_WINDOW_MINUTES). Exactly the window away is still on time.
 */
export function takenState(
  scheduledAt: Date,
  takenAt: Date,
  windowMinutes: number = INTAKE_ON_TIME_MINUTES,
): 'TAKEN' | 'TAKEN_EARLY' | 'TAKEN_LATE' {
  const minutes = (takenAt.getTime() - scheduledAt.getTime()) / 60_000;
  if (minutes < -windowMinutes) return 'TAKEN_EARLY';
  if (minutes > windowMinutes) return 'TAKEN_LATE';
  return 'TAKEN';
}

/** Spec §4 patient app states: waiting, taken, missed. */
export function appIntakeState(state: IntakeState): 'WAITING' | 'TAKEN' | 'MISSED' {
  if (state === 'TO_TAKE') return 'WAITING';
  if (state === 'TAKEN' || state === 'TAKEN_LATE' || state === 'TAKEN_EARLY') return 'TAKEN';
  return 'MISSED';
}
