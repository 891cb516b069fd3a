import type { TenantTransaction } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { handleLevelSignal, handleNoDataSignal, type LevelSignal, type NoDataSignal } from './escalation.js';

/*
 * The entry points the vitals side calls. The signal types live with their handler in
 * escalation.ts (re-exported here), so this module depends on escalation and never the other way.
 */
export type { LevelSignal, NoDataSignal };

/**
 * Called by the status engine inside the transaction that stored the readings (and by the SOS
 * and hotline calls): opens the alert, the SOS case and ticket, queues the messages and calls,
 * schedules the escalation timers and publishes the live events, all in that transaction, so
 * nothing of it exists unless the readings do. See handleLevelSignal for the rules.
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
