import { describe, expect, it } from 'vitest';
import { isCalendarDay, isoDateOf, parsePatientRow, PATIENT_IMPORT_HEADERS } from './import-kind.js';

const yearsAgo = (years: number, days = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCFullYear())}`;
};
/** Patient ID, First, Last, Birthday, Gender, Phone, Email, Height, Weight, Blood, Address, Center, Contract */
const row = (changes: Partial<Record<number, string | number | Date | null>> = {}) => {
  const cells: (string | number | Date | null)[] = [
    '',
    'An',
    'Nguyen',
    '15/04/1960',
    'Male',
    '0981234567',
    'an@example.com',
    168,
    62.5,
    'o+',
    '12 Le Loi',
    'Center A',
    '',
  ];
  for (const [index, value] of Object.entries(changes)) cells[Number(index)] = value ?? null;
  return cells;
};

describe('patient import rows', () => {
  it('knows the days of the calendar as Date does (a date read back unchanged)', () => {
    for (const year of [0, 1, 4, 100, 400, 1600, 1900, 1999, 2000, 2023, 2024, 2100, 9999])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const parsed = new Date(`${iso}T00:00:00Z`);
          const real = !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === iso;
          expect(isCalendarDay(year, month, day), iso).toBe(real);
        }
    expect(isoDateOf('29/02/2024')).toBe('2024-02-29');
    expect(isoDateOf('29/2/2023')).toBe('29/2/2023');
    expect(isoDateOf('5/1/1980')).toBe('1980-01-05');
  });

  it('has the template headers of the spec, in order', () => {
    expect(PATIENT_IMPORT_HEADERS).toEqual([
      'Patient ID',
      'First name',
      'Last name',
      'Birthday (dd/MM/yyyy)',
      'Gender',
      'Phone',
      'Email',
      'Height (cm)',
      'Weight (kg)',
      'Blood type',
      'Address',
      'Health center',
      'Contract ID',
    ]);
  });

  it('reads a valid row: dd/MM/yyyy or a date cell, gender words, numbers, upper-cased blood type', () => {
    const parsed = parsePatientRow(row(), 'en');
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        centerName: 'Center A',
        input: {
          patientCode: null,
          firstName: 'An',
          birthday: '1960-04-15',
          gender: 'MALE',
          phone: '0981234567',
          heightCm: 168,
          weightKg: 62.5,
          bloodType: 'O+',
          address: { line: '12 Le Loi' },
        },
      },
    });
    expect(parsePatientRow(row({ 3: new Date(Date.UTC(1970, 0, 2)), 4: 'Nữ' }), 'vi')).toMatchObject({
      ok: true,
      value: { input: { birthday: '1970-01-02', gender: 'FEMALE' } },
    });
  });

  it.each([
    ['digits in a name', { 1: 'An2' }, 'First name: must not contain digits'],
    ['no last name', { 2: null }, 'Last name: required'],
    ['no birthday', { 3: null }, 'Birthday (dd/MM/yyyy): required'],
    ['an impossible date', { 3: '31/02/1960' }, 'Birthday (dd/MM/yyyy): not a real date'],
    ['a date in another format', { 3: '1960.04.15' }, 'Birthday (dd/MM/yyyy): not a date (dd/MM/yyyy)'],
    ['a birthday in the future', { 3: yearsAgo(-1) }, 'Birthday (dd/MM/yyyy): must not be in the future'],
    ['one day short of 18', { 3: yearsAgo(18, 1) }, 'The patient must be 18 or older'],
    ['a 2-digit phone', { 5: '12' }, 'Phone: must be 3 to 16 digits'],
    ['a bad email', { 6: 'nope' }, 'Email: not a valid email'],
    ['a weight of 700', { 8: 700 }, 'Weight (kg): out of range'],
    ['a height of 0', { 7: 0 }, 'Height (cm): out of range'],
    ['an unknown gender', { 4: 'X' }, 'Gender: not one of the allowed values'],
    ['an unknown blood type', { 9: 'C' }, 'Blood type: not one of the allowed values'],
    [
      'no identifier at all',
      { 0: null, 5: null, 6: null },
      'Enter at least one of patient ID, phone number or email',
    ],
  ])('refuses %s with the reason in English', (_name, changes, reason) => {
    const parsed = parsePatientRow(row(changes), 'en');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.reasons).toContain(reason);
  });

  it.each([
    ['31/02/1980', 'Birthday (dd/MM/yyyy): not a real date'],
    ['29/02/1981', 'Birthday (dd/MM/yyyy): not a real date'],
    ['12/13/1980', 'Birthday (dd/MM/yyyy): not a real date'],
    ['not a date', 'Birthday (dd/MM/yyyy): not a date (dd/MM/yyyy)'],
    [null, 'Birthday (dd/MM/yyyy): required'],
  ])('gives the birthday %s one reason, the most specific', (birthday, reason) => {
    expect(parsePatientRow(row({ 3: birthday }), 'en')).toEqual({ ok: false, reasons: [reason] });
  });

  it('gives a future birthday one reason (not also "under 18"), and one per bad cell', () => {
    expect(parsePatientRow(row({ 3: yearsAgo(-1) }), 'en')).toEqual({
      ok: false,
      reasons: ['Birthday (dd/MM/yyyy): must not be in the future'],
    });
    expect(parsePatientRow(row({ 3: '31/02/1980', 6: 'nope', 8: 700 }), 'vi')).toEqual({
      ok: false,
      reasons: [
        'Birthday (dd/MM/yyyy): không phải là ngày có thật',
        'Email: email không hợp lệ',
        'Weight (kg): ngoài khoảng cho phép',
      ],
    });
  });

  it('accepts a leap day and the boundaries (exactly 18, a 3-digit phone) and writes reasons in Vietnamese', () => {
    expect(parsePatientRow(row({ 3: yearsAgo(18), 5: '123' }), 'en').ok).toBe(true);
    expect(parsePatientRow(row({ 3: '29/02/1980' }), 'en').ok).toBe(true);
    expect(parsePatientRow(row({ 1: 'An2' }), 'vi')).toEqual({
      ok: false,
      reasons: ['First name: không được chứa chữ số'],
    });
  });

  it('keeps an unreadable date for the schema to refuse', () => {
    expect(isoDateOf('1960-04-15')).toBe('1960-04-15');
    expect(isoDateOf('5/4/1960')).toBe('1960-04-05');
    expect(isoDateOf('garbage')).toBe('garbage');
    expect(isoDateOf(null)).toBeNull();
  });
});
