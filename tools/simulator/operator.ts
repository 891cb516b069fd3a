/**
 * A simulated duty operator for the demo: a clinic works its SOS cases, so the demo has someone
 * who does. It logs in as an operator account through the HTTP API and uses the same calls as the
 * console's SOS call list (GET /account/sos-cases?open=true, PUT /account/sos-cases/:id/accept,
 * resolve, close): it takes a case a minute or two after it appears, and resolves and closes it
 * a few minutes later with a note that says it was simulated. The most recent open case is taken
 * but left open for a while, so whoever opens the console still sees live work.
 */
import { CollectorClient, isSessionLost, type ClientLogin } from './fleet.js';
import { createRandom } from '@rpm/vitals-sim';

export interface DutyOperatorOptions extends ClientLogin {
  /** Minutes from first seeing a case to closing it, drawn per case (inclusive bounds). */
  closeAfterMinutes: [number, number];
  /** The newest open case is closed only once it is this old (it shows live work meanwhile). */
  newestOpenMinutes: number;
  /** How often the open-case list is read. */
  pollSeconds: number;
  seed: number;
  log: (message: string) => void;
  /** The wall clock (tests move it). */
  now?: () => number;
}

/** The notes the simulated operator leaves in the case history. */
export const DUTY_OPERATOR_NOTES = {
  resolve: 'Simulated duty operator: patient reached, fine',
  close: 'Simulated duty operator: closed after the call, no further action',
} as const;

interface OpenCase {
  id: string;
  status: 'NEW' | 'IN_PROCESS' | 'RESOLVED' | 'CLOSED';
  openedAt: string;
  patient: { patientCode?: string | null };
}

/** What the operator intends for one case: when to take it and when to close it. */
export interface CasePlan {
  seenAt: number;
  acceptAt: number;
  closeAt: number;
}

/** Draws the plan for a case first seen at `seenAt`: taken after 30–120 s, closed after the drawn delay. */
export function planCase(
  random: () => number,
  seenAt: number,
  closeAfterMinutes: readonly [number, number],
): CasePlan {
  const [fewest, most] = closeAfterMinutes;
  const closeAt = seenAt + (fewest + random() * (most - fewest)) * 60_000;
  const acceptAt = Math.min(closeAt, seenAt + (30 + random() * 90) * 1000);
  return { seenAt, acceptAt, closeAt };
}

/**
 * The step due now for one case, or null: accept a NEW case once its time came; resolve and close
 * once the close time came — except the newest open case, which waits until it is
 * `newestOpenMinutes` old.
 */
export function dueStep(
  item: Pick<OpenCase, 'status' | 'openedAt'>,
  plan: CasePlan,
  isNewest: boolean,
  now: number,
  newestOpenMinutes: number,
): 'accept' | 'resolve' | 'close' | null {
  const mayClose =
    now >= plan.closeAt && (!isNewest || now - Date.parse(item.openedAt) >= newestOpenMinutes * 60_000);
  if (item.status === 'NEW') return now >= plan.acceptAt ? 'accept' : null;
  if (!mayClose) return null;
  if (item.status === 'IN_PROCESS') return 'resolve';
  if (item.status === 'RESOLVED') return 'close';
  return null;
}

export interface RunningDutyOperator {
  /** Reads the open cases and takes the steps due now (the timer does it every pollSeconds). */
  tick: () => Promise<void>;
  stop: () => void;
  stats: { accepted: number; closed: number };
}

/** Logs in and works the open SOS cases the account sees until stopped. */
export async function startDutyOperator(options: DutyOperatorOptions): Promise<RunningDutyOperator> {
  const client = new CollectorClient(options);
  await client.login();
  const now = options.now ?? Date.now;
  const random = createRandom(options.seed);
  const plans = new Map<string, CasePlan>();
  const stats = { accepted: 0, closed: 0 };

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    try {
      return await client.call<T>(method, path, body);
    } catch (error) {
      if (!isSessionLost(error)) throw error;
      await client.login();
      return client.call<T>(method, path, body);
    }
  };

  const tick = async () => {
    const page = await call<{ items: OpenCase[] }>(
      'GET',
      '/account/sos-cases?open=true&page=0&size=100&sortField=opened&sortType=desc',
    );
    const open = page.items.filter((item) => item.status !== 'CLOSED');
    const newest = open.reduce<OpenCase | undefined>(
      (latest, item) => (latest === undefined || item.openedAt > latest.openedAt ? item : latest),
      undefined,
    );
    const stillOpen = new Set(open.map((item) => item.id));
    for (const id of plans.keys()) if (!stillOpen.has(id)) plans.delete(id);
    for (const item of open) {
      let plan = plans.get(item.id);
      if (plan === undefined) {
        plan = planCase(random, now(), options.closeAfterMinutes);
        plans.set(item.id, plan);
      }
      const step = dueStep(item, plan, item.id === newest?.id, now(), options.newestOpenMinutes);
      if (step === null) continue;
      const code = item.patient.patientCode ?? item.id;
      try {
        if (step === 'accept') {
          await call('PUT', `/account/sos-cases/${item.id}/accept`, {});
          stats.accepted += 1;
          options.log(`took the SOS case of ${code}`);
        } else {
          if (step === 'resolve')
            await call('PUT', `/account/sos-cases/${item.id}/resolve`, {
              reason: DUTY_OPERATOR_NOTES.resolve,
            });
          await call('PUT', `/account/sos-cases/${item.id}/close`, { reason: DUTY_OPERATOR_NOTES.close });
          stats.closed += 1;
          plans.delete(item.id);
          options.log(`closed the SOS case of ${code}`);
        }
      } catch (error) {
        // Someone else worked the case meanwhile (invalid transition): read it again next time.
        options.log(`case of ${code}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };

  let isStopped = false;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => (isStopped ? undefined : tick()))
      .catch((error: unknown) => {
        options.log(`duty operator: ${error instanceof Error ? error.message : String(error)}`);
      });
  }, options.pollSeconds * 1000);
  timer.unref();
  return {
    tick,
    stats,
    stop: () => {
      isStopped = true;
      clearInterval(timer);
    },
  };
}
