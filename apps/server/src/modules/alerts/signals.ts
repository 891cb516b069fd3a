import type { AlertLevel, AlertType } from '@rpm/contracts';
import type { TenantTransaction } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { handleLevelSignal, handleNoDataSignal } from './escalation.js';

/**
 * What the vitals status engine tells the alerting side, inside the transaction that stored the
 * readings: a patient reached `level` because of these readings (or a fall, the SOS button, a
 * hotline call). The alerting side opens alerts, SOS cases and tickets, schedules the escalation
 * timers and publishes the live events — all in the same transaction.
 */
export interface LevelSignal {
  tenantId: string;
  patientId: string;
  healthCenterId: string | null;
  level: AlertLevel;
  /** The patient's status before this batch. */
  previousStatus: 'NORMAL' | AlertLevel;
  alertType: AlertType;
  /** The readings (canonical units) that reached the level, for "vitals at SOS time". */
  vitals: readonly { measure: string; value: number; measuredAt: Date }[];
  /** Where the patient was, if the device said. */
  location?: { lat: number; lng: number } | null;
  source: 'READING' | 'FALL' | 'SOS_BUTTON' | 'HOTLINE_CALL' | 'MANUAL' | 'NO_DATA';
}

/**
 * Called by the status engine inside the transaction that stored the readings (and by the SOS
 * and hotline calls): opens the alert, the SOS case and ticket, queues the messages and calls,
 * schedules the escalation timers and publishes the live events, all in that transaction, so
 * nothing of it exists unless the readings do. See handleLevelSignal for the rules.
 */
export async function signalLevel(tx: TenantTransaction, clock: Clock, signal: LevelSignal): Promise<void> {
  await handleLevelSignal(tx, clock, signal);
}

/** A patient whose bound device stopped syncing (no-data check, spec "no-data alert"). */
export interface NoDataSignal {
  tenantId: string;
  patientId: string;
  healthCenterId: string | null;
  deviceId: string;
  lastSyncedAt: Date | null;
  /** The tenant's allowed silence that was exceeded. */
  thresholdMinutes: number;
}

/**
 * Called by the vitals no-data check inside the transaction that marks the device NO_SYNC (once per
 * silence: the next sync sets it ONLINE again). The alerting side raises the no-data alert.
 */
export async function signalNoData(tx: TenantTransaction, clock: Clock, signal: NoDataSignal): Promise<void> {
  await handleNoDataSignal(tx, clock, signal);
}
