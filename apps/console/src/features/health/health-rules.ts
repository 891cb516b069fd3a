import { QT_REFERENCE, SLEEP_REFERENCE, type GENDERS, type SleepDetail } from '@rpm/contracts';

type Gender = (typeof GENDERS)[number];

export type QtFlag = 'short' | 'normal' | 'prolonged' | 'dangerous';

/**
 * The QT interval against spec §9: prolonged above 440 ms (male) or 460 ms (female), dangerous
 * above 500, short below 350. Without a known gender the lower (male) limit is used, so a
 * borderline value is flagged rather than missed.
 */
export function qtFlag(qt: number, gender: Gender | null): QtFlag {
  if (qt > QT_REFERENCE.dangerous) return 'dangerous';
  const limit = gender === 'FEMALE' ? QT_REFERENCE.prolongedFemale : QT_REFERENCE.prolongedMale;
  if (qt > limit) return 'prolonged';
  if (qt < QT_REFERENCE.short) return 'short';
  return 'normal';
}

export type SleepStageKey = 'deep' | 'light' | 'rem';
export interface SleepShare {
  stage: SleepStageKey;
  minutes: number;
  percent: number;
  reference: readonly [number, number];
  isWithin: boolean;
}

/** Deep, light and REM as shares of the time asleep, each against its spec §9 reference. */
export function sleepShares(
  sleep: Pick<SleepDetail, 'deepMinutes' | 'lightMinutes' | 'remMinutes'>,
): SleepShare[] {
  const asleep = sleep.deepMinutes + sleep.lightMinutes + sleep.remMinutes;
  const share = (stage: SleepStageKey, minutes: number, reference: readonly [number, number]): SleepShare => {
    const percent = asleep === 0 ? 0 : Math.round((minutes / asleep) * 1000) / 10;
    return {
      stage,
      minutes,
      percent,
      reference,
      isWithin: percent >= reference[0] && percent <= reference[1],
    };
  };
  return [
    share('deep', sleep.deepMinutes, SLEEP_REFERENCE.deepPercent),
    share('light', sleep.lightMinutes, SLEEP_REFERENCE.lightPercent),
    share('rem', sleep.remMinutes, SLEEP_REFERENCE.remPercent),
  ];
}

/** Full 90-minute cycles in the night (spec §9: five make a perfect sleep). */
export function sleepCycles(totalMinutes: number): number {
  return Math.floor(totalMinutes / SLEEP_REFERENCE.cycleMinutes);
}

/** "7 h 05 min" parts: hours and minutes of a duration. */
export function hoursAndMinutes(minutes: number): { hours: number; minutes: number } {
  return { hours: Math.floor(minutes / 60), minutes: Math.round(minutes % 60) };
}
