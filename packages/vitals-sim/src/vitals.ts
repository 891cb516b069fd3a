/**
 * Realistic vitals for one simulated wearable, 15 minutes at a time (the watch's sync interval,
 * spec §9). Pure and seeded: the same seed and times give the same readings, so tests can check
 * ranges and rhythms exactly.
 *
 * - Heart rate follows a daily rhythm: lower at night (sleep), higher by day, with activity peaks
 *   in the morning, at noon and in the early evening, plus small noise.
 * - SpO2 stays at 95–99 %, with short dips (never below 94) during the night window 00:00–07:00
 *   (spec §9 "night SpO2 detection").
 * - Blood pressure, temperature and HRV follow the same day/night swing; steps only by day.
 * - A sleep record is produced with the first batch after 07:00 (local time of the patient).
 * - Injected events replace normal values with those of the event for the batch. An abnormal
 *   event (tachycardia, hypoxia, hypertensive crisis) has a severity, the alert level its values
 *   reach against the default thresholds for the patient's age (contracts `defaultThresholds`):
 *   values fall inside that level's band, away from its edges, so a mild episode is AT_RISK and
 *   only a severe one reaches SOS.
 */
import { defaultThresholds, type Bounds, type MetricThresholds } from '@rpm/contracts';

/** Events the simulator can inject (issue: tachycardia, hypoxia, hypertensive crisis, fall, SOS). */
export const SIMULATED_EVENTS = ['tachycardia', 'hypoxia', 'hypertensiveCrisis', 'fall', 'sos'] as const;
export type SimulatedEvent = (typeof SIMULATED_EVENTS)[number];
/** Events that last (values out of range over windows), as opposed to a fall or an SOS press. */
export const ABNORMAL_EVENTS = ['tachycardia', 'hypoxia', 'hypertensiveCrisis'] as const;
export type AbnormalEvent = (typeof ABNORMAL_EVENTS)[number];
export const isAbnormalEvent = (event: SimulatedEvent): event is AbnormalEvent =>
  (ABNORMAL_EVENTS as readonly string[]).includes(event);

/** The alert level an abnormal episode's values reach. */
export const EPISODE_SEVERITIES = ['AT_RISK', 'HIGH_RISK', 'SOS'] as const;
export type EpisodeSeverity = (typeof EPISODE_SEVERITIES)[number];

/** One scalar reading in canonical units (contracts MEASURES). */
export interface SimulatedReading {
  measure: 'HEART_RATE' | 'SPO2' | 'HRV' | 'SYSTOLIC' | 'DIASTOLIC' | 'TEMPERATURE' | 'STEPS' | 'RESPIRATION';
  value: number;
  measuredAt: Date;
}

export interface SimulatedSleep {
  /** When the patient fell asleep and woke up. */
  start: Date;
  end: Date;
  /** Minutes from lying down to sleep. */
  fallingAsleepMinutes: number;
  /** Consecutive stages covering start..end. */
  stages: { stage: 'DEEP' | 'LIGHT' | 'REM' | 'AWAKE'; start: Date; end: Date }[];
}

/** A short ECG recording (the watch's on-demand measurement). */
export interface SimulatedEcg {
  measuredAt: Date;
  durationSeconds: number;
  sampleRate: number;
  /** Millivolts. */
  samples: number[];
  averageHeartRate: number;
  hrv: number;
  qt: number;
  respirationRate: number;
}

export interface SimulatedBatch {
  readings: SimulatedReading[];
  sleep: SimulatedSleep | null;
  ecg: SimulatedEcg | null;
  /** Discrete events in this window (fall detection, SOS button), with their time. */
  events: { kind: 'fall' | 'sos'; occurredAt: Date }[];
}

/** A patient's own baselines, drawn once from the seed. */
export interface VitalsProfile {
  restingHeartRate: number;
  systolic: number;
  diastolic: number;
  temperature: number;
  hrv: number;
  /** Offset of the patient's local time from UTC in minutes (Vietnam: +420). */
  utcOffsetMinutes: number;
  /** The patient's age: the heart-rate SOS line depends on it (spec §9 maximum heart rate). */
  ageYears: number;
}

export const BATCH_MINUTES = 15;

/** Small deterministic generator (mulberry32). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (random: () => number, low: number, high: number) => low + random() * (high - low);
const round = (value: number, decimals = 0) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function createProfile(seed: number, utcOffsetMinutes = 420, ageYears = 60): VitalsProfile {
  const random = createRandom(seed);
  return {
    restingHeartRate: round(between(random, 62, 74)),
    systolic: round(between(random, 105, 116)),
    diastolic: round(between(random, 66, 72)),
    temperature: round(between(random, 36.4, 36.8), 1),
    hrv: round(between(random, 35, 60)),
    utcOffsetMinutes,
    ageYears,
  };
}

/** Hours since local midnight (fractional). */
export function localHour(at: Date, profile: VitalsProfile): number {
  const minutes = (at.getTime() / 60_000 + profile.utcOffsetMinutes) % 1440;
  return (minutes < 0 ? minutes + 1440 : minutes) / 60;
}

/** Asleep from 23:00 to 07:00 local time. */
export function isNight(hour: number): boolean {
  return hour >= 23 || hour < 7;
}

/** The night SpO2 window of spec §9 (00:00–07:00). */
export function isNightSpo2Window(hour: number): boolean {
  return hour < 7;
}

const gaussian = (hour: number, centre: number, width: number) =>
  Math.exp(-((hour - centre) ** 2) / (2 * width ** 2));

/** Activity 0..1 by local hour: a morning walk, lunch, the evening commute. */
export function activityLevel(hour: number): number {
  if (isNight(hour)) return 0;
  return Math.min(
    1,
    0.15 + 0.8 * gaussian(hour, 7.75, 0.6) + 0.45 * gaussian(hour, 12.5, 0.8) + 0.7 * gaussian(hour, 18, 0.9),
  );
}

/**
 * Expected heart rate (no noise) at a local hour: resting − 6 at night, up to +22 at the activity
 * peaks (brisk walking), so a healthy day stays inside the default 50–100 band.
 */
export function expectedHeartRate(profile: VitalsProfile, hour: number): number {
  if (isNight(hour)) return profile.restingHeartRate - 6;
  return profile.restingHeartRate + 22 * activityLevel(hour);
}

/** How far past the worst level's line an SOS episode's values go, per metric. */
const SOS_SPAN = { heartRate: 25, spo2: 6, systolic: 20, diastolic: 10 } as const;

/**
 * The band of values of `severity` for one metric: above the line of that level and below the
 * next level's (or `sosSpan` past the SOS line), without its outer fifths, so noise and rounding
 * never carry a value into the neighbouring level. `side` says which way the metric goes bad.
 */
function severityBand(
  levels: MetricThresholds,
  severity: EpisodeSeverity,
  side: 'upper' | 'lower',
  sosSpan: number,
): [number, number] {
  const index = EPISODE_SEVERITIES.indexOf(severity);
  const edge = (bounds: Bounds | undefined) => (bounds === undefined ? null : bounds[side]);
  const inner = edge(levels[severity]);
  if (inner === null) throw new Error(`no ${side} ${severity} threshold`);
  const direction = side === 'upper' ? 1 : -1;
  const next = EPISODE_SEVERITIES[index + 1];
  const outer = (next === undefined ? null : edge(levels[next])) ?? inner + direction * sosSpan;
  const [low, high] = direction > 0 ? [inner, outer] : [outer, inner];
  const margin = (high - low) / 5;
  return [low + margin, high - margin];
}

/** The value bands of an abnormal episode of `severity` for a patient of `ageYears`. */
export function episodeRanges(ageYears: number, severity: EpisodeSeverity) {
  const thresholds = defaultThresholds(ageYears);
  return {
    heartRate: severityBand(thresholds.HEART_RATE, severity, 'upper', SOS_SPAN.heartRate),
    spo2: severityBand(thresholds.SPO2, severity, 'lower', SOS_SPAN.spo2),
    systolic: severityBand(thresholds.SYSTOLIC, severity, 'upper', SOS_SPAN.systolic),
    diastolic: severityBand(thresholds.DIASTOLIC, severity, 'upper', SOS_SPAN.diastolic),
  };
}

/**
 * The readings of one 15-minute window starting at `start`, with `injected` events applied; an
 * abnormal event's values reach `severity` (SOS when not said: a hand-injected event is meant to
 * alert).
 */
export function generateBatch(
  profile: VitalsProfile,
  random: () => number,
  start: Date,
  injected: readonly SimulatedEvent[] = [],
  severity: EpisodeSeverity = 'SOS',
): SimulatedBatch {
  const readings: SimulatedReading[] = [];
  const events: SimulatedBatch['events'] = [];
  const at = (minute: number) => new Date(start.getTime() + minute * 60_000);
  const hour = localHour(start, profile);
  const night = isNight(hour);
  const has = (event: SimulatedEvent) => injected.includes(event);
  const ranges = episodeRanges(profile.ageYears, severity);

  // Heart rate: one per minute.
  for (let minute = 0; minute < BATCH_MINUTES; minute += 1) {
    const minuteHour = localHour(at(minute), profile);
    const value = has('tachycardia')
      ? between(random, ...ranges.heartRate)
      : expectedHeartRate(profile, minuteHour) + between(random, -3, 3);
    readings.push({ measure: 'HEART_RATE', value: round(clamp(value, 35, 230)), measuredAt: at(minute) });
  }
  // SpO2: every 5 minutes; at night, one reading in three dips towards 94.
  for (let minute = 0; minute < BATCH_MINUTES; minute += 5) {
    const minuteHour = localHour(at(minute), profile);
    let value = between(random, 96, 99);
    if (isNightSpo2Window(minuteHour) && random() < 0.35) value = between(random, 94, 95.4);
    if (has('hypoxia')) value = between(random, ...ranges.spo2);
    readings.push({ measure: 'SPO2', value: round(clamp(value, 70, 99), 1), measuredAt: at(minute) });
  }
  // Blood pressure, temperature, HRV, respiration: once per window.
  const swing = night ? -8 : 8 * activityLevel(hour);
  const systolic = has('hypertensiveCrisis')
    ? between(random, ...ranges.systolic)
    : profile.systolic + swing + between(random, -3, 3);
  const diastolic = has('hypertensiveCrisis')
    ? between(random, ...ranges.diastolic)
    : profile.diastolic + swing / 2 + between(random, -1.5, 1.5);
  const middle = at(7);
  readings.push({ measure: 'SYSTOLIC', value: round(systolic), measuredAt: middle });
  readings.push({
    measure: 'DIASTOLIC',
    value: round(Math.min(diastolic, systolic - 25)),
    measuredAt: middle,
  });
  const temperature =
    profile.temperature + (night ? -0.3 : 0.2 * activityLevel(hour)) + between(random, -0.1, 0.1);
  readings.push({ measure: 'TEMPERATURE', value: round(temperature, 1), measuredAt: middle });
  const hrv = profile.hrv + (night ? 12 : -10 * activityLevel(hour)) + between(random, -4, 4);
  readings.push({ measure: 'HRV', value: round(clamp(hrv, 22, 120)), measuredAt: middle });
  readings.push({
    measure: 'RESPIRATION',
    value: round(night ? between(random, 12, 15) : between(random, 14, 19)),
    measuredAt: middle,
  });
  // Steps over the window (none while asleep).
  const steps = night ? 0 : Math.round(activityLevel(hour) * between(random, 600, 1400));
  readings.push({ measure: 'STEPS', value: steps, measuredAt: at(BATCH_MINUTES - 1) });

  if (has('fall')) events.push({ kind: 'fall', occurredAt: at(6) });
  if (has('sos')) events.push({ kind: 'sos', occurredAt: at(9) });

  // The night's sleep is reported with the first window that starts at 07:00 local time.
  const sleep = hour >= 7 && hour < 7 + BATCH_MINUTES / 60 ? generateSleep(random, start) : null;
  // One ECG a day, taken in the 09:00 window.
  const ecg =
    hour >= 9 && hour < 9 + BATCH_MINUTES / 60
      ? generateEcg(
          random,
          at(3),
          has('tachycardia')
            ? (ranges.heartRate[0] + ranges.heartRate[1]) / 2
            : expectedHeartRate(profile, hour),
        )
      : null;
  return { readings, sleep, ecg, events };
}

const ECG_SAMPLE_RATE = 250;

/**
 * A 30-second lead-I-like trace: each beat is P, Q, R, S and T waves as Gaussian bumps, with a
 * slight beat-to-beat variation (HRV) and a baseline that breathes.
 */
export function generateEcg(
  random: () => number,
  measuredAt: Date,
  heartRate: number,
  seconds = 30,
): SimulatedEcg {
  const samples = new Array<number>(seconds * ECG_SAMPLE_RATE).fill(0);
  const respirationRate = round(between(random, 12, 18));
  const beats: number[] = [];
  for (let time = 0.3; time < seconds;) {
    beats.push(time);
    time += (60 / heartRate) * (1 + between(random, -0.04, 0.04));
  }
  const waves = [
    { offset: -0.2, width: 0.025, height: 0.12 },
    { offset: -0.035, width: 0.01, height: -0.12 },
    { offset: 0, width: 0.012, height: 1.1 },
    { offset: 0.035, width: 0.012, height: -0.25 },
    { offset: 0.25, width: 0.045, height: 0.3 },
  ];
  for (let index = 0; index < samples.length; index += 1) {
    const time = index / ECG_SAMPLE_RATE;
    let value = 0.05 * Math.sin((2 * Math.PI * respirationRate * time) / 60);
    for (const beat of beats) {
      if (Math.abs(time - beat) > 0.5) continue;
      for (const wave of waves)
        value += wave.height * Math.exp(-((time - beat - wave.offset) ** 2) / (2 * wave.width ** 2));
    }
    samples[index] = round(value + between(random, -0.01, 0.01), 3);
  }
  const intervals = beats.slice(1).map((beat, index) => (beat - (beats[index] ?? beat)) * 1000);
  const meanInterval = intervals.reduce((sum, value) => sum + value, 0) / Math.max(1, intervals.length);
  const sdnn = Math.sqrt(
    intervals.reduce((sum, value) => sum + (value - meanInterval) ** 2, 0) / Math.max(1, intervals.length),
  );
  return {
    measuredAt,
    durationSeconds: seconds,
    sampleRate: ECG_SAMPLE_RATE,
    samples,
    averageHeartRate: round(60_000 / meanInterval),
    hrv: round(sdnn),
    // Bazett-corrected QT around 400 ms for a healthy adult.
    qt: round(between(random, 380, 420)),
    respirationRate,
  };
}

/** A night from about 23:00 to 07:00 as 90-minute cycles of light, deep and REM sleep, with awakenings. */
export function generateSleep(random: () => number, wakeAt: Date): SimulatedSleep {
  const asleepAt = new Date(wakeAt.getTime() - round(between(random, 7, 8) * 60) * 60_000);
  const stages: SimulatedSleep['stages'] = [];
  let cursor = asleepAt.getTime();
  const push = (stage: SimulatedSleep['stages'][number]['stage'], minutes: number) => {
    const end = Math.min(wakeAt.getTime(), cursor + Math.round(minutes) * 60_000);
    if (end > cursor) stages.push({ stage, start: new Date(cursor), end: new Date(end) });
    cursor = end;
  };
  for (let cycle = 0; cursor < wakeAt.getTime(); cycle += 1) {
    // Deep sleep fills the early cycles, REM the late ones.
    const deep = cycle < 2 ? between(random, 18, 28) : between(random, 0, 8);
    const rem = cycle < 2 ? between(random, 10, 16) : between(random, 22, 30);
    const wake = random() < 0.3 ? between(random, 2, 6) : 0;
    push('LIGHT', 90 - deep - rem - wake);
    push('DEEP', deep);
    push('REM', rem);
    if (wake > 0) push('AWAKE', wake);
  }
  return { start: asleepAt, end: wakeAt, fallingAsleepMinutes: Math.round(between(random, 8, 22)), stages };
}

/** Parses `sos:0.01,fall:0.005` into per-batch probabilities; unknown names are an error. */
export function parseEventRates(text: string): Partial<Record<SimulatedEvent, number>> {
  const rates: Partial<Record<SimulatedEvent, number>> = {};
  for (const part of text
    .split(',')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')) {
    const [name = '', rate = ''] = part.split(':');
    if (!(SIMULATED_EVENTS as readonly string[]).includes(name)) {
      throw new Error(`unknown event "${name}" (known: ${SIMULATED_EVENTS.join(', ')})`);
    }
    const value = Number(rate);
    if (!Number.isFinite(value) || value < 0 || value > 1)
      throw new Error(`rate of "${name}" must be between 0 and 1`);
    rates[name as SimulatedEvent] = value;
  }
  return rates;
}

/**
 * How often an abnormal episode reaches each level: most are mild (a fast heart during a fever, a
 * blood pressure above target, a low SpO2 with a cold), a few are serious, rarely an emergency.
 */
export const SEVERITY_SHARES: Record<EpisodeSeverity, number> = { AT_RISK: 0.76, HIGH_RISK: 0.2, SOS: 0.04 };

/** How many 15-minute windows an episode of each severity lasts, inclusive bounds: mild ones last hours, an emergency is one window (then the patient is treated). */
export const EPISODE_WINDOWS: Record<EpisodeSeverity, [number, number]> = {
  AT_RISK: [4, 16],
  HIGH_RISK: [2, 6],
  SOS: [1, 1],
};

/** A new abnormal episode: its severity (by SEVERITY_SHARES) and how many windows it lasts. */
export function drawEpisode(random: () => number): { severity: EpisodeSeverity; windows: number } {
  const draw = random();
  let severity: EpisodeSeverity = 'SOS';
  let cumulative = 0;
  for (const level of EPISODE_SEVERITIES) {
    cumulative += SEVERITY_SHARES[level];
    if (draw < cumulative) {
      severity = level;
      break;
    }
  }
  const [fewest, most] = EPISODE_WINDOWS[severity];
  return { severity, windows: fewest + Math.floor(random() * (most - fewest + 1)) };
}

/** Which events fire for one batch, drawn from the per-batch probabilities. */
export function drawEvents(
  random: () => number,
  rates: Partial<Record<SimulatedEvent, number>>,
): SimulatedEvent[] {
  return SIMULATED_EVENTS.filter((event) => random() < (rates[event] ?? 0));
}
