import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-error';
import { initI18n } from '../../i18n';
import { fieldMessageText } from '../../lib/form-errors';
import { emptyPrescription, type MedicineValues, type PrescriptionValues } from './form-values';
import { emptySchedule } from './form-values';
import {
  checkPrescription,
  checkReminder,
  hasMessagesUnder,
  problemMessages,
  serverMessages,
} from './problems';
import { withoutMessages } from './use-prescription-form';

beforeAll(async () => {
  await initI18n();
});

const DOCTOR = '00000000-0000-4000-8000-000000000001';

function prescription(...medicines: Partial<MedicineValues>[]): PrescriptionValues {
  const values = emptyPrescription('2026-12-01', DOCTOR, { label: 'Morning', time: '08:00' });
  const [template] = values.medicines;
  if (template === undefined) throw new Error('a new prescription has one medicine');
  return {
    ...values,
    name: 'Blood pressure',
    medicines: medicines.map((medicine, index) => ({
      ...template,
      key: `m${String(index)}`,
      name: 'Amlodipine',
      dose: '1',
      route: 'ORAL',
      form: 'TABLET',
      ...medicine,
    })),
  };
}

const keysOf = (values: PrescriptionValues) =>
  Object.fromEntries(
    Object.entries(checkPrescription(values).messages).map(([path, message]) => [
      path,
      'key' in message ? message.key : message.text,
    ]),
  );

describe('checkPrescription', () => {
  it('passes a valid prescription and hands back the input to send', () => {
    const checked = checkPrescription(prescription({}));
    expect(checked.messages).toEqual({});
    expect(checked.input?.medicines[0]?.dose).toBe(1);
  });

  it('marks the exact field of a repeat the schema refused as a whole', () => {
    const [template] = prescription({}).medicines;
    if (template === undefined) throw new Error('one medicine');
    const keys = keysOf(
      prescription({ schedule: { ...template.schedule, repeatKind: 'HOUR_CYCLE', everyHours: '' } }),
    );
    expect(Object.keys(keys)).toContain('medicines.0.schedule.repeat.everyHours');
    expect(Object.keys(keys)).not.toContain('medicines.0.schedule.repeat');
  });

  it('says the §5 dose rules under the dose, in the care plan’s words', () => {
    expect(keysOf(prescription({ dose: '2.3' }))).toEqual({
      'medicines.0.dose': 'carePlan:problems.dose.step',
    });
    expect(keysOf(prescription({ dose: '301' }))).toEqual({
      'medicines.0.dose': 'carePlan:problems.dose.range',
    });
    // An empty dose is the rule's "Enter a dose", not the schema's bare "required".
    expect(keysOf(prescription({ dose: '' }))['medicines.0.dose']).toBe('carePlan:problems.dose.required');
    const message = checkPrescription(prescription({ dose: '2.3' })).messages['medicines.0.dose'];
    expect(fieldMessageText(message)).toBe('Decimals allowed are only .125, .25, .33, .5, .66 and .75');
  });

  it('puts the schema’s and the rules’ messages side by side, each under its own field', () => {
    const values = { ...prescription({ route: null }, { name: 'Amlodipine', dose: '0.33' }), name: '' };
    expect(keysOf(values)).toEqual({
      name: 'form.required',
      'medicines.0.route': 'form.chooseOne',
      'medicines.1.name': 'carePlan:problems.medicines.duplicate',
    });
  });

  it('checks reminder times, repeats and dates', () => {
    const [template] = prescription({}).medicines;
    if (template === undefined) throw new Error('one medicine');
    const schedule = {
      ...template.schedule,
      times: [
        { key: 'a', label: 'Morning', time: '08:00' },
        { key: 'b', label: 'morning', time: '08:00' },
      ],
      weekdays: [],
      startDate: '10/12/2026',
      endDate: '05/12/2026',
      isForever: false,
    };
    expect(keysOf(prescription({ schedule }))).toEqual({
      'medicines.0.schedule.times.1.label': 'carePlan:problems.times.duplicateLabel',
      'medicines.0.schedule.times.1.time': 'carePlan:problems.times.duplicateTime',
      'medicines.0.schedule.repeat.weekdays': 'carePlan:problems.repeat.weekdaysRequired',
      'medicines.0.schedule.endDate': 'carePlan:problems.dates.startAfterEnd',
    });
    expect(keysOf(prescription({ schedule: { ...schedule, times: [], weekdays: [1] } }))).toEqual({
      'medicines.0.schedule.times': 'carePlan:problems.times.required',
      'medicines.0.schedule.endDate': 'carePlan:problems.dates.startAfterEnd',
    });
  });

  it('says a missing label before a duplicate one, and an unreal date rather than its order', () => {
    const [template] = prescription({}).medicines;
    if (template === undefined) throw new Error('one medicine');
    const schedule = {
      ...template.schedule,
      times: [
        { key: 'a', label: '', time: '08:00' },
        { key: 'b', label: '', time: '20:00' },
      ],
    };
    const values = { ...prescription({ schedule }), startDate: '32/12/2026', endDate: '01/12/2026' };
    const keys = keysOf(values);
    expect(keys['medicines.0.schedule.times.1.label']).toBe('form.required');
    expect(keys.startDate).toBe('form.dateInvalid');
    expect(keys).not.toHaveProperty('endDate');
  });

  it('says how to write a reminder time that is not HH:mm', () => {
    const [template] = prescription({}).medicines;
    if (template === undefined) throw new Error('one medicine');
    const schedule = { ...template.schedule, times: [{ key: 'a', label: 'Morning', time: '8:3' }] };
    const checked = checkPrescription(prescription({ schedule }));
    expect(fieldMessageText(checked.messages['medicines.0.schedule.times.0.time'])).toBe(
      'Enter a time as HH:mm, for example 08:00 or 20:30',
    );
  });

  it('asks for at least one medicine', () => {
    expect(keysOf({ ...prescription({}), medicines: [] })).toEqual({
      medicines: 'carePlan:problems.medicines.required',
    });
  });
});

describe('problemMessages', () => {
  it('keeps the first problem of a field', () => {
    expect(
      problemMessages([
        { path: 'medicines.0.schedule.times', code: 'times.required' },
        { path: 'medicines.0.schedule.times', code: 'repeat.hourCycleOneTime' },
      ]),
    ).toEqual({ 'medicines.0.schedule.times': { key: 'carePlan:problems.times.required' } });
  });
});

describe('serverMessages', () => {
  const request = { method: 'POST', path: '/health/patients/x/prescriptions' };

  it('puts the server’s field errors (body.<path>) under the same fields, in its words', () => {
    const error = new ApiError({
      kind: 'validation',
      status: 400,
      request,
      code: 'prescription.invalid',
      serverMessage: 'Please check the prescription',
      fieldErrors: [
        { field: 'body.medicines.0.dose', code: 'dose.step', message: 'Chỉ cho phép phần thập phân' },
        {
          field: 'body.endDate',
          code: 'dates.startAfterEnd',
          message: 'Ngày bắt đầu không được sau ngày kết thúc',
        },
      ],
    });
    expect(serverMessages(error)).toEqual({
      'medicines.0.dose': { text: 'Chỉ cho phép phần thập phân' },
      endDate: { text: 'Ngày bắt đầu không được sau ngày kết thúc' },
    });
  });

  it('puts a refusal of the doctor under the doctor field, and nothing for other refusals', () => {
    const doctor = new ApiError({
      kind: 'validation',
      status: 400,
      request,
      code: 'doctor.licenseExpired',
      serverMessage: 'The doctor’s license has expired',
    });
    expect(serverMessages(doctor)).toEqual({
      doctorInChargeId: { text: 'The doctor’s license has expired' },
    });
    const gone = new ApiError({ kind: 'validation', status: 409, request, code: 'prescription.deactivated' });
    expect(serverMessages(gone)).toEqual({});
    expect(serverMessages(new Error('offline'))).toEqual({});
  });
});

describe('message housekeeping', () => {
  const messages = {
    medicines: { key: 'a' },
    'medicines.0.dose': { key: 'b' },
    'medicines.0.schedule.times.1.label': { key: 'c' },
    'medicines.10.name': { key: 'd' },
    name: { key: 'e' },
  };

  it('drops a field’s messages and those under it, or one path alone', () => {
    expect(Object.keys(withoutMessages(messages, ['medicines.0']))).toEqual([
      'medicines',
      'medicines.10.name',
      'name',
    ]);
    expect(Object.keys(withoutMessages(messages, [], ['medicines']))).toEqual([
      'medicines.0.dose',
      'medicines.0.schedule.times.1.label',
      'medicines.10.name',
      'name',
    ]);
    expect(withoutMessages(messages, ['rxNumber'])).toBe(messages);
  });

  it('tells which medicine has a message', () => {
    expect(hasMessagesUnder(messages, 'medicines.0.')).toBe(true);
    expect(hasMessagesUnder(messages, 'medicines.1.')).toBe(false);
    expect(hasMessagesUnder(messages, 'medicines.10.')).toBe(true);
  });
});

describe('checkReminder', () => {
  const schedule = emptySchedule('2026-12-01', { label: 'Morning', time: '07:30' });

  it('hands back a reminder with its schedule when it is whole', () => {
    const checked = checkReminder({ title: 'Measure your blood pressure', note: ' ', schedule });
    expect(checked.messages).toEqual({});
    expect(checked.input).toMatchObject({
      title: 'Measure your blood pressure',
      schedule: { times: [{ time: '07:30' }] },
    });
    expect(checked.input).not.toHaveProperty('note');
  });

  it('asks for a title and names the schedule rules under their fields', () => {
    const checked = checkReminder({
      title: '',
      note: '',
      schedule: { ...schedule, repeatKind: 'WEEKDAYS', weekdays: [] },
    });
    expect(checked.input).toBeNull();
    expect(Object.keys(checked.messages).sort()).toEqual(['schedule.repeat.weekdays', 'title']);
  });
});
