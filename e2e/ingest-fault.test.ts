import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, startServer, type RunningServer } from './support/harness.js';

/**
 * The collector under a crash (issue "fault test"): a client streams batches of readings and SOS
 * presses and retries every batch with the same batch id until it is answered; meanwhile the server
 * is killed with SIGKILL (no shutdown work) and started again on the same database. Afterwards every
 * reading is stored exactly once and every SOS press has its SOS case.
 */
let server: RunningServer;
let token = '';

beforeAll(async () => {
  server = await startServer();
  const response = await fetch(`${server.baseUrl}/auth/oauth-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenant: DEMO_TENANT_CODE,
      username: 'doctor@demo.example',
      password: DEMO_PASSWORD,
      grant_type: 'password',
      // The doctor app's session answers with a bearer token (the console's lives in a cookie).
      app: 'doctor',
    }),
  });
  token = ((await response.json()) as { data: { accessToken: string } }).data.accessToken;
});

afterAll(async () => {
  await server.stop();
});

async function query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

interface Batch {
  batchId: string;
  patientId: string;
  readings: { measure: string; value: number; measuredAt: string; source: string }[];
  events: { type: 'SOS_BUTTON'; at: string }[];
}

/** Posts one batch until the server answers it (connection refused or reset while it is down). */
async function deliver(batch: Batch): Promise<{ attempts: number }> {
  const deadline = Date.now() + 90_000;
  for (let attempts = 1; ; attempts++) {
    try {
      const response = await fetch(`${server.baseUrl}/collector/readings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(batch),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status === 200) return { attempts };
      if (response.status < 500)
        throw new Error(`batch refused: ${String(response.status)} ${await response.text()}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('batch refused')) throw error;
      // The server is down or was killed mid-request: the same batch id again.
    }
    if (Date.now() > deadline) throw new Error(`batch ${batch.batchId} never answered`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('collector fault tolerance', () => {
  it('kill -9 in the middle of a stream: 0 readings lost, 0 duplicated, 0 SOS cases lost', async () => {
    // Patients of the doctor's center, in NORMAL status with no open SOS case.
    const patients = await query<{ id: string }>(
      `SELECT p.id FROM patients p JOIN health_centers c ON c.tenant_id = p.tenant_id AND c.id = p.health_center_id
        WHERE c.name = 'Saigon Heart Center' AND p.status = 'NORMAL'
          AND NOT EXISTS (SELECT 1 FROM sos_cases s WHERE s.patient_id = p.id AND s.status <> 'CLOSED')
        ORDER BY p.patient_code LIMIT 6`,
    );
    expect(patients.length).toBeGreaterThanOrEqual(4);
    const start = Date.now() - 6 * 3600_000;
    const batches: Batch[] = Array.from({ length: 48 }, (_, index) => {
      const patient = patients[index % patients.length];
      if (patient === undefined) throw new Error('no patient');
      return {
        batchId: randomUUID(),
        patientId: patient.id,
        readings: Array.from({ length: 250 }, (_, reading) => ({
          measure: reading % 2 === 0 ? 'HEART_RATE' : 'STEPS',
          value: reading % 2 === 0 ? 72 : reading,
          // One reading per second per patient, each batch its own stretch of time.
          measuredAt: new Date(
            start + (Math.floor(index / patients.length) * 250 + reading) * 1000,
          ).toISOString(),
          source: 'WIRELESS_DEVICE',
        })),
        // Four batches around the crash (for four different patients) carry an SOS press.
        events:
          index >= 12 && index < 16
            ? [{ type: 'SOS_BUTTON', at: new Date(start + index * 1000).toISOString() }]
            : [],
      };
    });

    // Three clients stream the batches; the server is killed while they are at it and restarted.
    const queue = [...batches];
    let delivered = 0;
    let retried = 0;
    const client = async () => {
      for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) {
        const { attempts } = await deliver(batch);
        delivered++;
        if (attempts > 1) retried++;
      }
    };
    const crash = (async () => {
      while (delivered < 12) await new Promise((resolve) => setTimeout(resolve, 20));
      await server.crash();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await server.restart();
    })();
    await Promise.all([client(), client(), client(), crash]);
    expect(delivered).toBe(batches.length);
    // The crash really hit the stream: some batches had to be sent again.
    expect(retried).toBeGreaterThan(0);

    const ids = batches.map((batch) => batch.batchId);
    const [stored] = await query<{ rows: number; distinct_rows: number }>(
      `SELECT count(*)::int AS rows,
              count(DISTINCT (patient_id, measure, measured_at, source))::int AS distinct_rows
         FROM readings WHERE batch_id = ANY($1::uuid[])`,
      [ids],
    );
    const expected = batches.reduce((sum, batch) => sum + batch.readings.length, 0);
    expect(stored).toEqual({ rows: expected, distinct_rows: expected });
    // The hourly rollups count each reading once too.
    const [rolled] = await query<{ n: number }>(
      `SELECT coalesce(sum(count), 0)::int AS n FROM readings_hourly WHERE patient_id = ANY($1::uuid[]) AND measure IN ('HEART_RATE', 'STEPS')
          AND bucket_start >= date_trunc('hour', $2::timestamptz)`,
      [patients.map((patient) => patient.id), new Date(start).toISOString()],
    );
    expect(rolled?.n).toBe(expected);

    const sosPatients = batches.slice(12, 16).map((batch) => batch.patientId);
    const cases = await query<{ patient_id: string; status: string }>(
      `SELECT patient_id, status FROM sos_cases WHERE patient_id = ANY($1::uuid[]) AND status <> 'CLOSED'`,
      [sosPatients],
    );
    expect(cases.map((row) => row.patient_id).sort()).toEqual([...sosPatients].sort());
    const statuses = await query<{ status: string }>(
      'SELECT status FROM patients WHERE id = ANY($1::uuid[])',
      [sosPatients],
    );
    expect(statuses.map((row) => row.status)).toEqual(['SOS', 'SOS', 'SOS', 'SOS']);
    expect(server.output()).not.toMatch(/"level":50/);
  }, 180_000);
});
