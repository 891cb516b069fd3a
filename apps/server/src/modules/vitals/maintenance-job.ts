import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { tenants } from '../../db/schema.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { signalNoData } from '../alerts/signals.js';
import { readTenantSettings } from '../tenants/store.js';
import { activeTenantIds } from '../staff/store.js';

/** Months of readings partitions kept ready ahead of the current one. */
export const PARTITION_MONTHS_AHEAD = 3;
/** Spec "no-data alert": minutes without a sync before a bound device is NO_SYNC (tenant setting NO_DATA_ALERT_MINUTES). */
export const DEFAULT_NO_DATA_MINUTES = 60;

/**
 * Creates this month's readings partition and the next three, in the platform database and in
 * every DEDICATED tenant's own database (ensure_readings_partitions is idempotent and moves
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
    } catch (error) {
      logger?.error(
        { err: error, tenantId: tenant.id },
        'vitals: creating readings partitions failed for a tenant',
      );
    }
  }
  return created;
}

function noDataMinutesOf(settings: Map<string, string>): number {
  const value = Number(settings.get('NO_DATA_ALERT_MINUTES'));
  return Number.isInteger(value) && value >= 15 && value <= 10_080 ? value : DEFAULT_NO_DATA_MINUTES;
}

/**
 * The no-data check: in every active tenant, bound devices whose last sync is older than the
 * tenant's limit become NO_SYNC and the alerting side is told, once per silence, in the same
 * transaction. Rows another server is handling are skipped.
 */
export async function checkNoData(
  database: Database,
  clock: Clock,
  logger?: FastifyBaseLogger,
): Promise<number> {
  const now = clock.now();
  let flagged = 0;
  for (const tenantId of await activeTenantIds(database.system)) {
    try {
      const minutes = noDataMinutesOf(await readTenantSettings(database.system, tenantId));
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
                    AND last_synced_at < ${cutoff.toISOString()}::timestamptz
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

/** Partition maintenance (at start, then every 6 hours) and the no-data check (every 5 minutes). */
export function installVitalsJobs(app: FastifyInstance): void {
  const partitions = new PeriodicTask(
    'partition maintenance',
    () => ensurePartitionsAhead(app.database, app.clock, app.log),
    app.log,
    6 * 60 * MINUTE,
  );
  const noData = new PeriodicTask(
    'no-data check',
    () => checkNoData(app.database, app.clock, app.log),
    app.log,
    5 * MINUTE,
  );
  app.addHook('onReady', async () => {
    partitions.start(true);
    noData.start();
  });
  app.addHook('onClose', async () => {
    await Promise.all([partitions.stop(), noData.stop()]);
  });
}
