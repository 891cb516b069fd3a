/**
 * A fleet of simulated wearables posting through the collector API, exactly as the patient app
 * would: every 15 simulated minutes each watch sends one batch (readings, the night's sleep in the
 * morning, fall and SOS events) with a client-generated batch id, and retries a failed post with
 * the same id until the server answers (the server stores a batch once however often it arrives).
 *
 * Time: the simulated clock starts `replayHours` in the past and runs `speed` times faster than
 * the wall clock until it reaches the real now, then with it (the server refuses readings from the
 * future). At speed 60 a 15-minute batch goes out every 15 real seconds per watch while the clock
 * catches up. `historyHours` before the clock's start are sent at once, without injected events, so
 * the charts have a history from the first minute.
 */
import { randomUUID } from 'node:crypto';
import type { collectorBatchSchema } from '@rpm/contracts';
import type { z } from 'zod';
import {
  BATCH_MINUTES,
  createProfile,
  createRandom,
  drawEpisode,
  drawEvents,
  generateBatch,
  isAbnormalEvent,
  type AbnormalEvent,
  type EpisodeSeverity,
  type SimulatedBatch,
  type SimulatedSleep,
  type SimulatedEvent,
  type VitalsProfile,
} from '@rpm/vitals-sim';

export interface FleetOptions {
  /** Server origin, e.g. http://localhost:8080 */
  url: string;
  tenant: string;
  /** A staff account holding health.update for the patients (or a patient's own account). */
  username: string;
  password: string;
  /** The client app the login is for: `doctor` keeps a doctor's console session untouched. */
  app: 'console' | 'patient' | 'doctor';
  patients: number;
  /** Simulated minutes per real minute. */
  speed: number;
  /**
   * Probability per batch of each injected event. An abnormal event (tachycardia, hypoxia,
   * hypertensive crisis) starts an episode of a drawn severity and length (vitals `drawEpisode`)
   * when the watch has none under way; a fall or an SOS press is one event.
   */
  eventRates: Partial<Record<SimulatedEvent, number>>;
  /** Hours of history sent at once at start (no injected events), oldest first. */
  historyHours: number;
  /** Hours before now the simulated clock starts from; it catches up at `speed`. */
  replayHours: number;
  seed: number;
  log: (message: string) => void;
}

export interface FleetWatch {
  patientId: string;
  patientCode: string;
  deviceId: string | null;
  profile: VitalsProfile;
  random: () => number;
  /** Start of the next window to send. */
  next: Date;
  /** Events asked for by hand (`injectEvent`), sent with the next batch. */
  pending: SimulatedEvent[];
  /** The abnormal episode under way: its event, the level its values reach, windows left. */
  episode: { event: AbnormalEvent; severity: EpisodeSeverity; windowsLeft: number } | null;
}

export interface FleetStats {
  batchesSent: number;
  readingsSent: number;
  retries: number;
  eventsSent: Partial<Record<SimulatedEvent, number>>;
}

export interface RunningFleet {
  watches: readonly FleetWatch[];
  stats: FleetStats;
  /** Queues an event for one patient's next batch (or the first watch's when no id is given). */
  injectEvent: (event: SimulatedEvent, patientId?: string) => void;
  /** Sends whatever is due now (and injected events); resolves when all are stored. */
  flush: () => Promise<void>;
  stop: () => Promise<void>;
}

/** Most windows one request carries when a watch catches up (40 windows: about 900 readings). */
const BACKLOG_WINDOWS = 40;
const wait = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The body of POST /collector/readings as sent on the wire (contracts collectorBatchSchema input). */
export type CollectorBatchBody = z.input<typeof collectorBatchSchema>;

interface Envelope<T> {
  resultCode: number;
  data?: T;
  code?: string;
  message?: string;
}

/**
 * The wire form of one request (POST /collector/readings, contracts collectorBatchSchema) for one
 * or more consecutive 15-minute windows: a phone syncing a backlog sends several at once.
 */
export function toCollectorBody(
  watch: Pick<FleetWatch, 'patientId' | 'deviceId'>,
  batchId: string,
  batches: SimulatedBatch | readonly SimulatedBatch[],
): CollectorBatchBody {
  const windows: readonly SimulatedBatch[] = Array.isArray(batches) ? batches : [batches as SimulatedBatch];
  const readings: CollectorBatchBody['readings'] = [];
  const sleep: NonNullable<CollectorBatchBody['sleep']> = [];
  const ecg: NonNullable<CollectorBatchBody['ecg']> = [];
  const events: NonNullable<CollectorBatchBody['events']> = [];
  for (const window of windows) {
    const systolic = window.readings.filter((reading) => reading.measure === 'SYSTOLIC');
    const diastolic = window.readings.filter((reading) => reading.measure === 'DIASTOLIC');
    systolic.forEach((reading, index) => {
      const pair = diastolic[index];
      if (pair === undefined) return;
      readings.push({
        measure: 'BLOOD_PRESSURE',
        systolic: reading.value,
        diastolic: pair.value,
        measuredAt: reading.measuredAt.toISOString(),
        source: 'WIRELESS_DEVICE',
      });
    });
    for (const reading of window.readings) {
      if (reading.measure === 'SYSTOLIC' || reading.measure === 'DIASTOLIC') continue;
      readings.push({
        measure: reading.measure,
        value: reading.value,
        measuredAt: reading.measuredAt.toISOString(),
        source: 'WIRELESS_DEVICE',
      });
    }
    if (window.sleep !== null) sleep.push(sleepBody(window.sleep));
    if (window.ecg !== null) {
      const record = window.ecg;
      ecg.push({
        measuredAt: record.measuredAt.toISOString(),
        durationSeconds: record.durationSeconds,
        sampleRate: record.sampleRate,
        samples: record.samples,
        averageHeartRate: record.averageHeartRate,
        hrv: record.hrv,
        qt: record.qt,
        respirationRate: record.respirationRate,
      });
    }
    for (const event of window.events) {
      events.push({
        type: event.kind === 'fall' ? 'FALL' : 'SOS_BUTTON',
        at: event.occurredAt.toISOString(),
      });
    }
  }
  const body: CollectorBatchBody = { batchId, patientId: watch.patientId, readings };
  if (watch.deviceId !== null) body.deviceId = watch.deviceId;
  if (sleep.length > 0) body.sleep = sleep;
  if (ecg.length > 0) body.ecg = ecg;
  if (events.length > 0) body.events = events;
  return body;
}

function sleepBody(night: SimulatedSleep): NonNullable<CollectorBatchBody['sleep']>[number] {
  const minutes = (stage: SimulatedSleep['stages'][number]['stage']) =>
    night.stages
      .filter((item) => item.stage === stage)
      .reduce((sum, item) => sum + (item.end.getTime() - item.start.getTime()) / 60_000, 0);
  return {
    startAt: night.start.toISOString(),
    endAt: night.end.toISOString(),
    totalMinutes: Math.round(minutes('DEEP') + minutes('LIGHT') + minutes('REM')),
    deepMinutes: Math.round(minutes('DEEP')),
    lightMinutes: Math.round(minutes('LIGHT')),
    remMinutes: Math.round(minutes('REM')),
    wakeCount: night.stages.filter((item) => item.stage === 'AWAKE').length,
    fallingAsleepMinutes: night.fallingAsleepMinutes,
    stages: night.stages.map((item) => ({
      stage: item.stage,
      from: item.start.toISOString(),
      to: item.end.toISOString(),
    })),
  };
}

/**
 * The session is gone: expired (401), or replaced by a login of the same account in the same app
 * elsewhere (403 auth.loggedInElsewhere). Logging in again takes the session back.
 */
export function isSessionLost(error: unknown): boolean {
  const { status, code } = error as { status?: number; code?: string };
  return status === 401 || code === 'auth.loggedInElsewhere';
}

/** The account a client logs in with, and where. */
export type ClientLogin = Pick<FleetOptions, 'url' | 'tenant' | 'username' | 'password' | 'app'>;

/** A logged-in API client (bearer token), with the collector's retrying batch post. */
export class CollectorClient {
  private accessToken = '';
  constructor(private readonly options: ClientLogin) {}

  /**
   * Logs in. Apps get the token in the body; the console gets it as the session cookie, which is
   * then sent as a bearer token (no ambient cookie authority, so no origin check applies).
   */
  async login(): Promise<void> {
    this.accessToken = '';
    let cookieToken: string | undefined;
    const answer = await this.call<{ accessToken?: string }>(
      'POST',
      '/auth/oauth-token',
      {
        tenant: this.options.tenant,
        username: this.options.username,
        password: this.options.password,
        grant_type: 'password',
        remember_me: true,
        app: this.options.app,
      },
      (response) => {
        for (const cookie of response.headers.getSetCookie()) {
          const match = /^rpm_session=([^;]+)/.exec(cookie);
          if (match?.[1] !== undefined) cookieToken = match[1];
        }
      },
    );
    const token = answer.accessToken ?? cookieToken;
    if (token === undefined) throw new Error('the login answered no access token');
    this.accessToken = token;
  }

  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    onResponse?: (response: Response) => void,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.accessToken !== '') headers.authorization = `Bearer ${this.accessToken}`;
    const response = await fetch(new URL(path, this.options.url), {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    onResponse?.(response);
    const envelope = (await response.json().catch(() => ({ resultCode: 500 }))) as Envelope<T>;
    if (!response.ok || envelope.data === undefined) {
      const error = new Error(
        `${method} ${path}: ${String(response.status)} ${envelope.code ?? ''} ${envelope.message ?? ''}`,
      );
      Object.assign(error, { status: response.status, code: envelope.code });
      throw error;
    }
    return envelope.data;
  }

  /**
   * Posts a batch until it is stored: network failures and 5xx are retried with the same batch id
   * (so a retry after a lost answer stores nothing twice); an expired session logs in again.
   */
  async postBatch(body: CollectorBatchBody, stats: FleetStats, isStopped: () => boolean): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.call('POST', '/collector/readings', body);
        return;
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (isSessionLost(error)) await this.login().catch(() => undefined);
        else if (status !== undefined && status < 500 && status !== 429) throw error;
        if (isStopped()) throw error;
        stats.retries += 1;
        await wait(Math.min(10_000, 250 * 2 ** Math.min(attempt, 6)));
      }
    }
  }
}

/** The start of the 15-minute window holding `time` (windows are aligned to the hour). */
export function alignToBatch(time: number): number {
  const size = BATCH_MINUTES * 60_000;
  return Math.floor(time / size) * size;
}

interface PatientPage {
  items: { id: string; patientCode: string; status: string; birthday?: string | null }[];
}

/** Whole years from a `YYYY-MM-DD` birthday to `now`; 60 when it is not known. */
export function ageOn(birthday: string | null | undefined, now: Date): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthday ?? '');
  if (match === null) return 60;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const hadBirthday =
    now.getUTCMonth() + 1 > month || (now.getUTCMonth() + 1 === month && now.getUTCDate() >= day);
  return now.getUTCFullYear() - year - (hadBirthday ? 0 : 1);
}

/** Logs in, picks the first `patients` patients the account sees and starts the watches. */
export async function startFleet(options: FleetOptions): Promise<RunningFleet> {
  const client = new CollectorClient(options);
  await client.login();
  const page = await client.call<PatientPage>(
    'GET',
    `/account/patients?page=0&size=${String(Math.min(100, options.patients))}&sortField=created&sortType=asc`,
  );
  const clockStart = alignToBatch(Date.now() - options.replayHours * 3_600_000);
  const start = new Date(clockStart - options.historyHours * 3_600_000);
  const watches: FleetWatch[] = [];
  for (const [index, patient] of page.items.slice(0, options.patients).entries()) {
    const devices = await client
      .call<{ id: string }[]>('GET', `/account/patients/${patient.id}/devices`)
      .catch(() => [] as { id: string }[]);
    watches.push({
      patientId: patient.id,
      patientCode: patient.patientCode,
      deviceId: Array.isArray(devices) ? (devices[0]?.id ?? null) : null,
      profile: createProfile(options.seed + index, 420, ageOn(patient.birthday, new Date())),
      random: createRandom(options.seed * 7919 + index),
      next: new Date(start),
      pending: [],
      episode: null,
    });
  }
  if (watches.length === 0) throw new Error('the account sees no patients');

  const stats: FleetStats = { batchesSent: 0, readingsSent: 0, retries: 0, eventsSent: {} };
  let stopped = false;
  const eventRandom = createRandom(options.seed + 104_729);

  /** Sends the watch's due windows (up to BACKLOG_WINDOWS in one request, as a phone syncing a backlog). */
  const sendDueWindows = async (watch: FleetWatch, dueUntil: number) => {
    const windows: SimulatedBatch[] = [];
    const sent: { event: SimulatedEvent; detail: string }[] = [];
    let next = watch.next.getTime();
    while (windows.length < BACKLOG_WINDOWS && next + BATCH_MINUTES * 60_000 <= dueUntil) {
      const isLive = next >= clockStart;
      const drawn = isLive ? drawEvents(eventRandom, options.eventRates) : [];
      const started = drawn.find(isAbnormalEvent);
      if (watch.episode === null && started !== undefined) {
        const episode = drawEpisode(eventRandom);
        watch.episode = { event: started, severity: episode.severity, windowsLeft: episode.windows };
        sent.push({
          event: started,
          detail: ` (${episode.severity}, ${String(episode.windows * BATCH_MINUTES)} min from ${new Date(next).toISOString()})`,
        });
      }
      const episode = watch.episode;
      const pending = watch.pending;
      watch.pending = [];
      const events = [
        ...new Set([
          ...drawn.filter((event) => !isAbnormalEvent(event)),
          ...(episode === null ? [] : [episode.event]),
          ...pending,
        ]),
      ];
      if (episode !== null) {
        episode.windowsLeft -= 1;
        if (episode.windowsLeft <= 0) watch.episode = null;
      }
      for (const event of events)
        if (!isAbnormalEvent(event) || pending.includes(event)) sent.push({ event, detail: '' });
      // Events asked for by hand reach SOS; an episode's values reach its own severity.
      const severity = pending.some(isAbnormalEvent) || episode === null ? 'SOS' : episode.severity;
      windows.push(generateBatch(watch.profile, watch.random, new Date(next), events, severity));
      next += BATCH_MINUTES * 60_000;
    }
    if (windows.length === 0) return;
    await client.postBatch(toCollectorBody(watch, randomUUID(), windows), stats, () => stopped);
    watch.next = new Date(next);
    stats.batchesSent += 1;
    stats.readingsSent += windows.reduce((sum, window) => sum + window.readings.length, 0);
    for (const { event, detail } of sent) {
      stats.eventsSent[event] = (stats.eventsSent[event] ?? 0) + 1;
      options.log(`${event} sent for ${watch.patientCode}${detail}`);
    }
  };

  // The simulated clock: its start + elapsed × speed, never past the real now.
  const startedAt = Date.now();
  const simulatedNow = () => Math.min(clockStart + (Date.now() - startedAt) * options.speed, Date.now());

  /** Events asked for by hand go out at once, in a window ending now, when no batch is due. */
  const sendInjected = async (watch: FleetWatch) => {
    const events = watch.pending;
    watch.pending = [];
    const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000 - BATCH_MINUTES * 60_000);
    const window = generateBatch(watch.profile, watch.random, windowStart, events);
    await client.postBatch(toCollectorBody(watch, randomUUID(), [window]), stats, () => stopped);
    stats.batchesSent += 1;
    stats.readingsSent += window.readings.length;
    for (const event of events) {
      stats.eventsSent[event] = (stats.eventsSent[event] ?? 0) + 1;
      options.log(`${event} sent for ${watch.patientCode}`);
    }
  };

  /** Round robin over the watches until none has a due window, so every patient fills in together. */
  const sendDue = async () => {
    for (let isBusy = true; isBusy && !stopped;) {
      isBusy = false;
      const dueUntil = simulatedNow();
      for (const watch of watches) {
        if (watch.next.getTime() + BATCH_MINUTES * 60_000 <= dueUntil) {
          await sendDueWindows(watch, dueUntil);
          isBusy = true;
        } else if (watch.pending.length > 0) {
          await sendInjected(watch);
        }
      }
    }
  };

  // One pass at a time: the loop and a caller's flush never send the same window twice.
  let queue: Promise<void> = Promise.resolve();
  const sendDueOnce = () => {
    const pass = queue.then(sendDue);
    queue = pass.catch(() => undefined);
    return pass;
  };

  let loop: Promise<void> = Promise.resolve();
  const run = async () => {
    while (!stopped) {
      try {
        await sendDueOnce();
      } catch (error) {
        options.log(`simulator: ${error instanceof Error ? error.message : String(error)}`);
      }
      await wait(Math.max(250, Math.min(5_000, (BATCH_MINUTES * 60_000) / options.speed / 4)));
    }
  };
  loop = run();

  return {
    watches,
    stats,
    injectEvent: (event, patientId) => {
      const watch =
        patientId === undefined ? watches[0] : watches.find((item) => item.patientId === patientId);
      watch?.pending.push(event);
    },
    flush: sendDueOnce,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
