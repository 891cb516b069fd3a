-- Vitals (spec §3 Health measures, ECG record, Sleep record, Sport record, Thresholds; §4 patient
-- status and alerts in the patient app; §5 manual entry; §7 health and collector calls).
--
-- readings is partitioned by month on measured_at and written only through the parent (grants,
-- row level security and policies are on the parent; a query on the parent applies them to every
-- partition). One row per (patient, measure, time, source): a retried batch inserts nothing twice
-- (INSERT … ON CONFLICT DO NOTHING on readings_key). Values are in the canonical units of
-- packages/contracts/src/vitals.ts. Hourly and daily rollups are kept on ingest from the rows an
-- insert really added, so a week, month or year view reads a few hundred rows.

-- Patients: what the status engine needs ----------------------------------------------------------

ALTER TABLE patients
  -- "I am fine" (spec §4): no new alert below SOS until a batch evaluates all NORMAL.
  ADD COLUMN alerts_suppressed_until_normal boolean NOT NULL DEFAULT false,
  ADD COLUMN last_reading_at timestamptz,
  -- Spec §6: SOS is for main users only; a sub-user's status stops at HIGH_RISK.
  ADD COLUMN account_kind text NOT NULL DEFAULT 'MAIN' CHECK (account_kind IN ('MAIN', 'SUB_USER'));

-- The no-data check looks at bound devices by their last sync.
CREATE INDEX devices_by_last_sync ON devices (tenant_id, last_synced_at) WHERE patient_id IS NOT NULL;

-- Readings ----------------------------------------------------------------------------------------

CREATE TABLE readings (
  tenant_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  measure text NOT NULL CHECK (measure ~ '^[A-Z][A-Z0-9_]{1,39}$'),
  measured_at timestamptz NOT NULL,
  value double precision NOT NULL,
  source text NOT NULL CHECK (source IN ('WIRELESS_DEVICE', 'PHOTO_OCR', 'MANUAL')),
  device_id uuid,
  batch_id uuid,
  received_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT readings_key PRIMARY KEY (tenant_id, patient_id, measure, measured_at, source),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
) PARTITION BY RANGE (measured_at);

-- Rows outside every monthly partition (far past, or ahead of the maintenance job) land here;
-- ensure_readings_partitions moves them into their month when that partition is created.
CREATE TABLE readings_default PARTITION OF readings DEFAULT;

-- Creates the monthly partitions from the month of from_month for `months` months (existing ones
-- are kept). SECURITY DEFINER: the app role owns nothing, and the maintenance job runs as it.
CREATE FUNCTION ensure_readings_partitions(from_month date, months integer) RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  month_start date := date_trunc('month', from_month)::date;
  month_end date;
  partition_name text;
  created integer := 0;
BEGIN
  IF months < 1 OR months > 120 THEN
    RAISE EXCEPTION 'months must be between 1 and 120' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  FOR step IN 1..months LOOP
    month_end := (month_start + interval '1 month')::date;
    partition_name := format('readings_p%s', to_char(month_start, 'YYYY_MM'));
    IF to_regclass(partition_name) IS NULL THEN
      -- Built beside the table, filled with the strays of its month, then attached: attaching
      -- checks that the default partition keeps no row of the new range.
      EXECUTE format('CREATE TABLE %I (LIKE readings INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition_name);
      EXECUTE format(
        'WITH moved AS (DELETE FROM readings_default WHERE measured_at >= %L AND measured_at < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
        month_start, month_end, partition_name);
      EXECUTE format('ALTER TABLE readings ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', partition_name, month_start, month_end);
      -- Direct access to a partition is never granted; RLS on it too, so even a mistake stays inside its tenant.
      EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', partition_name);
      EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', partition_name);
      EXECUTE format(
        'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
        partition_name);
      created := created + 1;
    END IF;
    month_start := month_end;
  END LOOP;
  RETURN created;
END
$$;
REVOKE ALL ON FUNCTION ensure_readings_partitions(date, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ensure_readings_partitions(date, integer) TO rpm_app;

ALTER TABLE readings_default ENABLE ROW LEVEL SECURITY;
ALTER TABLE readings_default FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON readings_default USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());

-- Three months back (recent history and imports) to three ahead; the job keeps three ahead.
SELECT ensure_readings_partitions((date_trunc('month', now()) - interval '3 months')::date, 7);

-- Rollups, keyed by the bucket's start (UTC hour, UTC day). last_* is the latest reading of the bucket.
CREATE TABLE readings_hourly (
  tenant_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  measure text NOT NULL,
  bucket_start timestamptz NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  sum double precision NOT NULL,
  min double precision NOT NULL,
  max double precision NOT NULL,
  last_value double precision NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, patient_id, measure, bucket_start),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE readings_daily (LIKE readings_hourly INCLUDING ALL);
ALTER TABLE readings_daily ADD FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE;

-- Records ------------------------------------------------------------------------------------------

CREATE TABLE ecg_records (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  measured_at timestamptz NOT NULL,
  duration_seconds double precision NOT NULL CHECK (duration_seconds > 0),
  sample_rate integer NOT NULL CHECK (sample_rate > 0),
  -- The waveform as little-endian float32 millivolts.
  samples bytea NOT NULL,
  average_heart_rate double precision,
  hrv double precision,
  qt double precision,
  respiration_rate double precision,
  source text NOT NULL CHECK (source IN ('WIRELESS_DEVICE', 'PHOTO_OCR', 'MANUAL')),
  device_id uuid,
  batch_id uuid,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ecg_records_key ON ecg_records (tenant_id, patient_id, measured_at);

CREATE TABLE sleep_records (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  total_minutes integer NOT NULL CHECK (total_minutes >= 0),
  deep_minutes integer NOT NULL CHECK (deep_minutes >= 0),
  light_minutes integer NOT NULL CHECK (light_minutes >= 0),
  rem_minutes integer NOT NULL CHECK (rem_minutes >= 0),
  wake_count integer NOT NULL CHECK (wake_count >= 0),
  falling_asleep_minutes integer,
  re_sleep_minutes integer,
  stages jsonb NOT NULL DEFAULT '[]',
  device_id uuid,
  batch_id uuid,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  CONSTRAINT sleep_records_period CHECK (end_at > start_at)
);
CREATE UNIQUE INDEX sleep_records_key ON sleep_records (tenant_id, patient_id, start_at);

CREATE TABLE sport_records (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  sport text NOT NULL CHECK (sport IN ('RUN', 'WALK', 'CYCLE', 'BREATHING', 'YOGA', 'BASKETBALL', 'FOOTBALL', 'CLIMB', 'TENNIS', 'BADMINTON')),
  start_at timestamptz NOT NULL,
  practice_seconds integer NOT NULL CHECK (practice_seconds > 0),
  steps integer,
  stride_cm double precision,
  tempo double precision,
  speed_kmh double precision,
  height_m double precision,
  calories double precision,
  device_id uuid,
  batch_id uuid,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX sport_records_key ON sport_records (tenant_id, patient_id, sport, start_at);

-- Falls, SOS button presses and hotline calls: one row each, so a retried event raises nothing twice.
CREATE TABLE health_events (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('FALL', 'SOS_BUTTON', 'HOTLINE_CALL')),
  occurred_at timestamptz NOT NULL,
  lat double precision,
  lng double precision,
  note text NOT NULL DEFAULT '',
  device_id uuid,
  batch_id uuid,
  created_by uuid,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX health_events_key ON health_events (tenant_id, patient_id, type, occurred_at);

-- A collector batch and its first answer: a retry is answered the same, even after a crash.
CREATE TABLE ingest_batches (
  tenant_id uuid NOT NULL,
  batch_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  response jsonb,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, batch_id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX ingest_batches_by_time ON ingest_batches (tenant_id, received_at);

-- Thresholds -----------------------------------------------------------------------------------------
-- One row per metric and level that differs from the base: a patient's row over the tenant's, the
-- tenant's over the spec's reference ranges (contracts defaultThresholds).

CREATE TABLE patient_thresholds (
  tenant_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  metric text NOT NULL CHECK (metric IN ('HEART_RATE', 'HRV', 'SPO2', 'SYSTOLIC', 'DIASTOLIC', 'TEMPERATURE', 'GLUCOSE')),
  level text NOT NULL CHECK (level IN ('AT_RISK', 'HIGH_RISK', 'SOS')),
  lower_bound double precision,
  upper_bound double precision,
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, patient_id, metric, level),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE tenant_thresholds (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  metric text NOT NULL CHECK (metric IN ('HEART_RATE', 'HRV', 'SPO2', 'SYSTOLIC', 'DIASTOLIC', 'TEMPERATURE', 'GLUCOSE')),
  level text NOT NULL CHECK (level IN ('AT_RISK', 'HIGH_RISK', 'SOS')),
  lower_bound double precision,
  upper_bound double precision,
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, metric, level)
);

-- Tenant isolation and health-center visibility -----------------------------------------------

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['readings', 'readings_hourly', 'readings_daily', 'ecg_records', 'sleep_records',
      'sport_records', 'health_events', 'ingest_batches', 'patient_thresholds', 'tenant_thresholds'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
  END LOOP;
END $$;

-- Facts: readings and events are never changed by the application; rollups and the rest are.
GRANT SELECT, INSERT ON readings, health_events TO rpm_app;
GRANT SELECT, INSERT, UPDATE ON readings_hourly, readings_daily, ingest_batches TO rpm_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ecg_records, sleep_records, sport_records, patient_thresholds, tenant_thresholds TO rpm_app;

-- A patient's health data is seen exactly when the patient is (spec §6). For readings and rollups
-- the check is on reads only: the ingestion path has already found the patient through the
-- caller's visibility, and a per-row check on every insert would cost the hot path.
DO $$
DECLARE
  dependent_table text;
BEGIN
  FOREACH dependent_table IN ARRAY ARRAY['readings', 'readings_hourly', 'readings_daily'] LOOP
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE FOR SELECT USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      dependent_table, dependent_table, dependent_table);
  END LOOP;
  FOREACH dependent_table IN ARRAY ARRAY['ecg_records', 'sleep_records', 'sport_records', 'health_events', 'ingest_batches', 'patient_thresholds'] LOOP
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      dependent_table, dependent_table, dependent_table);
  END LOOP;
END $$;
