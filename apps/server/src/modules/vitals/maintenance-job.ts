import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { NO_DATA_WINDOW } from '@rpm/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { tenants, tenantSettings } from '../../db/schema.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { signalNoData } from '../alerts/signals.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { activeTenantIds } from '../staff/store.js';

/** Months of readings partitions kept ready ahead of the current one. */
export const PARTITION_MONTHS_AHEAD = 3;
/** Spec "no-data alert": minutes without a sync before a bound device is NO_SYNC (tenant setting NO_DATA_ALERT_MINUTES). */
export const DEFAULT_NO_DATA_MINUTES = NO_DATA_WINDOW.defaultMinutes;

/**
 * Creates this month's readings partition and the next three, in the platform database and in
 * every DEDICATED tenant's own databases, primary and vitals (ensure_readings_partitions is idempotent and moves
 * strays out of the default partition). Returns how many partitions were created.
 */
export async function ensurePartitionsAhead(
  database: Database,
  clock: Clock,
  logger?: FastifyBaseLogger,
): Promise<number> {
  const now = clock.now();
  const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
  const call = sql`SELECT ensure_readings_partitions(${month}::date, ${PARTITION_MONTHS_AHEAD + 1}) AS created`;
  const first = await database.system.execute<{ created: number }>(call);
  let created = first.rows[0]?.created ?? 0;
  const dedicated = await database.system
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.connectionType, 'DEDICATED'));
  for (const tenant of dedicated) {
    try {
      const result = await database.withTenant(tenant.id, (tx) => tx.execute<{ created: number }>(call));
      created += result.rows[0]?.created ?? 0;
      // Its readings live in its vitals database when it has one of its own.
      if ((await database.vitalsPlacement(tenant.id)) === 'vitals') {
        const vitals = await database.withVitals(tenant.id, { patientIds: 'all' }, (tx) => tx.execute<{ created: number }>(call));
        created += vitals.rows[0]?.created ?? 0;
      }
    } catch (error) {
      logger?.error(
        { err: error, tenantId: tenant.id },
        'vitals: creating readings partitions failed for a tenant',
      );
    }
  }
  return created;
}

function noDataMinutesOf(stored: string | undefined): number {
  const value = Number(stored);
  return stored !== undefined && Number.isInteger(value) && value >= NO_DATA_WINDOW.minMinutes && value <= NO_DATA_WINDOW.maxMinutes
    ? value
    : DEFAULT_NO_DATA_MINUTES;
}

/** Every listed tenant's no-data window in minutes, read in one query (the check runs every minute). */
async function noDataWindows(database: Database, tenantIds: string[]): Promise<Map<string, number>> {
  const rows =
    tenantIds.length === 0
      ? []
      : await database.system
          .select({ tenantId: tenantSettings.tenantId, value: tenantSettings.value })
          .from(tenantSettings)
          .where(and(eq(tenantSettings.key, 'NO_DATA_ALERT_MINUTES'), inArray(tenantSettings.tenantId, tenantIds)));
  const stored = new Map(rows.map((row) => [row.tenantId, row.value]));
  return new Map(tenantIds.map((tenantId) => [tenantId, noDataMinutesOf(stored.get(tenantId))]));
}

/**
 * The no-data check: in every active tenant, bound devices whose last sync is at least the
 * tenant's window old become NO_SYNC and the alerting side is told, once per silence, in the same
 * transaction. Rows another server is handling are skipped. It runs every minute (the periodic
 * task below), so the alert comes within a minute of the window; one pass is one settings query
 * plus, per tenant, one UPDATE on the index `devices_by_last_sync` that finds only the newly
 * silent watches (NO_SYNC ones are not touched again).
 */
export async function checkNoData(
  database: Database,
  clock: Clock,
  logger?: FastifyBaseLogger,
): Promise<number> {
  const now = clock.now();
  let flagged = 0;
  const tenantIds = await activeTenantIds(database.system);
  const windows = await noDataWindows(database, tenantIds);
  for (const tenantId of tenantIds) {
    try {
      const minutes = windows.get(tenantId) ?? DEFAULT_NO_DATA_MINUTES;
      const cutoff = new Date(now.getTime() - minutes * MINUTE);
      flagged += await database.withTenant(tenantId, async (tx) => {
        const silent = await tx.execute<{
          id: string;
          patient_id: string;
          last_synced_at: string | null;
          health_center_id: string | null;
        }>(sql`
          UPDATE devices SET app_status = 'NO_SYNC', updated_at = ${now.toISOString()}::timestamptz
           WHERE (tenant_id, id) IN (
                 SELECT tenant_id, id FROM devices
                  WHERE tenant_id = ${tenantId} AND patient_id IS NOT NULL AND app_status <> 'NO_SYNC'
                    AND last_synced_at <= ${cutoff.toISOString()}::timestamptz
                  FOR UPDATE SKIP LOCKED)
          RETURNING id, patient_id, last_synced_at::text,
                    (SELECT health_center_id FROM patients WHERE patients.tenant_id = devices.tenant_id AND patients.id = devices.patient_id)`);
        for (const device of silent.rows) {
          await signalNoData(tx, clock, {
            tenantId,
            patientId: device.patient_id,
            healthCenterId: device.health_center_id,
            deviceId: device.id,
            lastSyncedAt: device.last_synced_at === null ? null : new Date(device.last_synced_at),
            thresholdMinutes: minutes,
          });
        }
        return silent.rows.length;
      });
    } catch (error) {
      logger?.error({ err: error, tenantId }, 'vitals: no-data check failed for a tenant');
    }
  }
  return flagged;
}

/** A non-overlapping loop: the next pass is scheduled when the previous one has finished. */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private isStopped = true;

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<unknown>,
    private readonly logger: FastifyBaseLogger,
    private readonly intervalMilliseconds: number,
  ) {}

  start(runNow = false): void {
    this.isStopped = false;
    this.schedule(runNow ? 0 : this.intervalMilliseconds);
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delay: number): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      this.current = this.pass()
        .then(
          () => undefined,
          (error: unknown) => {
            this.logger.error({ err: error }, `vitals: ${this.name} pass failed`);
          },
        )
        .finally(() => {
          this.current = undefined;
          this.schedule(this.intervalMilliseconds);
        });
    }, delay);
    this.timer.unref();
  }
}

/**
 * The no-data check runs every minute on the job queue's crontab (one run per minute for the
 * whole process group, by the platform database's runner), with the clock of the runner.
 */
export const NO_DATA_CHECK_TASK = definePeriodicTask({
  name: 'vitals.noDataCheck',
  schedule: '* * * * *',
  handler: async ({ database, clock, log }) => {
    await checkNoData(database, clock, log);
  },
});

/** Partition maintenance (at start, then every 6 hours). The no-data check is a periodic job (above). */
export function installVitalsJobs(app: FastifyInstance): void {
  const partitions = new PeriodicTask(
    'partition maintenance',
    () => ensurePartitionsAhead(app.database, app.clock, app.log),
    app.log,
    6 * 60 * MINUTE,
  );
  app.addHook('onReady', async () => {
    partitions.start(true);
  });
  app.addHook('onClose', async () => {
    await partitions.stop();
  });
}
