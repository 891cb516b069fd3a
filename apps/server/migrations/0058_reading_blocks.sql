-- Compact blocks of cold readings. A raw reading row costs about 260 bytes with its index entries;
-- readings older than a tenant's compaction age (setting VITALS_COMPACT_AFTER_DAYS) are moved by a
-- durable job into one row per patient, measure and UTC day holding the readings as parallel
-- arrays: at_steps (microseconds from the day's start to the first reading, then from each reading
-- to the next: regular sampling makes a run of equal numbers), the values as float8, and every
-- other column of the reading. A day of one measure is a few kilobytes, so PostgreSQL compresses
-- it when it stores it out of line (lz4 where the server was built with it, else pglz). Nothing is
-- rounded or dropped: decoding a block gives back every column of every reading exactly.
--
-- Readers go through patient_readings / latest_patient_readings / all_readings, which read the
-- hot rows and the blocks together. The application role only reads blocks; they are written by
-- compact_patient_readings, which moves a patient's readings older than a day boundary in one
-- statement (deleted from readings, merged into the day's block if one exists: a late reading
-- joins its day's block on the next pass).

CREATE TABLE reading_blocks (
  tenant_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  measure text NOT NULL,
  day_start timestamptz NOT NULL CHECK (day_start = date_trunc('day', day_start, 'UTC')),
  count integer NOT NULL CHECK (count > 0),
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  at_steps bigint[] NOT NULL,
  measured_values float8[] NOT NULL,
  sources text[] NOT NULL,
  device_ids uuid[] NOT NULL,
  batch_ids uuid[] NOT NULL,
  received_ats timestamptz[] NOT NULL,
  late_flags boolean[] NOT NULL,
  compacted_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT reading_blocks_key PRIMARY KEY (tenant_id, patient_id, measure, day_start),
  CHECK (cardinality(at_steps) = count AND cardinality(measured_values) = count AND cardinality(sources) = count
         AND cardinality(device_ids) = count AND cardinality(batch_ids) = count AND cardinality(received_ats) = count
         AND cardinality(late_flags) = count),
  CHECK (first_at >= day_start AND last_at >= first_at AND last_at < day_start + interval '1 day')
);

DO $$
DECLARE
  array_column text;
BEGIN
  FOREACH array_column IN ARRAY ARRAY['at_steps', 'measured_values', 'sources', 'device_ids', 'batch_ids', 'received_ats', 'late_flags'] LOOP
    BEGIN
      EXECUTE format('ALTER TABLE reading_blocks ALTER COLUMN %I SET COMPRESSION lz4', array_column);
    EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
      NULL; -- a server built without lz4 keeps pglz
    END;
  END LOOP;
END $$;

ALTER TABLE reading_blocks ENABLE ROW LEVEL SECURITY;
ALTER TABLE reading_blocks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON reading_blocks USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON reading_blocks AS RESTRICTIVE FOR SELECT
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = reading_blocks.tenant_id AND visible.id = reading_blocks.patient_id));
CREATE POLICY follower_hidden_kinds ON reading_blocks AS RESTRICTIVE FOR SELECT
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_hidden_kinds()))
         OR (patient_id, measure_data_kind(measure)) NOT IN (SELECT hidden.patient_id, hidden.kind FROM app_subject_hidden_kinds() hidden));
GRANT SELECT ON reading_blocks TO rpm_app;

-- The readings of one block, in order. The instants are the day's start plus the running sum of
-- the steps (exact: whole microseconds, far below float8's 2^53).
CREATE FUNCTION reading_block_rows(
  block_day timestamptz, block_steps bigint[], block_values float8[], block_sources text[], block_devices uuid[],
  block_batches uuid[], block_received timestamptz[], block_late boolean[]
) RETURNS TABLE (measured_at timestamptz, value float8, source text, device_id uuid, batch_id uuid, received_at timestamptz, late boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT block_day + (sum(item.step) OVER (ORDER BY item.position))::float8 * interval '1 microsecond',
           item.value, item.source, item.device_id, item.batch_id, item.received_at, item.late
      FROM unnest(block_steps, block_values, block_sources, block_devices, block_batches, block_received, block_late)
           WITH ORDINALITY AS item (step, value, source, device_id, batch_id, received_at, late, position)
  $$;
GRANT EXECUTE ON FUNCTION reading_block_rows(timestamptz, bigint[], float8[], text[], uuid[], uuid[], timestamptz[], boolean[]) TO rpm_app;

-- Every reading in either form (whole-history readers: the rollup rebuild, the newest weights).
-- security_invoker: the caller's row-level security applies to both tables.
CREATE VIEW all_readings WITH (security_invoker = true) AS
  SELECT tenant_id, patient_id, measure, measured_at, value, source, device_id, batch_id, received_at, late, false AS compacted
    FROM readings
  UNION ALL
  SELECT block.tenant_id, block.patient_id, block.measure, item.measured_at, item.value, item.source, item.device_id,
         item.batch_id, item.received_at, item.late, true
    FROM reading_blocks block
         CROSS JOIN LATERAL reading_block_rows(block.day_start, block.at_steps, block.measured_values, block.sources,
                                               block.device_ids, block.batch_ids, block.received_ats, block.late_flags) item;
GRANT SELECT ON all_readings TO rpm_app;

-- One patient's readings of one measure in [from_at, to_at), both forms; only the blocks of the
-- days the range touches are decoded.
CREATE FUNCTION patient_readings(tenant uuid, patient uuid, measure_name text, from_at timestamptz, to_at timestamptz)
  RETURNS TABLE (measured_at timestamptz, value float8, source text, late boolean, compacted boolean)
  LANGUAGE sql STABLE
  AS $$
    SELECT hot.measured_at, hot.value, hot.source, hot.late, false
      FROM readings hot
     WHERE hot.tenant_id = tenant AND hot.patient_id = patient AND hot.measure = measure_name
       AND hot.measured_at >= from_at AND hot.measured_at < to_at
    UNION ALL
    SELECT item.measured_at, item.value, item.source, item.late, true
      FROM reading_blocks block
           CROSS JOIN LATERAL reading_block_rows(block.day_start, block.at_steps, block.measured_values, block.sources,
                                                 block.device_ids, block.batch_ids, block.received_ats, block.late_flags) item
     WHERE block.tenant_id = tenant AND block.patient_id = patient AND block.measure = measure_name
       AND block.day_start > from_at - interval '1 day' AND block.day_start < to_at
       AND block.last_at >= from_at AND block.first_at < to_at
       AND item.measured_at >= from_at AND item.measured_at < to_at
  $$;
GRANT EXECUTE ON FUNCTION patient_readings(uuid, uuid, text, timestamptz, timestamptz) TO rpm_app;

-- One patient's newest readings of one measure, both forms: each block holds at least one reading,
-- so the newest `how_many` blocks are enough.
CREATE FUNCTION latest_patient_readings(tenant uuid, patient uuid, measure_name text, how_many integer)
  RETURNS TABLE (measured_at timestamptz, value float8, source text)
  LANGUAGE sql STABLE
  AS $$
    SELECT both_forms.measured_at, both_forms.value, both_forms.source FROM (
      (SELECT hot.measured_at, hot.value, hot.source
         FROM readings hot
        WHERE hot.tenant_id = tenant AND hot.patient_id = patient AND hot.measure = measure_name
        ORDER BY hot.measured_at DESC, hot.source LIMIT how_many)
      UNION ALL
      SELECT item.measured_at, item.value, item.source
        FROM (SELECT * FROM reading_blocks block
               WHERE block.tenant_id = tenant AND block.patient_id = patient AND block.measure = measure_name
               ORDER BY block.day_start DESC LIMIT how_many) newest
             CROSS JOIN LATERAL reading_block_rows(newest.day_start, newest.at_steps, newest.measured_values, newest.sources,
                                                   newest.device_ids, newest.batch_ids, newest.received_ats, newest.late_flags) item
    ) both_forms
    ORDER BY both_forms.measured_at DESC, both_forms.source
    LIMIT how_many
  $$;
GRANT EXECUTE ON FUNCTION latest_patient_readings(uuid, uuid, text, integer) TO rpm_app;

-- Moves one patient's readings measured before `before` (a UTC midnight) into day blocks, in one
-- statement: the rows are deleted from readings and written with any block their day already has
-- (a reading both stored raw and in the block, same instant and source, is kept once: the block's).
-- Returns how many raw rows were moved. Runs in the tenant's transaction (app_current_tenant).
-- Ingest meanwhile is not blocked: a reading it adds to a day being compacted stays raw until the
-- next pass.
CREATE FUNCTION compact_patient_readings(patient uuid, before timestamptz) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
  moved bigint;
BEGIN
  IF tenant IS NULL THEN
    RAISE EXCEPTION 'compact_patient_readings needs a tenant transaction' USING ERRCODE = '42501';
  END IF;
  IF before IS DISTINCT FROM date_trunc('day', before, 'UTC') THEN
    RAISE EXCEPTION 'readings are compacted by whole UTC days' USING ERRCODE = '22023';
  END IF;
  -- Two passes over one patient at once would each rewrite a day's block from what they saw, and
  -- the later write would drop the other's readings: they take turns (the statement below then
  -- sees the block the other one wrote).
  PERFORM pg_advisory_xact_lock(hashtext('compact_patient_readings'), hashtext(patient::text));
  WITH taken AS (
    DELETE FROM readings
     WHERE tenant_id = tenant AND patient_id = patient AND measured_at < before
    RETURNING measure, measured_at, value, source, device_id, batch_id, received_at, late
  ), touched AS (
    SELECT DISTINCT measure, date_trunc('day', measured_at, 'UTC') AS day_start FROM taken
  ), kept AS (
    SELECT block.measure, item.measured_at, item.value, item.source, item.device_id, item.batch_id, item.received_at, item.late
      FROM reading_blocks block
           JOIN touched ON touched.measure = block.measure AND touched.day_start = block.day_start
           CROSS JOIN LATERAL reading_block_rows(block.day_start, block.at_steps, block.measured_values, block.sources,
                                                 block.device_ids, block.batch_ids, block.received_ats, block.late_flags) item
     WHERE block.tenant_id = tenant AND block.patient_id = patient
  ), merged AS (
    SELECT DISTINCT ON (measure, measured_at, source) measure, measured_at, value, source, device_id, batch_id, received_at, late
      FROM (SELECT 0 AS rank, kept.* FROM kept UNION ALL SELECT 1 AS rank, taken.* FROM taken) AS both_forms
     ORDER BY measure, measured_at, source, rank
  ), stepped AS (
    SELECT merged.*, date_trunc('day', measured_at, 'UTC') AS day_start,
           (extract(epoch FROM measured_at - coalesce(lag(measured_at) OVER day_order, date_trunc('day', measured_at, 'UTC')))
             * 1000000)::bigint AS step
      FROM merged
    WINDOW day_order AS (PARTITION BY measure, date_trunc('day', measured_at, 'UTC') ORDER BY measured_at, source)
  ), written AS (
    INSERT INTO reading_blocks AS block (tenant_id, patient_id, measure, day_start, count, first_at, last_at, at_steps,
                                         measured_values, sources, device_ids, batch_ids, received_ats, late_flags)
    SELECT tenant, patient, measure, day_start, count(*), min(measured_at), max(measured_at),
           array_agg(step ORDER BY measured_at, source), array_agg(value ORDER BY measured_at, source),
           array_agg(source ORDER BY measured_at, source), array_agg(device_id ORDER BY measured_at, source),
           array_agg(batch_id ORDER BY measured_at, source), array_agg(received_at ORDER BY measured_at, source),
           array_agg(late ORDER BY measured_at, source)
      FROM stepped
     GROUP BY measure, day_start
    ON CONFLICT ON CONSTRAINT reading_blocks_key DO UPDATE SET
      count = excluded.count, first_at = excluded.first_at, last_at = excluded.last_at, at_steps = excluded.at_steps,
      measured_values = excluded.measured_values, sources = excluded.sources, device_ids = excluded.device_ids,
      batch_ids = excluded.batch_ids, received_ats = excluded.received_ats, late_flags = excluded.late_flags,
      compacted_at = now()
    RETURNING 1
  )
  SELECT count(*) INTO moved FROM taken;
  RETURN moved;
END $$;
REVOKE ALL ON FUNCTION compact_patient_readings(uuid, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION compact_patient_readings(uuid, timestamptz) TO rpm_app;

-- Retention (setting VITALS_RETENTION_DAYS): the current tenant's readings measured before
-- `before` (a UTC midnight), raw and compacted, are deleted; rollups are kept.
CREATE FUNCTION purge_readings_before(before timestamptz) RETURNS TABLE (readings bigint, blocks bigint, block_readings bigint)
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
BEGIN
  IF tenant IS NULL THEN
    RAISE EXCEPTION 'purge_readings_before needs a tenant transaction' USING ERRCODE = '42501';
  END IF;
  IF before IS DISTINCT FROM date_trunc('day', before, 'UTC') THEN
    RAISE EXCEPTION 'readings are purged by whole UTC days' USING ERRCODE = '22023';
  END IF;
  RETURN QUERY
    WITH raw AS (
      DELETE FROM readings WHERE tenant_id = tenant AND measured_at < before RETURNING 1
    ), gone AS (
      DELETE FROM reading_blocks WHERE tenant_id = tenant AND day_start < before RETURNING count
    )
    SELECT (SELECT count(*) FROM raw), (SELECT count(*) FROM gone), (SELECT coalesce(sum(count), 0)::bigint FROM gone);
END $$;
REVOKE ALL ON FUNCTION purge_readings_before(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purge_readings_before(timestamptz) TO rpm_app;

-- Deleted rows leave their space in the month's partition, which new readings (a later month)
-- never reuse. A month partition wholly before `before` that holds no row any more is truncated,
-- which gives its space back; it stays attached for late readings of that month. Returns how many
-- partitions were emptied. Called outside tenant transactions (partitions are shared).
CREATE FUNCTION truncate_emptied_reading_partitions(before timestamptz) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  partition_name text;
  truncated integer := 0;
  is_empty boolean;
BEGIN
  FOR partition_name IN
    SELECT child.relname FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
     WHERE pg_inherits.inhparent = 'readings'::regclass AND child.relname ~ '^readings_p\d{4}_\d{2}$'
       AND (to_date(substr(child.relname, 11), 'YYYY_MM') + interval '1 month') AT TIME ZONE 'UTC' <= before
       AND pg_relation_size(child.oid) > 0
     ORDER BY child.relname
  LOOP
    BEGIN
      SET LOCAL lock_timeout = '2s';
      EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', partition_name);
      EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM %I)', partition_name) INTO is_empty;
      IF is_empty THEN
        EXECUTE format('TRUNCATE %I', partition_name);
        truncated := truncated + 1;
      END IF;
    EXCEPTION WHEN lock_not_available THEN
      NULL; -- busy: the next pass tries again
    END;
  END LOOP;
  RETURN truncated;
END $$;
REVOKE ALL ON FUNCTION truncate_emptied_reading_partitions(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION truncate_emptied_reading_partitions(timestamptz) TO rpm_app;

-- The patient purge removes blocks with the raw readings.
CREATE OR REPLACE FUNCTION purge_patient_readings(patient_ids uuid[]) RETURNS bigint
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
    WITH gone AS (
      DELETE FROM readings WHERE tenant_id = app_current_tenant() AND patient_id = ANY (patient_ids) RETURNING 1
    ), blocks AS (
      DELETE FROM reading_blocks WHERE tenant_id = app_current_tenant() AND patient_id = ANY (patient_ids) RETURNING count
    ) SELECT count(*) + (SELECT coalesce(sum(count), 0) FROM blocks) FROM gone
  $$;

-- The rollup rebuild (a patient's zone changed) reads both forms. Rollups outlive the readings
-- (retention deletes readings, never rollups): the rollups from two days before the oldest reading
-- kept are rebuilt, older ones stay as they were.
CREATE OR REPLACE FUNCTION rebuild_patient_rollups(patient uuid) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
  zone text;
  oldest timestamptz;
  rebuilt_from timestamptz;
BEGIN
  IF tenant IS NULL THEN
    RAISE EXCEPTION 'rebuild_patient_rollups needs a tenant transaction' USING ERRCODE = '42501';
  END IF;
  zone := patient_time_zone(patient);
  oldest := least((SELECT min(measured_at) FROM readings WHERE tenant_id = tenant AND patient_id = patient),
                  (SELECT min(first_at) FROM reading_blocks WHERE tenant_id = tenant AND patient_id = patient));
  IF oldest IS NULL THEN
    RETURN zone;
  END IF;
  rebuilt_from := date_trunc('day', oldest, 'UTC') - interval '2 days';
  DELETE FROM readings_hourly WHERE tenant_id = tenant AND patient_id = patient AND bucket_start >= rebuilt_from;
  DELETE FROM readings_daily WHERE tenant_id = tenant AND patient_id = patient AND bucket_start >= rebuilt_from;
  INSERT INTO readings_hourly (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
  SELECT tenant, patient, measure, rollup_hour_start(slot, zone), sum(count), sum(sum), min(min), max(max),
         (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
    FROM (SELECT measure, date_bin('15 minutes', measured_at, TIMESTAMPTZ '2000-01-01Z') AS slot, count(*) AS count,
                 sum(value) AS sum, min(value) AS min, max(value) AS max,
                 (array_agg(value ORDER BY measured_at DESC))[1] AS last_value, max(measured_at) AS last_at
            FROM all_readings WHERE tenant_id = tenant AND patient_id = patient
           GROUP BY measure, slot) AS slots
   GROUP BY measure, rollup_hour_start(slot, zone);
  INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
  SELECT tenant, patient, measure, rollup_day_start(bucket_start, zone), sum(count), sum(sum), min(min), max(max),
         (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
    FROM readings_hourly WHERE tenant_id = tenant AND patient_id = patient AND bucket_start >= rebuilt_from
   GROUP BY measure, rollup_day_start(bucket_start, zone);
  RETURN zone;
END $$;
