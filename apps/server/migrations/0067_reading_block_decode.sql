-- Decoding a day block (migration 0058) cost about 2.8 ms of the 3.3 ms a compacted day view's query
-- took per block: the running sum of the steps was a numeric sum over a RANGE window, and every
-- array of the block was decompressed and unnested, the devices, batches and arrival times too,
-- though a view reads only instants, values, sources and late flags.
--   - The steps are summed as float8 over a ROWS window. Exact: the steps are whole microseconds
--     and a day holds 8.64e10 of them, far below 2^53, so every partial sum is an exact float8.
--   - reading_block_points unnests only the four arrays a view reads; patient_readings and
--     latest_patient_readings use it. reading_block_rows (every column: the all_readings view,
--     compaction, ingest's check of a compacted day) keeps its signature and gets the faster sum.
-- Measured on a block of 1,440 heart-rate readings, two blocks per local day: 6.4 ms → 4.0 ms.

CREATE OR REPLACE FUNCTION reading_block_rows(
  block_day timestamptz, block_steps bigint[], block_values float8[], block_sources text[], block_devices uuid[],
  block_batches uuid[], block_received timestamptz[], block_late boolean[]
) RETURNS TABLE (measured_at timestamptz, value float8, source text, device_id uuid, batch_id uuid, received_at timestamptz, late boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT block_day + sum(item.step::float8) OVER (ORDER BY item.position ROWS UNBOUNDED PRECEDING) * interval '1 microsecond',
           item.value, item.source, item.device_id, item.batch_id, item.received_at, item.late
      FROM unnest(block_steps, block_values, block_sources, block_devices, block_batches, block_received, block_late)
           WITH ORDINALITY AS item (step, value, source, device_id, batch_id, received_at, late, position)
  $$;

CREATE FUNCTION reading_block_points(block_day timestamptz, block_steps bigint[], block_values float8[], block_sources text[], block_late boolean[])
  RETURNS TABLE (measured_at timestamptz, value float8, source text, late boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT block_day + sum(item.step::float8) OVER (ORDER BY item.position ROWS UNBOUNDED PRECEDING) * interval '1 microsecond',
           item.value, item.source, item.late
      FROM unnest(block_steps, block_values, block_sources, block_late) WITH ORDINALITY AS item (step, value, source, late, position)
  $$;
GRANT EXECUTE ON FUNCTION reading_block_points(timestamptz, bigint[], float8[], text[], boolean[]) TO rpm_app;

CREATE OR REPLACE FUNCTION patient_readings(tenant uuid, patient uuid, measure_name text, from_at timestamptz, to_at timestamptz)
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
           CROSS JOIN LATERAL reading_block_points(block.day_start, block.at_steps, block.measured_values, block.sources, block.late_flags) item
     WHERE block.tenant_id = tenant AND block.patient_id = patient AND block.measure = measure_name
       AND block.day_start > from_at - interval '1 day' AND block.day_start < to_at
       AND block.last_at >= from_at AND block.first_at < to_at
       AND item.measured_at >= from_at AND item.measured_at < to_at
  $$;

CREATE OR REPLACE FUNCTION latest_patient_readings(tenant uuid, patient uuid, measure_name text, how_many integer)
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
             CROSS JOIN LATERAL reading_block_points(newest.day_start, newest.at_steps, newest.measured_values, newest.sources, newest.late_flags) item
    ) both_forms
    ORDER BY both_forms.measured_at DESC, both_forms.source
    LIMIT how_many
  $$;
