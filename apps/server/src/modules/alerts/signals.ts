import type { AlertLevel, AlertType } from '@rpm/contracts';
import type { TenantTransaction } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';

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
  source: 'READING' | 'FALL' | 'SOS_BUTTON' | 'HOTLINE_CALL' | 'MANUAL';
}

export async function signalLevel(_tx: TenantTransaction, _clock: Clock, _signal: LevelSignal): Promise<void> {
  // Implemented by the alerting module: alerts, SOS cases, tickets and escalation.
}
