import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appIntakeState,
  doseProblem,
  medicineIdentity,
  parseMonthDays,
  prescriptionInputSchema,
  prescriptionProblems,
  prescriptionState,
  prescriptionTotalDays,
  scheduleProblems,
  takenState,
  type MedicineInput,
  type PrescriptionInput,
  type ReminderSchedule,
} from './care-plan.js';

const schedule = (overrides: Partial<ReminderSchedule> = {}): ReminderSchedule => ({
  times: [
    { label: 'Morning', time: '08:00' },
    { label: 'Evening', time: '20:00' },
  ],
  repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  ...overrides,
});

const medicine = (overrides: Partial<MedicineInput> = {}): MedicineInput => ({
  name: 'Metformin',
  dose: 1,
  doseUnit: 'PILL',
  strength: '500 mg',
  route: 'ORAL',
  form: 'TABLET',
  frequencyCycle: 'DAY',
  timesOfDay: ['MORNING', 'EVENING'],
  meal: 'AFTER_MEAL',
  mode: 'ON_SCHEDULE',
  schedule: schedule(),
  ...overrides,
});

const prescription = (overrides: Partial<PrescriptionInput> = {}): PrescriptionInput => ({
  name: 'Diabetes follow-up',
  doctorInChargeId: '01a2209e-c854-7369-a35c-ef80d1e4289a',
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  refills: 0,
  medicines: [medicine()],
  ...overrides,
});

describe('dose (spec §5: 0 to 300, decimals only in the listed steps)', () => {
  it('accepts whole doses and the listed fractions up to 300', () => {
    for (const dose of [0.125, 0.25, 0.33, 0.5, 0.66, 0.75, 1, 1.5, 2.33, 2.66, 10.125, 299.75, 300]) {
      expect(doseProblem(dose), String(dose)).toBeNull();
    }
  });

  it('refuses 0, negatives and doses above 300', () => {
    for (const dose of [0, -1, -0.5, 300.125, 301, 1000])
      expect(doseProblem(dose), String(dose)).toBe('dose.range');
  });

  it('refuses other decimals and a missing dose', () => {
    for (const dose of [0.1, 0.2, 0.3, 0.333, 0.6, 0.7, 1.05, 2.9, 0.0001])
      expect(doseProblem(dose), String(dose)).toBe('dose.step');
    expect(doseProblem(undefined)).toBe('dose.required');
    expect(doseProblem(Number.NaN)).toBe('dose.required');
  });

  it('accepts exactly whole number plus listed fraction, for every dose in range', () => {
    const fractions = [0, 0.125, 0.25, 0.33, 0.5, 0.66, 0.75];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 299 }), fc.constantFrom(...fractions), (whole, fraction) => {
        const dose = whole + fraction;
        return dose === 0 ? doseProblem(dose) === 'dose.range' : doseProblem(dose) === null;
      }),
    );
    // Whatever is accepted is a whole number plus one of the listed fractions, within (0, 300].
    fc.assert(
      fc.property(fc.double({ min: -10, max: 400, noNaN: true }), (dose) => {
        if (doseProblem(dose) !== null) return true;
        const whole = Math.floor(dose);
        return (
          dose > 0 && dose <= 300 && fractions.some((fraction) => Math.abs(dose - (whole + fraction)) < 1e-9)
        );
      }),
    );
  });
});

describe('reminder schedule', () => {
  it('needs at least one time and refuses duplicate labels (ignoring case) or times', () => {
    expect(scheduleProblems(schedule({ times: [] }))).toEqual([
      { path: 'schedule.times', code: 'times.required' },
    ]);
    expect(
      scheduleProblems(
        schedule({
          times: [
            { label: 'Morning', time: '08:00' },
            { label: 'morning ', time: '09:00' },
            { label: 'Noon', time: '08:00' },
          ],
        }),
      ),
    ).toEqual([
      { path: 'schedule.times.1.label', code: 'times.duplicateLabel' },
      { path: 'schedule.times.2.time', code: 'times.duplicateTime' },
    ]);
  });

  it('needs a weekday, a days-of-month list like 1,15, and one start time for an hour cycle', () => {
    expect(scheduleProblems(schedule({ repeat: { kind: 'WEEKDAYS', weekdays: [] } }))[0]?.code).toBe(
      'repeat.weekdaysRequired',
    );
    expect(scheduleProblems(schedule({ repeat: { kind: 'MONTH_DAYS', days: '1,15' } }))).toEqual([]);
    for (const days of ['', '1;15', '0', '32', '1,1', '1,,2', 'a']) {
      expect(scheduleProblems(schedule({ repeat: { kind: 'MONTH_DAYS', days } }))[0]?.code, days).toBe(
        'repeat.monthDaysFormat',
      );
    }
    expect(scheduleProblems(schedule({ repeat: { kind: 'HOUR_CYCLE', everyHours: 8 } }))[0]?.code).toBe(
      'repeat.hourCycleOneTime',
    );
  });

  it('allows a start on the end date, forever, and refuses a start after the end', () => {
    expect(scheduleProblems(schedule({ startDate: '2026-12-31', endDate: '2026-12-31' }))).toEqual([]);
    expect(scheduleProblems(schedule({ endDate: null }))).toEqual([]);
    expect(scheduleProblems(schedule({ startDate: '2027-01-01' }))).toEqual([
      { path: 'schedule.endDate', code: 'dates.startAfterEnd' },
    ]);
  });

  it('reads days of the month in order, with spaces', () => {
    expect(parseMonthDays(' 15, 1 ,31')).toEqual([1, 15, 31]);
  });
});

describe('prescription', () => {
  it('is valid as written', () => {
    expect(prescriptionInputSchema.parse(prescription())).toBeTruthy();
    expect(prescriptionProblems(prescription())).toEqual([]);
  });

  it('needs a medicine, and refuses one twice (same catalogue entry, or same name and strength)', () => {
    expect(prescriptionProblems(prescription({ medicines: [] }))).toEqual([
      { path: 'medicines', code: 'medicines.required' },
    ]);
    const twice = prescriptionProblems(
      prescription({ medicines: [medicine(), medicine({ name: ' metformin ', strength: '500mg' })] }),
    );
    expect(twice).toEqual([{ path: 'medicines.1.name', code: 'medicines.duplicate' }]);
    const strengths = prescriptionProblems(
      prescription({ medicines: [medicine(), medicine({ strength: '850 mg' })] }),
    );
    expect(strengths).toEqual([]);
    expect(medicineIdentity({ catalogueId: 'ATC-A10BA02', name: 'Other name' })).toBe(
      'catalogue:ATC-A10BA02',
    );
  });

  it('refuses reminders for an on-demand medicine and needs them on schedule', () => {
    expect(prescriptionProblems(prescription({ medicines: [medicine({ mode: 'ON_DEMAND' })] }))).toEqual([
      { path: 'medicines.0.schedule', code: 'medicine.onDemandNoReminders' },
    ]);
    expect(
      prescriptionProblems(prescription({ medicines: [medicine({ mode: 'ON_DEMAND', schedule: null })] })),
    ).toEqual([]);
    expect(prescriptionProblems(prescription({ medicines: [medicine({ schedule: null })] }))).toEqual([
      { path: 'medicines.0.schedule.times', code: 'times.required' },
    ]);
  });

  it('refuses a start after the end and names each medicine problem by its place', () => {
    const problems = prescriptionProblems(
      prescription({
        startDate: '2027-01-01',
        medicines: [medicine(), medicine({ name: 'Aspirin', dose: 0.3 })],
      }),
    );
    expect(problems).toEqual([
      { path: 'endDate', code: 'dates.startAfterEnd' },
      { path: 'medicines.1.dose', code: 'dose.step' },
    ]);
  });

  it('keeps line breaks in notes and refuses control and direction characters in any text', () => {
    const parsed = prescriptionInputSchema.parse(
      prescription({
        diagnosis: 'Type 2 diabetes\nHbA1c 8.1 %',
        medicines: [medicine({ instructions: 'Swallow whole.\nDo not crush.' })],
      }),
    );
    expect(parsed.diagnosis).toBe('Type 2 diabetes\nHbA1c 8.1 %');
    for (const bad of [{ name: 'Rx\u0000' }, { name: 'Rx\u202E' }, { noteForPatient: 'Take\u0007' }]) {
      expect(prescriptionInputSchema.safeParse(prescription(bad)).success, JSON.stringify(bad)).toBe(false);
    }
    expect(
      prescriptionInputSchema.safeParse(prescription({ medicines: [medicine({ name: 'Metformin\nXR' })] }))
        .success,
    ).toBe(false);
  });

  it('refuses impossible dates in the shape', () => {
    expect(prescriptionInputSchema.safeParse(prescription({ startDate: '2026-02-30' })).success).toBe(false);
    expect(prescriptionInputSchema.safeParse(prescription({ startDate: '2028-02-29' })).success).toBe(true);
  });

  it('counts total days with both ends', () => {
    expect(prescriptionTotalDays('2026-12-01', '2026-12-31')).toBe(31);
    expect(prescriptionTotalDays('2026-12-01', '2026-12-01')).toBe(1);
    expect(prescriptionTotalDays('2027-02-01', '2027-03-31')).toBe(59);
  });

  it('is in use to its end date, expired after, deactivated for good', () => {
    const rx = { endDate: '2026-12-31', deactivatedAt: null };
    expect(prescriptionState(rx, '2026-12-31')).toBe('IN_USE');
    expect(prescriptionState(rx, '2027-01-01')).toBe('EXPIRED');
    expect(prescriptionState({ ...rx, deactivatedAt: new Date() }, '2026-12-01')).toBe('DEACTIVATED');
  });
});

describe('intake', () => {
  const at = new Date('2026-12-01T08:00:00Z');
  it('is taken within 30 minutes either side, else early or late', () => {
    expect(takenState(at, new Date('2026-12-01T07:30:00Z'))).toBe('TAKEN');
    expect(takenState(at, new Date('2026-12-01T08:30:00Z'))).toBe('TAKEN');
    expect(takenState(at, new Date('2026-12-01T07:29:00Z'))).toBe('TAKEN_EARLY');
    expect(takenState(at, new Date('2026-12-01T08:31:00Z'))).toBe('TAKEN_LATE');
  });

  it('shows the app its three states', () => {
    expect(appIntakeState('TO_TAKE')).toBe('WAITING');
    expect(appIntakeState('TAKEN_LATE')).toBe('TAKEN');
    expect(appIntakeState('SKIPPED')).toBe('MISSED');
    expect(appIntakeState('UNCONFIRMED')).toBe('MISSED');
  });
});
