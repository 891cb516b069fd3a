import type { TenantTransaction } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { handleLevelSignal, handleNoDataSignal } from './escalation.js';
import type { LevelSignal, NoDataSignal } from './escalation-plan.js';

/*
 * The entry points the vitals side calls. The signal types live with the pure escalation rules
 * (escalation-plan.ts, re-exported here); this module depends on the executor (escalation.ts) and
 * nothing of the alerting side depends on it.
 */
export type { LevelSignal, NoDataSignal };

/**
 * Called by the status engine inside the transaction that stored the readings (and by the SOS
 * and hotline calls): opens the alert, the SOS case and ticket, queues the messages and calls,
 * schedules the escalation timers and publishes the live events, all in that transaction, so
 * nothing of it exists unless the readings do. The rules are escalation-plan.ts planEscalation.
 */
export async function signalLevel(tx: TenantTransaction, clock: Clock, signal: LevelSignal): Promise<void> {
  await handleLevelSignal(tx, clock, signal);
}

/**
 * Called by the vitals no-data check inside the transaction that marks the device NO_SYNC (once per
 * silence: the next sync sets it ONLINE again). The alerting side raises the no-data alert.
 */
export async function signalNoData(tx: TenantTransaction, clock: Clock, signal: NoDataSignal): Promise<void> {
  await handleNoDataSignal(tx, clock, signal);
}
