import { beforeAll, describe, expect, it } from 'vitest';
import type { ReminderSchedule } from '@rpm/contracts';
import { i18n, initI18n } from '../../i18n';
import { doseText, formatDose, scheduleInWords, timesText } from './schedule-words';
import { usageDays } from './usage-days';

beforeAll(async () => {
  await initI18n();
});

const en = () => i18n.getFixedT('en', 'carePlan');
const vi = () => i18n.getFixedT('vi', 'carePlan');

const daily: ReminderSchedule = {
  times: [
    { label: 'Evening', time: '20:00' },
    { label: 'Morning', time: '08:00' },
  ],
  repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
  startDate: '2026-12-01',
  endDate: null,
};

describe('doses in words', () => {
  it('writes a dose the language’s way, up to the thousandths of the §5 steps', () => {
    expect(formatDose(0.125, 'en')).toBe('0.125');
    expect(formatDose(0.5, 'vi')).toBe('0,5');
    expect(doseText(1, 'PILL', en(), 'en')).toBe('1 pill');
    expect(doseText(0.5, 'PILL', en(), 'en')).toBe('0.5 pill');
    expect(doseText(1.5, 'TEASPOON', en(), 'en')).toBe('1.5 teaspoons');
    expect(doseText(2, 'DROP', vi(), 'vi')).toBe('2 giọt');
  });
});

describe('scheduleInWords', () => {
  it('says a daily schedule with its times in order and its period', () => {
    expect(scheduleInWords(daily, en(), 'en')).toBe(
      'Every day at 08:00 (Morning) and 20:00 (Evening), from 01/12/2026 until the prescription ends',
    );
    expect(scheduleInWords(daily, vi(), 'vi')).toBe(
      'Hằng ngày lúc 08:00 (Morning) và 20:00 (Evening), từ 01/12/2026 cho đến khi hết đơn',
    );
  });

  it('names the weekdays, Monday first', () => {
    const schedule: ReminderSchedule = {
      ...daily,
      times: [{ label: 'Morning', time: '08:00' }],
      repeat: { kind: 'WEEKDAYS', weekdays: [5, 1, 3] },
      endDate: '2026-12-31',
    };
    expect(scheduleInWords(schedule, en(), 'en')).toBe(
      'Every Mon, Wed, and Fri at 08:00 (Morning), from 01/12/2026 to 31/12/2026',
    );
    expect(scheduleInWords(schedule, vi(), 'vi')).toBe(
      'Vào T2, T4 và T6 hằng tuần lúc 08:00 (Morning), từ 01/12/2026 đến 31/12/2026',
    );
  });

  it('says the other repeats', () => {
    const one = [{ label: 'Start', time: '06:00' }];
    const words = (repeat: ReminderSchedule['repeat']) =>
      scheduleInWords({ ...daily, times: one, repeat }, en(), 'en');
    expect(words({ kind: 'MONTH_DAYS', days: '1, 15' })).toBe(
      'On day 1, 15 of each month at 06:00 (Start), from 01/12/2026 until the prescription ends',
    );
    expect(words({ kind: 'HOUR_CYCLE', everyHours: 8 })).toBe(
      'Every 8 hours from 06:00 (Start), from 01/12/2026 until the prescription ends',
    );
    expect(words({ kind: 'HOUR_CYCLE', everyHours: 1 })).toMatch(/^Every hour from 06:00/);
    expect(words({ kind: 'DAY_CYCLE', activeDays: 21, inactiveDays: 1 })).toMatch(
      /^21 days on, then 1 day off at 06:00/,
    );
    expect(words({ kind: 'EVERY_N_DAYS', everyDays: 3 })).toMatch(/^Every 3 days at 06:00/);
    expect(words({ kind: 'EVERY_N_DAYS', everyDays: 1 })).toMatch(/^Every day at 06:00/);
    expect(
      scheduleInWords(
        { ...daily, times: one, repeat: { kind: 'DAY_CYCLE', activeDays: 21, inactiveDays: 7 } },
        vi(),
        'vi',
      ),
    ).toMatch(/^Dùng 21 ngày, rồi nghỉ 7 ngày lúc 06:00/);
  });

  it('writes a time without a label as the time alone', () => {
    expect(timesText([{ label: ' ', time: '09:30' }], en(), 'en')).toBe('09:30');
  });
});

describe('usageDays', () => {
  const counts = (due: number, taken: number) => ({
    due,
    taken,
    takenEarly: 0,
    takenLate: 0,
    skipped: 0,
    unconfirmed: due - taken,
    toTake: 0,
    adherencePercent: due === 0 ? null : (taken / due) * 100,
  });

  it('turns the history by day, newest first, a medicine absent on a day it had no dose', () => {
    const days = usageDays({
      medicines: [
        {
          medicineId: 'a',
          name: 'Metformin',
          counts: counts(4, 3),
          days: [
            { date: '2026-12-01', counts: counts(2, 2) },
            { date: '2026-12-02', counts: counts(2, 1) },
          ],
        },
        {
          medicineId: 'b',
          name: 'Amlodipine',
          counts: counts(1, 1),
          days: [{ date: '2026-12-03', counts: counts(1, 1) }],
        },
      ],
    });
    expect(days.map((day) => day.date)).toEqual(['2026-12-03', '2026-12-02', '2026-12-01']);
    expect(Object.keys(days[0]?.counts ?? {})).toEqual(['b']);
    expect(days[1]?.counts.a?.taken).toBe(1);
  });
});
