import { describe, expect, it } from 'vitest';
import { prescriptionInputSchema, repeatIssues, type PrescriptionDetail } from '@rpm/contracts';
import {
  addDays,
  daysBetween,
  emptyMedicine,
  emptyPrescription,
  formatTimeTyping,
  parseDose,
  todayIn,
  toPrescriptionInput,
  valuesFromDetail,
  type PrescriptionValues,
} from './form-values';

const DOCTOR = '00000000-0000-4000-8000-000000000001';
const MORNING = { label: 'Morning', time: '08:00' };

function detail(overrides: Partial<PrescriptionDetail> = {}): PrescriptionDetail {
  return {
    id: '00000000-0000-4000-8000-000000000101',
    patientId: '00000000-0000-4000-8000-000000000201',
    name: 'Diabetes control',
    rxNumber: 'RX-1001',
    state: 'IN_USE',
    startDate: '2026-12-01',
    endDate: '2026-12-30',
    totalDays: 30,
    refills: 1,
    doctorInCharge: { id: DOCTOR, fullName: 'Linh Nguyen' },
    medicineCount: 2,
    replacesId: null,
    replacedById: null,
    createdAt: '2026-12-01T06:00:00.000Z',
    deactivatedAt: null,
    diagnosis: 'Type 2 diabetes',
    noteForPatient: null,
    createdBy: { id: DOCTOR, fullName: 'Linh Nguyen' },
    deactivatedBy: null,
    medicines: [
      {
        id: '00000000-0000-4000-8000-000000000302',
        position: 1,
        catalogueId: null,
        name: 'Paracetamol',
        dose: 0.5,
        doseUnit: 'PILL',
        strength: '500 mg',
        quantity: null,
        sideEffects: null,
        instructions: null,
        note: null,
        route: 'ORAL',
        form: 'TABLET',
        frequencyCycle: 'DAY',
        timesOfDay: [],
        meal: 'ANYTIME',
        imageId: null,
        color: null,
        mode: 'ON_DEMAND',
        schedule: null,
      },
      {
        id: '00000000-0000-4000-8000-000000000301',
        position: 0,
        catalogueId: 'A10BA02',
        name: 'Metformin',
        dose: 1,
        doseUnit: 'PILL',
        strength: '500 mg',
        quantity: 60,
        sideEffects: 'Nausea',
        instructions: 'After meals',
        note: null,
        route: 'ORAL',
        form: 'TABLET',
        frequencyCycle: 'DAY',
        timesOfDay: ['MORNING', 'EVENING'],
        meal: 'AFTER_MEAL',
        imageId: null,
        color: '#1971c2',
        mode: 'ON_SCHEDULE',
        schedule: {
          times: [
            { label: 'Morning', time: '08:00' },
            { label: 'Evening', time: '20:00' },
          ],
          repeat: { kind: 'WEEKDAYS', weekdays: [5, 1, 3] },
          startDate: '2026-12-03',
          endDate: '2026-12-20',
        },
      },
    ],
    ...overrides,
  };
}

describe('calendar days', () => {
  it('adds days across months and years, and counts between days', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(daysBetween('2026-12-01', '2026-12-30')).toBe(29);
    expect(daysBetween('2026-12-30', '2026-12-01')).toBe(-29);
  });

  it('knows today in a time zone, not in the machine’s', () => {
    // 23:30 UTC on 31 December is already 1 January in Ho Chi Minh City.
    const now = new Date('2026-12-31T23:30:00Z');
    expect(todayIn('UTC', now)).toBe('2026-12-31');
    expect(todayIn('Asia/Ho_Chi_Minh', now)).toBe('2027-01-01');
  });
});

describe('parseDose', () => {
  it('reads a dose with a point or a comma, and nothing else', () => {
    expect(parseDose('1')).toBe(1);
    expect(parseDose(' 0.5 ')).toBe(0.5);
    expect(parseDose('0,125')).toBe(0.125);
    expect(parseDose('')).toBeNaN();
    expect(parseDose('1/2')).toBeNaN();
    expect(parseDose('-1')).toBeNaN();
    expect(parseDose('1.2.3')).toBeNaN();
  });
});

describe('formatTimeTyping', () => {
  it('puts the colon in as digits are typed, 24-hour, digits only', () => {
    expect(formatTimeTyping('0')).toBe('0');
    expect(formatTimeTyping('08')).toBe('08');
    expect(formatTimeTyping('083')).toBe('08:3');
    expect(formatTimeTyping('0830')).toBe('08:30');
    expect(formatTimeTyping('08:30')).toBe('08:30');
    expect(formatTimeTyping('20:305')).toBe('20:30');
    // Backspace over the colon removes a digit, never sticks.
    expect(formatTimeTyping('08:')).toBe('08');
    expect(formatTimeTyping('8 pm')).toBe('8');
  });
});

describe('toPrescriptionInput', () => {
  function filled(): PrescriptionValues {
    const values = emptyPrescription('2026-12-01', DOCTOR, MORNING);
    const [medicine] = values.medicines;
    if (medicine === undefined) throw new Error('a new prescription has one medicine');
    return {
      ...values,
      name: ' Blood pressure ',
      medicines: [{ ...medicine, name: 'Amlodipine', dose: '1', route: 'ORAL', form: 'TABLET' }],
    };
  }

  it('starts a new prescription today for 30 days, one daily reminder as long as it lasts', () => {
    const input = toPrescriptionInput(filled());
    expect(input).toMatchObject({
      startDate: '2026-12-01',
      endDate: '2026-12-30',
      refills: 0,
      doctorInChargeId: DOCTOR,
    });
    expect(input.medicines[0]?.schedule).toEqual({
      times: [MORNING],
      repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
      startDate: '2026-12-01',
      endDate: null,
    });
    const parsed = prescriptionInputSchema.parse(input);
    expect(parsed.name).toBe('Blood pressure');
  });

  it('leaves out empty optional fields, and sends no reminders for a medicine on demand', () => {
    const values = filled();
    const [medicine] = values.medicines;
    if (medicine === undefined) throw new Error('one medicine');
    const input = toPrescriptionInput({ ...values, medicines: [{ ...medicine, mode: 'ON_DEMAND' }] });
    expect(input).not.toHaveProperty('rxNumber');
    expect(input).not.toHaveProperty('diagnosis');
    expect(input.medicines[0]).not.toHaveProperty('strength');
    expect(input.medicines[0]).not.toHaveProperty('quantity');
    expect(input.medicines[0]).not.toHaveProperty('color');
    expect(input.medicines[0]?.schedule).toBeNull();
  });

  it('hands the schema what it must judge: a missing choice, an unreal date, an empty number', () => {
    const values = filled();
    const [medicine] = values.medicines;
    if (medicine === undefined) throw new Error('one medicine');
    const input = toPrescriptionInput({
      ...values,
      doctorInChargeId: null,
      endDate: '31/02/2027',
      refills: '',
      medicines: [
        {
          ...medicine,
          route: null,
          schedule: { ...medicine.schedule, repeatKind: 'HOUR_CYCLE', everyHours: '' },
        },
      ],
    });
    const result = prescriptionInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'doctorInChargeId',
        'endDate',
        'refills',
        'medicines.0.route',
        'medicines.0.schedule.repeat',
      ]),
    );
    // The repeat by its own kind names the field (the form marks it: problems.test.ts).
    const repeat = (input.medicines[0] as { schedule: { repeat: unknown } } | undefined)?.schedule.repeat;
    expect(repeatIssues(repeat)?.map((issue) => issue.path.join('.'))).toEqual(['everyHours']);
  });

  it('sends each repeat kind with its own fields only', () => {
    const values = filled();
    const [medicine] = values.medicines;
    if (medicine === undefined) throw new Error('one medicine');
    const repeatOf = (schedule: Partial<typeof medicine.schedule>) =>
      toPrescriptionInput({
        ...values,
        medicines: [{ ...medicine, schedule: { ...medicine.schedule, ...schedule } }],
      }).medicines[0]?.schedule?.repeat;
    expect(repeatOf({ repeatKind: 'MONTH_DAYS', monthDays: '1,15' })).toEqual({
      kind: 'MONTH_DAYS',
      days: '1,15',
    });
    expect(repeatOf({ repeatKind: 'DAY_CYCLE', activeDays: 21, inactiveDays: 7 })).toEqual({
      kind: 'DAY_CYCLE',
      activeDays: 21,
      inactiveDays: 7,
    });
    expect(repeatOf({ repeatKind: 'EVERY_N_DAYS', everyDays: 3 })).toEqual({
      kind: 'EVERY_N_DAYS',
      everyDays: 3,
    });
    expect(repeatOf({ repeatKind: 'WEEKDAYS', weekdays: [5, 1] })).toEqual({
      kind: 'WEEKDAYS',
      weekdays: [1, 5],
    });
  });

  it('a new medicine starts from the prescription’s start date', () => {
    const medicine = emptyMedicine('05/12/2026', MORNING);
    expect(medicine.schedule.startDate).toBe('05/12/2026');
    expect(medicine.mode).toBe('ON_SCHEDULE');
  });
});

describe('valuesFromDetail', () => {
  it('edits a prescription as stored: medicines in order, the same input back', () => {
    const stored = detail();
    const values = valuesFromDetail(stored, 'edit', '2026-12-10', MORNING);
    expect(values.startDate).toBe('01/12/2026');
    expect(values.medicines.map((medicine) => medicine.name)).toEqual(['Metformin', 'Paracetamol']);
    const input = prescriptionInputSchema.parse(toPrescriptionInput(values));
    expect(input).toEqual({
      name: 'Diabetes control',
      rxNumber: 'RX-1001',
      diagnosis: 'Type 2 diabetes',
      doctorInChargeId: DOCTOR,
      startDate: '2026-12-01',
      endDate: '2026-12-30',
      refills: 1,
      medicines: [
        {
          catalogueId: 'A10BA02',
          name: 'Metformin',
          dose: 1,
          doseUnit: 'PILL',
          strength: '500 mg',
          quantity: 60,
          sideEffects: 'Nausea',
          instructions: 'After meals',
          route: 'ORAL',
          form: 'TABLET',
          frequencyCycle: 'DAY',
          timesOfDay: ['MORNING', 'EVENING'],
          meal: 'AFTER_MEAL',
          color: '#1971c2',
          mode: 'ON_SCHEDULE',
          schedule: {
            times: [
              { label: 'Morning', time: '08:00' },
              { label: 'Evening', time: '20:00' },
            ],
            repeat: { kind: 'WEEKDAYS', weekdays: [1, 3, 5] },
            startDate: '2026-12-03',
            endDate: '2026-12-20',
          },
        },
        {
          name: 'Paracetamol',
          dose: 0.5,
          doseUnit: 'PILL',
          strength: '500 mg',
          route: 'ORAL',
          form: 'TABLET',
          frequencyCycle: 'DAY',
          timesOfDay: [],
          meal: 'ANYTIME',
          mode: 'ON_DEMAND',
          schedule: null,
        },
      ],
    });
  });

  it('reuses a prescription from today for as many days, every reminder date moved alike', () => {
    const values = valuesFromDetail(detail(), 'reuse', '2027-02-10', MORNING);
    expect(values.startDate).toBe('10/02/2027');
    expect(values.endDate).toBe('11/03/2027');
    const schedule = values.medicines[0]?.schedule;
    expect(schedule?.startDate).toBe('12/02/2027');
    expect(schedule?.endDate).toBe('01/03/2027');
    // The medicine on demand keeps an editable reminder ready, from the new start.
    expect(values.medicines[1]?.schedule.startDate).toBe('10/02/2027');
    expect(values.medicines[1]?.mode).toBe('ON_DEMAND');
  });

  it('never moves a reminder date before today', () => {
    const stored = detail();
    const [onDemand, scheduled] = stored.medicines;
    if (scheduled?.schedule == null || onDemand === undefined) throw new Error('two medicines');
    const early = { ...scheduled, schedule: { ...scheduled.schedule, startDate: '2026-11-20' } };
    const values = valuesFromDetail(
      { ...stored, medicines: [onDemand, early] },
      'reuse',
      '2027-02-10',
      MORNING,
    );
    expect(values.medicines.find((medicine) => medicine.name === 'Metformin')?.schedule.startDate).toBe(
      '10/02/2027',
    );
  });
});
