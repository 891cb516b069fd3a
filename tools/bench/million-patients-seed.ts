/**
 * The million-patients benchmark's data: the demo tenant grown inside PostgreSQL (INSERT … SELECT
 * generate_series over two connections, triggers and checks on) to the given number of patients
 * and health centers, with care-team doctors, watches, alerts, SOS cases and tickets, then vacuumed
 * and analyzed. What is generated, and in what shares, is described where it is inserted.
 */
import pg from 'pg';

/** Care-team doctors per center (the demo's doctor is one of the main center's). */
export const DOCTORS_PER_CENTER = 8;
/** Patients per INSERT statement; the two connections take chunks in turn. */
const CHUNK = 50_000;
/** Generated patient codes: BNCS1000001 … (all the same length, so text order is number order). */
const CODE_BASE = 1_000_000;

// Vietnamese names, family names weighted roughly as in the population (Nguyen about 38 %).
const FAMILY_NAMES = Object.entries({
  Nguyen: 38,
  Tran: 11,
  Le: 10,
  Pham: 7,
  Hoang: 5,
  Huynh: 5,
  Phan: 4,
  Vu: 4,
  Vo: 4,
  Dang: 2,
  Bui: 2,
  Do: 2,
  Ho: 1,
  Ngo: 1,
  Duong: 1,
  Ly: 1,
  Trinh: 1,
  Dinh: 1,
}).flatMap(([name, weight]) => Array.from({ length: weight }, () => name));
const MALE_MIDDLE = ['Van', 'Duc', 'Minh', 'Quoc', 'Huu', 'Thanh', 'Gia', 'Dinh', 'Cong', 'Xuan'];
const FEMALE_MIDDLE = ['Thi', 'Ngoc', 'Thu', 'Thanh', 'Kim', 'Bich', 'My', 'Hong', 'Phuong', 'Thuy'];
const MALE_GIVEN = [
  'An',
  'Bao',
  'Binh',
  'Cuong',
  'Dung',
  'Duc',
  'Hai',
  'Hieu',
  'Hoang',
  'Hung',
  'Huy',
  'Khang',
  'Khanh',
  'Khoa',
  'Kien',
  'Long',
  'Minh',
  'Nam',
  'Nghia',
  'Phong',
  'Phuc',
  'Quan',
  'Quang',
  'Son',
  'Tai',
  'Tam',
  'Thang',
  'Thanh',
  'Thinh',
  'Toan',
  'Trung',
  'Tuan',
  'Tung',
  'Viet',
  'Vinh',
  'Dat',
  'Loc',
  'Hau',
];
const FEMALE_GIVEN = [
  'Anh',
  'Chau',
  'Chi',
  'Diep',
  'Giang',
  'Ha',
  'Hanh',
  'Hien',
  'Hoa',
  'Hong',
  'Hue',
  'Huong',
  'Lan',
  'Lien',
  'Linh',
  'Loan',
  'Mai',
  'My',
  'Nga',
  'Ngan',
  'Ngoc',
  'Nhung',
  'Oanh',
  'Phuong',
  'Quynh',
  'Thao',
  'Thu',
  'Thuy',
  'Trang',
  'Trinh',
  'Tuyet',
  'Uyen',
  'Van',
  'Vy',
  'Xuan',
  'Yen',
  'Dao',
  'Hang',
];

export async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  // The database is dropped at the end (FORCE ends these connections): not an error to crash on.
  client.on('error', () => undefined);
  await client.connect();
  // A bulk load: the benchmark does not need each statement flushed to disk before the next.
  await client.query('SET synchronous_commit = off');
  return client;
}

/** Runs the tasks on the connections, one task per connection at a time. */
async function runParallel(tasks: ((client: pg.Client) => Promise<unknown>)[], clients: pg.Client[]) {
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let index = next++; index < tasks.length; index = next++) await tasks[index]?.(client);
    }),
  );
}

/** Chunks [1, count] into CHUNK-sized ranges. */
const rangesOf = (count: number) =>
  Array.from({ length: Math.ceil(count / CHUNK) }, (_, index) => ({
    from: index * CHUNK + 1,
    to: Math.min(count, (index + 1) * CHUNK),
  }));
const codeOf = (n: number) => `BNCS${String(CODE_BASE + n)}`;

export interface Seeded {
  seconds: number;
}

/** The health centers in a fixed order, the demo's main center (Saigon Heart Center) first. */
export async function centerIds(owner: pg.Client, tenantId: string): Promise<string[]> {
  const rows = await owner.query<{ id: string }>(
    `SELECT id FROM health_centers WHERE tenant_id = $1 ORDER BY (name <> 'Saigon Heart Center'), created_at, name`,
    [tenantId],
  );
  return rows.rows.map((row) => row.id);
}

export async function seed(
  clients: pg.Client[],
  tenantId: string,
  generated: number,
  centerCount: number,
): Promise<Seeded> {
  const [owner] = clients;
  if (owner === undefined) throw new Error('no connection');
  const started = performance.now();
  const step = async (label: string, work: () => Promise<unknown>) => {
    const at = performance.now();
    await work();
    console.log(`  ${label}: ${((performance.now() - at) / 1000).toFixed(1)} s`);
  };

  // Centers: the demo's three, plus generated ones under the demo's two districts.
  await step('centers and doctors', async () => {
    await owner.query(
      `INSERT INTO health_centers (tenant_id, id, scope_id, name, type, hotline, phone_prefix, phone_number, email, address)
       SELECT $1, gen_random_uuid(), d.ids[1 + n % cardinality(d.ids)], 'Bench Clinic ' || lpad(n::text, 3, '0'),
              CASE WHEN n % 4 = 0 THEN 'HOSPITAL' ELSE 'CLINIC' END, '1900' || lpad(n::text, 4, '0'), '+84',
              '28' || lpad((38000000 + n)::text, 8, '0'), 'clinic' || n || '@bench.example', n || ' Bench Street'
         FROM (SELECT array_agg(DISTINCT scope_id) AS ids FROM health_centers WHERE tenant_id = $1) d,
              generate_series(1, $2::int - (SELECT count(*)::int FROM health_centers WHERE tenant_id = $1)) n`,
      [tenantId, centerCount],
    );
    const centers = await centerIds(owner, tenantId);
    // Doctors: each center gets DOCTORS_PER_CENTER, counting the ones it has.
    await owner.query(
      `INSERT INTO users (tenant_id, id, email, first_name, last_name, role, health_center_id, password_hash)
       SELECT $1, gen_random_uuid(), 'doctor' || c.k || '.' || s || '@bench.example', 'Doctor', 'Bench ' || c.k || '-' || s,
              'DOCTOR', c.id, (SELECT password_hash FROM users WHERE tenant_id = $1 AND email = 'doctor@demo.example')
         FROM unnest($2::uuid[]) WITH ORDINALITY AS c (id, k), generate_series(1, $3::int) s
        WHERE s > (SELECT count(*) FROM users u WHERE u.tenant_id = $1 AND u.role = 'DOCTOR' AND u.health_center_id = c.id)`,
      [tenantId, centers, DOCTORS_PER_CENTER],
    );
    // Silent watches are the ones quiet for a day: the no-data check then finds nothing new to flag
    // while the benchmark runs (with the default hour, thousands of watches would cross it a minute).
    await owner.query(
      `INSERT INTO tenant_settings (tenant_id, key, value) VALUES ($1, 'NO_DATA_ALERT_MINUTES', '1440')
       ON CONFLICT (tenant_id, key) DO UPDATE SET value = EXCLUDED.value`,
      [tenantId],
    );
  });
  const centers = await centerIds(owner, tenantId);
  // The doctors of each center in turn (main center: the demo doctor first), DOCTORS_PER_CENTER each.
  const doctorRows = await owner.query<{ id: string; center: string }>(
    `SELECT id, health_center_id AS center FROM users WHERE tenant_id = $1 AND role = 'DOCTOR'
      ORDER BY (email <> 'doctor@demo.example'), created_at, email`,
    [tenantId],
  );
  const doctors = centers.flatMap((center) =>
    doctorRows.rows
      .filter((row) => row.center === center)
      .slice(0, DOCTORS_PER_CENTER)
      .map((row) => row.id),
  );
  if (doctors.length !== centers.length * DOCTORS_PER_CENTER) throw new Error('doctors missing');

  // Patients: 87 % NORMAL, 9 % AT_RISK, 3.9 % HIGH_RISK, 0.1 % SOS; 0.1 % in no center; 0.3 %
  // deleted (waiting for the purge); last reading: 8 % never, 80 % within 50 minutes, the rest
  // from hours to weeks ago.
  await step(`patients (${generated.toLocaleString('en')})`, () =>
    runParallel(
      rangesOf(generated).map(
        (range) => (client: pg.Client) =>
          client.query(
            `WITH g AS (
             SELECT n, random() AS r_status, random() AS r_read, random() AS r_age, random() AS r_sex, random() AS r_first,
                    random() AS r_middle, random() AS r_family, random() AS r_created, random() AS r_state,
                    random() AS r_mail, random() AS r_package
               FROM generate_series($2::int, $3::int) AS n),
           named AS (
             SELECT g.*, CASE WHEN r_sex < 0.5 THEN 'MALE' ELSE 'FEMALE' END AS gender,
                    ($4::text[])[1 + floor(r_family * cardinality($4::text[]))::int] AS family_name,
                    CASE WHEN r_sex < 0.5 THEN ($5::text[])[1 + floor(r_middle * cardinality($5::text[]))::int]
                         ELSE ($6::text[])[1 + floor(r_middle * cardinality($6::text[]))::int] END AS middle_name,
                    CASE WHEN r_sex < 0.5 THEN ($7::text[])[1 + floor(r_first * cardinality($7::text[]))::int]
                         ELSE ($8::text[])[1 + floor(r_first * cardinality($8::text[]))::int] END AS given_name,
                    CASE WHEN r_status < 0.87 THEN 'NORMAL' WHEN r_status < 0.96 THEN 'AT_RISK'
                         WHEN r_status < 0.999 THEN 'HIGH_RISK' ELSE 'SOS' END AS status,
                    now() - interval '7 days' - r_created * interval '1095 days' AS created_at
               FROM g)
           INSERT INTO patients (tenant_id, id, patient_code, first_name, middle_name, last_name, birthday, gender, phone, email,
                                 status, alert_episode_level, health_center_id, package_code, created_at, updated_at,
                                 last_reading_at, account_state, deletion_requested_at, purge_after, address_line,
                                 address_province, address_country, height_cm, weight_kg)
           SELECT $1, gen_random_uuid(), 'BNCS' || ($10::int + n), given_name, middle_name, family_name,
                  date '1930-01-01' + floor(random() * 26000)::int, gender,
                  '03' || lpad(((n::bigint * 48271) % 99999989)::text, 8, '0'),
                  CASE WHEN r_mail < 0.6 THEN lower(given_name || '.' || family_name) || n || '@mail.example' END,
                  status, status,
                  CASE WHEN n % 997 = 0 THEN NULL ELSE ($9::uuid[])[1 + n % cardinality($9::uuid[])] END,
                  CASE WHEN r_package < 0.5 THEN 'ZERO' WHEN r_package < 0.8 THEN 'BASIC12' ELSE 'BASIC24' END,
                  created_at, created_at,
                  CASE WHEN r_read < 0.08 THEN NULL
                       WHEN r_read < 0.88 THEN now() - r_age * interval '50 minutes'
                       WHEN r_read < 0.96 THEN now() - interval '2 hours' - r_age * interval '3 days'
                       ELSE now() - interval '3 days' - r_age * interval '60 days' END,
                  CASE WHEN r_state < 0.003 THEN 'DISABLED' ELSE 'ACTIVE' END,
                  CASE WHEN r_state < 0.003 THEN now() - interval '5 days' END,
                  CASE WHEN r_state < 0.003 THEN now() + interval '25 days' END,
                  n || ' Nguyen Trai', 'Ho Chi Minh', 'VN', 150 + random() * 40, 45 + random() * 50
             FROM named`,
            [
              tenantId,
              range.from,
              range.to,
              FAMILY_NAMES,
              MALE_MIDDLE,
              FEMALE_MIDDLE,
              MALE_GIVEN,
              FEMALE_GIVEN,
              centers,
              CODE_BASE,
            ],
          ),
      ),
      clients,
    ),
  );
  await owner.query(
    `UPDATE patient_code_sequences SET next_value = greatest(next_value, $2) WHERE tenant_id = $1`,
    [tenantId, CODE_BASE + generated + 1],
  );

  /** One statement per chunk of generated patients, `p` being those patients. */
  const perChunk = (label: string, statement: string, extra: unknown[] = []) =>
    step(label, () =>
      runParallel(
        rangesOf(generated).map(
          (range) => (client: pg.Client) =>
            client.query(
              statement.replace(
                '$PATIENTS',
                `(SELECT * FROM patients WHERE tenant_id = $1 AND patient_code BETWEEN $2 AND $3 AND length(patient_code) = 11)`,
              ),
              [tenantId, codeOf(range.from), codeOf(range.to), ...extra],
            ),
        ),
        clients,
      ),
    );

  // App accounts for one patient in 50 (a PATIENT login of their own), half of them holding the
  // next patient as a sub-user (one patient in 100: the list names their holder).
  await perChunk(
    'app accounts',
    `INSERT INTO users (tenant_id, id, email, phone, first_name, last_name, role, health_center_id)
     SELECT p.tenant_id, gen_random_uuid(), 'app' || substr(p.patient_code, 5) || '@bench.example', p.phone, p.first_name,
            p.last_name, 'PATIENT', p.health_center_id
       FROM $PATIENTS p WHERE substr(p.patient_code, 5)::int % 50 = 0`,
  );
  await perChunk(
    'sub-users',
    `WITH accounts AS (
       UPDATE patients p SET user_id = u.id
         FROM users u
        WHERE p.tenant_id = $1 AND p.patient_code BETWEEN $2 AND $3 AND length(p.patient_code) = 11
          AND substr(p.patient_code, 5)::int % 50 = 0
          AND u.tenant_id = $1 AND lower(u.email) = 'app' || substr(p.patient_code, 5) || '@bench.example'
       RETURNING p.patient_code, u.id AS user_id)
     UPDATE patients s SET account_kind = 'SUB_USER', holder_user_id = a.user_id, relation = 'PARENT',
                           status = CASE WHEN s.status = 'SOS' THEN 'HIGH_RISK' ELSE s.status END
       FROM accounts a
      WHERE s.tenant_id = $1 AND s.patient_code = 'BNCS' || (substr(a.patient_code, 5)::int + 1)
        AND substr(a.patient_code, 5)::int % 100 = 0`,
  );
  // The family doctor: one of the center's doctors.
  await perChunk(
    'care-team links',
    `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation, assigned_at)
     SELECT p.tenant_id, p.id, ($4::uuid[])[(c.k - 1) * $5::int + 1 + (substr(p.patient_code, 5)::int / 100) % $5::int], 'FAMILY', p.created_at
       FROM $PATIENTS p JOIN unnest($6::uuid[]) WITH ORDINALITY AS c (id, k) ON c.id = p.health_center_id`,
    [doctors, DOCTORS_PER_CENTER, centers],
  );
  // Watches for three patients in four: silent (NO_SYNC) once quiet for a day (the bench tenant's
  // no-data window), or never synced.
  await perChunk(
    'watches',
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, connection_status, imported_at,
                          account_username, first_connected_at, last_connected_at, activated_at, app_status, last_synced_at,
                          created_at, updated_at, bound_at)
     SELECT p.tenant_id, gen_random_uuid(), (ARRAY['V19', 'GT2', 'GT5', 'J2025E', 'J2025B'])[1 + n % 5], 'BSN' || n,
            'B0:' || substr(h, 1, 2) || ':' || substr(h, 3, 2) || ':' || substr(h, 5, 2) || ':' || substr(h, 7, 2) || ':' || substr(h, 9, 2),
            p.id, CASE WHEN p.last_reading_at > now() - interval '1 hour' THEN 1 ELSE 0 END, p.created_at, p.phone,
            p.created_at, coalesce(p.last_reading_at, p.created_at), p.created_at,
            CASE WHEN p.last_reading_at IS NULL OR p.last_reading_at <= now() - interval '1 day' THEN 'NO_SYNC'
                 WHEN p.last_reading_at > now() - interval '1 hour' THEN 'ONLINE' ELSE 'OFFLINE' END,
            p.last_reading_at, p.created_at, p.created_at, p.created_at
       FROM (SELECT p.*, substr(p.patient_code, 5)::int AS n, upper(lpad(to_hex(substr(p.patient_code, 5)::int), 10, '0')) AS h
               FROM $PATIENTS p WHERE p.account_state = 'ACTIVE') p
      WHERE random() < 0.75`,
  );
  // What crossed: one unresolved alert per patient above NORMAL, and resolved ones for one in five.
  await perChunk(
    'alerts',
    `INSERT INTO alerts (tenant_id, id, patient_id, type, level, measure_values, status, source, answer, created_at,
                         acknowledged_at, resolved_at)
     SELECT p.tenant_id, gen_random_uuid(), p.id, a.type, a.level,
            jsonb_build_array(jsonb_build_object('measure', a.measure, 'value', a.value, 'measuredAt', a.at)),
            a.status, 'READING', 'NONE', a.at, CASE WHEN a.status <> 'OPEN' THEN a.at + interval '5 minutes' END,
            CASE WHEN a.status = 'RESOLVED' THEN a.at + interval '30 minutes' END
       FROM $PATIENTS p
      CROSS JOIN LATERAL (
             SELECT CASE WHEN p.status = 'NORMAL' THEN 'AT_RISK' ELSE p.status END AS level,
                    CASE WHEN p.status = 'NORMAL' THEN 'RESOLVED' WHEN random() < 0.7 THEN 'OPEN' ELSE 'ACKNOWLEDGED' END AS status,
                    t.type, t.measure, t.value,
                    CASE WHEN p.status = 'NORMAL' THEN p.created_at + random() * (now() - p.created_at)
                         ELSE coalesce(p.last_reading_at, now()) - random() * interval '6 hours' END AS at
               FROM (SELECT (ARRAY['HEART_RATE', 'SPO2', 'BLOOD_PRESSURE', 'TEMPERATURE'])[k] AS type,
                            (ARRAY['HEART_RATE', 'SPO2', 'SYSTOLIC', 'TEMPERATURE'])[k] AS measure,
                            (ARRAY[128, 89, 168, 38.9])[k] AS value
                       FROM (SELECT 1 + floor(random() * 4)::int AS k) pick) t) a
      WHERE p.status <> 'NORMAL' OR random() < 0.2`,
  );
  // SOS cases for three SOS patients in ten and 1 % of all: open (new, in process, resolved) for
  // three in ten of those SOS patients (about 9 % of SOS patients), closed otherwise.
  await perChunk(
    'SOS cases',
    `INSERT INTO sos_cases (tenant_id, id, patient_id, status, reason, source, opened_at, accepted_at, kpi_due_at, resolved_at,
                            closed_at, close_reason)
     SELECT p.tenant_id, gen_random_uuid(), p.id, c.status, 'HEART_RATE', 'READING', c.opened_at,
            CASE WHEN c.status <> 'NEW' THEN c.opened_at + interval '2 minutes' END, c.opened_at + interval '15 minutes',
            CASE WHEN c.status IN ('RESOLVED', 'CLOSED') THEN c.opened_at + interval '40 minutes' END,
            CASE WHEN c.status = 'CLOSED' THEN c.opened_at + interval '1 hour' END,
            CASE WHEN c.status = 'CLOSED' THEN 'Patient safe' END
       FROM $PATIENTS p
      CROSS JOIN LATERAL (
             SELECT CASE WHEN p.status = 'SOS' AND r < 0.3 THEN (ARRAY['NEW', 'IN_PROCESS', 'RESOLVED'])[1 + floor(random() * 3)::int]
                         ELSE 'CLOSED' END AS status,
                    CASE WHEN p.status = 'SOS' AND r < 0.3 THEN now() - random() * interval '6 hours'
                         ELSE p.created_at + random() * (now() - interval '1 day' - p.created_at) END AS opened_at
               FROM (SELECT random() AS r) pick) c
      WHERE (p.status = 'SOS' AND random() < 0.3) OR random() < 0.01`,
  );
  // Tickets for 3.3 % of patients: one in 300 of them open (about one patient in 10,000), the rest closed.
  await step('tickets', async () => {
    const base = Number(
      (
        await owner.query<{ next: string }>(
          `SELECT coalesce(max(number), 0) + 1 AS next FROM tickets WHERE tenant_id = $1`,
          [tenantId],
        )
      ).rows[0]?.next ?? 1,
    );
    await owner.query(
      `INSERT INTO tickets (tenant_id, id, number, type, status, title, patient_id, kpi_due_at, created_at, closed_at)
       SELECT p.tenant_id, gen_random_uuid(), $2::bigint + row_number() OVER (), t.type, t.status, 'Follow-up call', p.id,
              t.created_at + interval '1 day', t.created_at, CASE WHEN t.status IN ('SUCCESS', 'CANCELED') THEN t.created_at + interval '2 hours' END
         FROM patients p
        CROSS JOIN LATERAL (
               SELECT CASE WHEN r < 0.003 THEN (ARRAY['NEW', 'CONFIRMED', 'PROCESSING', 'COMPLETED'])[1 + floor(random() * 4)::int]
                           ELSE (ARRAY['SUCCESS', 'CANCELED'])[1 + floor(random() * 2)::int] END AS status,
                      (ARRAY['ALERT', 'CONSULTATION', 'SUPPORT'])[1 + floor(random() * 3)::int] AS type,
                      CASE WHEN r < 0.003 THEN now() - random() * interval '2 days'
                           ELSE p.created_at + random() * (now() - interval '3 days' - p.created_at) END AS created_at
                 FROM (SELECT random() AS r) pick) t
        WHERE p.tenant_id = $1 AND p.patient_code LIKE 'BNCS1%' AND length(p.patient_code) = 11 AND random() < 0.033`,
      [tenantId, base],
    );
    await owner.query(
      `INSERT INTO ticket_numbers (tenant_id, next_value) SELECT $1, coalesce(max(number), 0) + 1 FROM tickets WHERE tenant_id = $1
       ON CONFLICT (tenant_id) DO UPDATE SET next_value = EXCLUDED.next_value`,
      [tenantId],
    );
  });
  await step('vacuum analyze', async () => {
    for (const table of [
      'patients',
      'patient_doctors',
      'devices',
      'alerts',
      'sos_cases',
      'tickets',
      'users',
      'health_centers',
    ])
      await owner.query(`VACUUM ANALYZE ${table}`);
    // The summaries, the search terms and their documents (written by triggers during the seed):
    // index-only scans read the visibility map, which only a vacuum sets, and the documents' plans
    // need their statistics (without them the planner took a tenant's whole key for selective).
    const summaries = await owner.query<{ name: string }>(
      `SELECT relname AS name FROM pg_class WHERE relname IN ('patient_counts', 'patient_search_terms', 'patient_search_documents') AND relkind = 'r'`,
    );
    for (const { name } of summaries.rows) await owner.query(`VACUUM ANALYZE ${name}`);
  });
  return { seconds: (performance.now() - started) / 1000 };
}

/**
 * The database a run times: the demo tenant grown to `patients` (seeded, or reused as an earlier run
 * left it, then vacuumed and analysed), with what the timing needs of it: the centers (the demo's
 * main center first), what it holds, 50 sampled patients to search for and the demo users' ids.
 */
export async function prepareDatabase(databaseUrl: string, patients: number, centerCount: number) {
  const clients = [await connect(databaseUrl), await connect(databaseUrl)];
  const [owner] = clients;
  if (owner === undefined) throw new Error('no connection');
  const tenantId =
    (await owner.query<{ id: string }>(`SELECT id FROM tenants WHERE code = 'demo'`)).rows[0]?.id ?? '';
  const existing = Number(
    (await owner.query<{ count: string }>('SELECT count(*) FROM patients WHERE tenant_id = $1', [tenantId]))
      .rows[0]?.count,
  );
  // The seeding time is kept as the database's comment, for a later run on it (BENCH_DATABASE).
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  console.log(`database ${databaseName}`);
  let seedSeconds: number | undefined;
  let seedNote = '';
  if (existing < patients) {
    console.log(
      `seeding ${(patients - existing).toLocaleString('en')} patients across ${String(centerCount)} centers`,
    );
    const seeded = await seed(clients, tenantId, patients - existing, centerCount);
    seedSeconds = seeded.seconds;
    console.log(`seeded in ${seedSeconds.toFixed(0)} s`);
    await owner.query(
      `COMMENT ON DATABASE ${pg.escapeIdentifier(databaseName)} IS ${pg.escapeLiteral(`million-patients seeded in ${seedSeconds.toFixed(0)} s`)}`,
    );
  } else {
    console.log(`reusing ${existing.toLocaleString('en')} patients`);
    // A migration the server has just applied may have written millions of rows (0063's search
    // terms): vacuumed and analysed as the seed is, so index-only scans and plans are as they
    // will be once autovacuum has come by (a PostgreSQL may run without it).
    const vacuumStarted = performance.now();
    await owner.query('VACUUM (ANALYZE)');
    console.log(`vacuum analyze: ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);
    const comment = (
      await owner.query<{ comment: string | null }>(
        `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
        [databaseName],
      )
    ).rows[0]?.comment;
    const match = /seeded in (\d+) s/.exec(comment ?? '');
    if (match !== null) {
      seedSeconds = Number(match[1]);
      seedNote = ' (by an earlier run on this database)';
    }
  }
  const centers = await centerIds(owner, tenantId);
  const facts = (
    await owner.query<{
      patients: string;
      active: string;
      open_cases: string;
      open_alerts: string;
      open_tickets: string;
      devices: string;
      silent: string;
      sub_users: string;
      size: string;
    }>(
      `SELECT (SELECT count(*) FROM patients WHERE tenant_id = $1) AS patients,
              (SELECT count(*) FROM patients WHERE tenant_id = $1 AND account_state = 'ACTIVE') AS active,
              (SELECT count(*) FROM sos_cases WHERE tenant_id = $1 AND status <> 'CLOSED') AS open_cases,
              (SELECT count(*) FROM alerts WHERE tenant_id = $1 AND status <> 'RESOLVED') AS open_alerts,
              (SELECT count(*) FROM tickets WHERE tenant_id = $1 AND status NOT IN ('SUCCESS', 'CANCELED')) AS open_tickets,
              (SELECT count(*) FROM devices WHERE tenant_id = $1 AND patient_id IS NOT NULL) AS devices,
              (SELECT count(*) FROM devices WHERE tenant_id = $1 AND patient_id IS NOT NULL AND app_status = 'NO_SYNC') AS silent,
              (SELECT count(*) FROM patients WHERE tenant_id = $1 AND account_kind = 'SUB_USER') AS sub_users,
              pg_size_pretty(pg_total_relation_size('patients')) AS size`,
      [tenantId],
    )
  ).rows[0];
  const samplePatients = (
    await owner.query<{
      code: string;
      phone: string;
      family: string;
      given: string;
      middle: string;
      center: string;
    }>(
      `SELECT patient_code AS code, phone, last_name AS family, first_name AS given, middle_name AS middle, health_center_id AS center
         FROM patients TABLESAMPLE SYSTEM (1) REPEATABLE (7)
        WHERE tenant_id = $1 AND account_state = 'ACTIVE' AND health_center_id IS NOT NULL AND phone IS NOT NULL
        LIMIT 50`,
      [tenantId],
    )
  ).rows;
  const userIds = new Map(
    (
      await owner.query<{ email: string; id: string }>(
        `SELECT email, id FROM users WHERE tenant_id = $1 AND email LIKE '%@demo.example'`,
        [tenantId],
      )
    ).rows.map((row) => [row.email, row.id]),
  );
  // The seed's dirty pages written out before timing, as on a database that has been running:
  // otherwise the checkpoint that follows a seed of gigabytes writes them during the timing.
  await owner.query('CHECKPOINT').catch((error: unknown) => {
    console.log(`no checkpoint before timing: ${String(error)}`);
  });
  await Promise.all(clients.map((client) => client.end()));
  return { tenantId, centers, facts, seedSeconds, seedNote, samplePatients, userIds };
}
