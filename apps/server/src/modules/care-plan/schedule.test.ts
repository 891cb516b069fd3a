import type { ReminderSchedule } from '@rpm/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandSchedule } from './schedule.js';

const TORONTO = 'America/Toronto';
const daily = (
  times: ReminderSchedule['times'],
  overrides: Partial<ReminderSchedule> = {},
): ReminderSchedule => ({
  times,
  repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
  startDate: '2026-01-01',
  endDate: null,
  ...overrides,
});
const iso = (occurrences: { at: Date }[]) => occurrences.map((occurrence) => occurrence.at.toISOString());
const local = (occurrences: { localDate: string; localTime: string }[]) =>
  occurrences.map((occurrence) => `${occurrence.localDate} ${occurrence.localTime}`);

describe('daylight saving time (America/Toronto: 8 March 2026 springs forward, 1 November falls back)', () => {
  it('keeps 08:00 at 08:00 local across both changes', () => {
    const schedule = daily([{ label: 'Morning', time: '08:00' }]);
    expect(
      iso(expandSchedule(schedule, TORONTO, new Date('2026-03-07T00:00Z'), new Date('2026-03-09T23:00Z'))),
    ).toEqual(['2026-03-07T13:00:00.000Z', '2026-03-08T12:00:00.000Z', '2026-03-09T12:00:00.000Z']);
    expect(
      iso(expandSchedule(schedule, TORONTO, new Date('2026-10-31T00:00Z'), new Date('2026-11-02T23:00Z'))),
    ).toEqual(['2026-10-31T12:00:00.000Z', '2026-11-01T13:00:00.000Z', '2026-11-02T13:00:00.000Z']);
  });

  it('takes a time inside the spring gap just after it, and a repeated autumn time once', () => {
    const spring = expandSchedule(
      daily([{ label: 'Night', time: '02:30' }]),
      TORONTO,
      new Date('2026-03-08T00:00Z'),
      new Date('2026-03-09T00:00Z'),
    );
    expect(local(spring)).toEqual(['2026-03-08 03:30']);
    expect(iso(spring)).toEqual(['2026-03-08T07:30:00.000Z']);
    const autumn = expandSchedule(
      daily([{ label: 'Night', time: '01:30' }]),
      TORONTO,
      new Date('2026-11-01T00:00Z'),
      new Date('2026-11-02T00:00Z'),
    );
    expect(iso(autumn)).toEqual(['2026-11-01T05:30:00.000Z']);
  });

  it('counts an hour cycle in real hours across the change', () => {
    const schedule = daily([{ label: 'Antibiotic', time: '22:00' }], {
      repeat: { kind: 'HOUR_CYCLE', everyHours: 8 },
      startDate: '2026-03-07',
    });
    const doses = expandSchedule(
      schedule,
      TORONTO,
      new Date('2026-03-07T00:00Z'),
      new Date('2026-03-09T00:00Z'),
    );
    expect(iso(doses)).toEqual([
      '2026-03-08T03:00:00.000Z',
      '2026-03-08T11:00:00.000Z',
      '2026-03-08T19:00:00.000Z',
    ]);
    expect(local(doses)).toEqual(['2026-03-07 22:00', '2026-03-08 07:00', '2026-03-08 15:00']);
  });

  it('starts an hour cycle window late without losing its rhythm, and stops at the end of the end date', () => {
    const schedule = daily([{ label: 'Antibiotic', time: '06:00' }], {
      repeat: { kind: 'HOUR_CYCLE', everyHours: 6 },
      startDate: '2026-06-01',
      endDate: '2026-06-02',
    });
    const doses = expandSchedule(
      schedule,
      TORONTO,
      new Date('2026-06-02T00:00Z'),
      new Date('2026-06-05T00:00Z'),
    );
    // From 20:00 local on 1 June: the 6-hourly rhythm set by 06:00 on the start date, nothing after 2 June.
    expect(local(doses)).toEqual([
      '2026-06-02 00:00',
      '2026-06-02 06:00',
      '2026-06-02 12:00',
      '2026-06-02 18:00',
    ]);
  });
});

describe('repeats', () => {
  const saigon = 'Asia/Ho_Chi_Minh';
  const window = (from: string, to: string) =>
    [new Date(`${from}T00:00:00+07:00`), new Date(`${to}T00:00:00+07:00`)] as const;

  it('by days of the month, a missing day falling on the month’s last day once', () => {
    const schedule = daily([{ label: 'Injection', time: '09:00' }], {
      repeat: { kind: 'MONTH_DAYS', days: '30,31' },
    });
    const [from, to] = window('2027-01-01', '2027-06-01');
    expect(local(expandSchedule(schedule, saigon, from, to))).toEqual([
      '2027-01-30 09:00',
      '2027-01-31 09:00',
      '2027-02-28 09:00',
      '2027-03-30 09:00',
      '2027-03-31 09:00',
      '2027-04-30 09:00',
      '2027-05-30 09:00',
      '2027-05-31 09:00',
    ]);
    const leap = expandSchedule(
      daily([{ label: 'x', time: '09:00' }], { repeat: { kind: 'MONTH_DAYS', days: '1,15,31' } }),
      saigon,
      ...window('2028-02-01', '2028-03-01'),
    );
    expect(local(leap)).toEqual(['2028-02-01 09:00', '2028-02-15 09:00', '2028-02-29 09:00']);
  });

  it('by weekday (1 Monday … 7 Sunday)', () => {
    const schedule = daily([{ label: 'x', time: '07:00' }], {
      repeat: { kind: 'WEEKDAYS', weekdays: [1, 3, 5] },
    });
    // 30 November 2026 is a Monday.
    expect(local(expandSchedule(schedule, saigon, ...window('2026-11-30', '2026-12-07')))).toEqual([
      '2026-11-30 07:00',
      '2026-12-02 07:00',
      '2026-12-04 07:00',
    ]);
  });

  it('by a day cycle of active and inactive days, counted from the start date', () => {
    const schedule = daily([{ label: 'Pill', time: '21:00' }], {
      repeat: { kind: 'DAY_CYCLE', activeDays: 21, inactiveDays: 7 },
      startDate: '2026-12-01',
    });
    const days = expandSchedule(schedule, saigon, ...window('2026-11-01', '2027-01-31')).map(
      (occurrence) => occurrence.localDate,
    );
    // 1-21 December, 29 December-18 January, 26-30 January (the window ends as 31 January starts).
    expect(days).toHaveLength(21 + 21 + 5);
    expect(days[0]).toBe('2026-12-01');
    expect(days[20]).toBe('2026-12-21');
    expect(days[21]).toBe('2026-12-29');
    expect(days).not.toContain('2026-12-22');
    expect(days).not.toContain('2026-12-28');
  });

  it('every n days, from the start date to the end date only', () => {
    const schedule = daily([{ label: 'x', time: '10:00' }], {
      repeat: { kind: 'EVERY_N_DAYS', everyDays: 3 },
      startDate: '2026-12-02',
      endDate: '2026-12-14',
    });
    expect(
      expandSchedule(schedule, saigon, ...window('2026-11-01', '2027-01-01')).map((o) => o.localDate),
    ).toEqual(['2026-12-02', '2026-12-05', '2026-12-08', '2026-12-11', '2026-12-14']);
  });

  it('includes the window’s start and excludes its end, and orders several times a day', () => {
    const schedule = daily([
      { label: 'Evening', time: '20:00' },
      { label: 'Morning', time: '08:00' },
    ]);
    const doses = expandSchedule(
      schedule,
      saigon,
      new Date('2026-12-01T08:00:00+07:00'),
      new Date('2026-12-02T08:00:00+07:00'),
    );
    expect(doses.map((dose) => `${dose.label} ${dose.localDate} ${dose.localTime}`)).toEqual([
      'Morning 2026-12-01 08:00',
      'Evening 2026-12-01 20:00',
    ]);
  });

  it('gives, in a zone without daylight saving, one dose per time per day and only at those times', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 24 * 60 - 1 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        (minutes, dayCount) => {
          const times = minutes.map((minute, index) => ({
            label: `T${index}`,
            time: `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`,
          }));
          const from = new Date('2026-12-01T00:00:00+07:00');
          const to = new Date(from.getTime() + dayCount * 86_400_000);
          const doses = expandSchedule(daily(times), saigon, from, to);
          const wanted = new Set(times.map((time) => time.time));
          return (
            doses.length === dayCount * times.length && doses.every((dose) => wanted.has(dose.localTime))
          );
        },
      ),
    );
  });
});
