/**
 * A year of watch readings for every patient of the demo tenant, generated inside PostgreSQL
 * (INSERT … SELECT generate_series into the monthly partitions), with the hourly and daily rollups
 * built from them. Values have the precision watches report: whole beats, percent, milliseconds
 * and mmHg, temperature to a tenth of a degree.
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';

/** What is stored per patient: measure, sampling step, value as SQL of the time `t`. */
export const SERIES = [
  { measure: 'HEART_RATE', step: '1 minute', value: `round(70 + 12 * sin(extract(epoch FROM t) / 13751.0) + random() * 8)` },
  { measure: 'SPO2', step: '1 minute', value: `round(95 + random() * 4)` },
  { measure: 'HRV', step: '3 minutes', value: `round(40 + random() * 25)` },
  { measure: 'SYSTOLIC', step: '20 minutes', value: `round(110 + random() * 15)` },
  { measure: 'DIASTOLIC', step: '20 minutes', value: `round(68 + random() * 9)` },
  { measure: 'TEMPERATURE', step: '30 minutes', value: `round((36.3 + random() * 0.6)::numeric, 1)::float8` },
] as const;

export const diskFree = () => {
  try {
    return execFileSync('df', ['-h', '/'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
  } catch {
    return 'unknown';
  }
};

export const gigabytes = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);

/** Runs the tasks on the connections, one task per connection at a time. */
export async function runParallel(tasks: ((client: pg.Client) => Promise<unknown>)[], clients: pg.Client[]): Promise<void> {
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let index = next++; index < tasks.length; index = next++) await tasks[index]?.(client);
    }),
  );
}

export async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A bulk load: the benchmark does not need each statement flushed to disk before the next.
  await client.query('SET synchronous_commit = off');
  return client;
}

/** Bytes on disk of the raw readings (every partition with its indexes and TOAST). */
export async function rawReadingsBytes(owner: pg.Client): Promise<number> {
  const result = await owner.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(inhrelid))::text AS bytes FROM pg_inherits WHERE inhparent = 'readings'::regclass`,
  );
  return Number(result.rows[0]?.bytes ?? 0);
}

export interface YearData {
  tenantId: string;
  patients: number;
  stored: number;
  end: Date;
  loadSeconds: number;
  rollupSeconds: number;
  readingsBytes: number;
  rollupBytes: number;
}

/** Stores `days` of readings ending an hour ago for the demo tenant's patients, two connections at a time. */
export async function seedYear(clients: pg.Client[], days: number): Promise<YearData> {
  const [owner] = clients;
  if (owner === undefined) throw new Error('no connection');
  const tenantId = (await owner.query<{ id: string }>(`SELECT id FROM tenants WHERE code = 'demo'`)).rows[0]?.id ?? '';
  const patients = Number((await owner.query<{ count: string }>('SELECT count(*) FROM patients WHERE tenant_id = $1', [tenantId])).rows[0]?.count);
  const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
  const start = new Date(end.getTime() - days * 86_400_000);
  await owner.query(`SELECT ensure_readings_partitions($1::date, $2)`, [start.toISOString().slice(0, 10), Math.ceil(days / 30) + 2]);

  // Month slices × measures.
  const slices: { from: Date; to: Date }[] = [];
  for (let from = start; from < end; ) {
    const to = new Date(Math.min(end.getTime(), from.getTime() + 30 * 86_400_000));
    slices.push({ from, to });
    from = to;
  }
  const loadStarted = performance.now();
  await runParallel(
    slices.flatMap((slice) =>
      SERIES.map((series) => async (client: pg.Client) => {
        await client.query(
          `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source)
           SELECT p.tenant_id, p.id, $2, t, ${series.value}, 'WIRELESS_DEVICE'
             FROM patients p
            CROSS JOIN generate_series($3::timestamptz, $4::timestamptz - interval '1 second', $5::interval) AS t
            WHERE p.tenant_id = $1
           ON CONFLICT DO NOTHING`,
          [tenantId, series.measure, slice.from.toISOString(), slice.to.toISOString(), series.step],
        );
      }),
    ),
    clients,
  );
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const stored = Number((await owner.query<{ count: string }>('SELECT count(*) FROM readings')).rows[0]?.count);

  // Rollups from scratch: hourly per month slice, daily from hourly.
  const rollupStarted = performance.now();
  await owner.query('TRUNCATE readings_hourly, readings_daily');
  await runParallel(
    slices.map((slice) => async (client: pg.Client) => {
      await client.query(
        `INSERT INTO readings_hourly (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
         SELECT tenant_id, patient_id, measure, date_trunc('hour', measured_at, 'UTC'), count(*), sum(value), min(value), max(value),
                (array_agg(value ORDER BY measured_at DESC))[1], max(measured_at)
           FROM readings
          WHERE measured_at >= $1 AND measured_at < $2
          GROUP BY tenant_id, patient_id, measure, date_trunc('hour', measured_at, 'UTC')`,
        [slice.from.toISOString(), slice.to.toISOString()],
      );
    }),
    clients,
  );
  await owner.query(
    `INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
     SELECT tenant_id, patient_id, measure, date_trunc('day', bucket_start, 'UTC'), sum(count), sum(sum), min(min), max(max),
            (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
       FROM readings_hourly
      GROUP BY tenant_id, patient_id, measure, date_trunc('day', bucket_start, 'UTC')`,
  );
  await owner.query('VACUUM ANALYZE readings_hourly');
  await owner.query('VACUUM ANALYZE readings_daily');
  await owner.query('ANALYZE readings');
  const rollupSeconds = (performance.now() - rollupStarted) / 1000;
  const rollupBytes = Number(
    (await owner.query<{ bytes: string }>(`SELECT (pg_total_relation_size('readings_hourly') + pg_total_relation_size('readings_daily'))::text AS bytes`)).rows[0]
      ?.bytes ?? 0,
  );
  return { tenantId, patients, stored, end, loadSeconds, rollupSeconds, readingsBytes: await rawReadingsBytes(owner), rollupBytes };
}
