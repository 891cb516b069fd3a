-- One call stores a batch's readings and their rollups. It used to be one statement under the
-- caller's row level security, which for a batch of a thousand readings of one patient checked
-- every policy of readings (the insert's checks, and the read policies again for its RETURNING)
-- and of both rollup tables row by row: about a third of the statement's time. The policies that
-- govern writing a reading are about the batch's one tenant and one patient, so this function
-- checks them once, as the caller, and then writes as its owner:
--   - the tenant is the transaction's (tenant_isolation),
--   - a vitals transaction writes only the patients it was opened for (vitals_patients_only),
--   - a follower's view never writes (followers_read_only_insert),
--   - on a primary, the patient is the tenant's. Which patients the caller may see is decided
--     before the call: the server locks the patient's row under the caller's row level security
--     (withVitalsPatient) and only then calls this.
-- Where the owner is not allowed past row level security (FORCE ROW LEVEL SECURITY on a
-- non-superuser owner), the policies still apply row by row: slower, never wider.
--
-- The rollups are summed per UTC quarter hour by the caller, who has the readings at hand
-- (`slot_…`, one element per measure and quarter hour); they are used when every reading given was
-- new. When some were stored already (a device resending), the quarter hours are summed here from
-- the readings this call really added, so a resent reading never counts twice. The quarter hours
-- are then placed in the patient's local hours and days as before (migration 0027).
CREATE FUNCTION ingest_readings(
  tenant uuid, patient uuid, device uuid, batch uuid, received timestamptz,
  measures text[], measured_ats timestamptz[], measured_values float8[], sources text[], late_flags boolean[],
  slot_measures text[], slot_starts timestamptz[], slot_counts integer[], slot_sums float8[],
  slot_mins float8[], slot_maxes float8[], slot_last_values float8[], slot_last_ats timestamptz[],
  OUT added integer, OUT added_keys text[])
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  given integer := coalesce(cardinality(measures), 0);
  vitals_patients uuid[] := app_vitals_patients();
  given_measures text[];
  span_start timestamptz;
  span_end timestamptz;
  zone text;
BEGIN
  IF tenant IS NULL OR tenant IS DISTINCT FROM app_current_tenant() THEN
    RAISE EXCEPTION 'ingest_readings writes in its tenant''s transaction only' USING ERRCODE = '42501';
  END IF;
  IF vitals_patients IS NOT NULL AND NOT (patient = ANY (vitals_patients)) THEN
    RAISE EXCEPTION 'this transaction was not opened for that patient' USING ERRCODE = '42501';
  END IF;
  IF vitals_patients IS NULL AND NOT EXISTS (SELECT 1 FROM patients p WHERE p.tenant_id = tenant AND p.id = patient) THEN
    RAISE EXCEPTION 'no such patient in this tenant' USING ERRCODE = '42501';
  END IF;
  IF EXISTS (SELECT 1 FROM app_subject_followed() followed WHERE followed.patient_id = patient) THEN
    RAISE EXCEPTION 'a followed patient''s readings are read only' USING ERRCODE = '42501';
  END IF;
  IF cardinality(measured_ats) IS DISTINCT FROM cardinality(measures) OR cardinality(measured_values) IS DISTINCT FROM cardinality(measures)
     OR cardinality(sources) IS DISTINCT FROM cardinality(measures) OR cardinality(late_flags) IS DISTINCT FROM cardinality(measures) THEN
    RAISE EXCEPTION 'the reading arrays differ in length' USING ERRCODE = '22023';
  END IF;

  -- Usually nothing of the batch's measures is stored yet within its time span, raw or in a day
  -- block: a plain insert then, which skips the conflict checks row by row. Should a writer that
  -- does not hold the patient's lock store one of them meanwhile, the insert fails whole and the
  -- careful one below runs instead.
  SELECT min(at), max(at) INTO span_start, span_end FROM unnest(measured_ats) at;
  given_measures := ARRAY(SELECT DISTINCT given_measure FROM unnest(measures) given_measure);
  IF span_start IS NOT NULL
     AND NOT EXISTS (
       SELECT 1 FROM readings stored
        WHERE stored.tenant_id = tenant AND stored.patient_id = patient
          AND stored.measure = ANY (given_measures) AND stored.measured_at BETWEEN span_start AND span_end)
     AND NOT EXISTS (
       SELECT 1 FROM reading_blocks block
        WHERE block.tenant_id = tenant AND block.patient_id = patient AND block.measure = ANY (given_measures)
          AND block.day_start BETWEEN date_trunc('day', span_start, 'UTC') AND date_trunc('day', span_end, 'UTC')) THEN
    BEGIN
      INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source, device_id, batch_id, received_at, late)
      SELECT tenant, patient, input.measure, input.measured_at, input.value, input.source, device, batch, received, input.late
        FROM unnest(measures, measured_ats, measured_values, sources, late_flags) AS input (measure, measured_at, value, source, late);
      GET DIAGNOSTICS added = ROW_COUNT;
    EXCEPTION WHEN unique_violation THEN
      added := NULL;
    END;
  END IF;
  IF added IS NULL THEN
    WITH inserted AS (
      INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source, device_id, batch_id, received_at, late)
      SELECT tenant, patient, input.measure, input.measured_at, input.value, input.source, device, batch, received, input.late
        FROM unnest(measures, measured_ats, measured_values, sources, late_flags) AS input (measure, measured_at, value, source, late)
       -- A reading resent after its day was compacted is already stored, in the day's block.
       WHERE input.measured_at >= date_trunc('day', now() - interval '1 day', 'UTC')
          OR NOT EXISTS (
               SELECT 1 FROM reading_blocks block
                CROSS JOIN LATERAL reading_block_rows(block.day_start, block.at_steps, block.measured_values, block.sources,
                                                      block.device_ids, block.batch_ids, block.received_ats, block.late_flags) stored
                WHERE block.tenant_id = tenant AND block.patient_id = patient
                  AND block.measure = input.measure AND block.day_start = date_trunc('day', input.measured_at, 'UTC')
                  AND input.measured_at BETWEEN block.first_at AND block.last_at
                  AND stored.measured_at = input.measured_at AND stored.source = input.source)
      ON CONFLICT DO NOTHING
      RETURNING readings.measure, readings.measured_at, readings.source
    )
    SELECT count(*)::integer,
           CASE WHEN count(*) < given
                THEN array_agg(inserted.measure || '|' || (extract(epoch FROM inserted.measured_at) * 1000)::bigint || '|' || inserted.source) END
      INTO added, added_keys
      FROM inserted;
  END IF;
  IF added = 0 THEN
    added_keys := '{}';
    RETURN;
  END IF;

  zone := patient_time_zone(patient);
  WITH slots AS MATERIALIZED (
    SELECT slot.measure, slot.slot, slot.count::bigint AS count, slot.sum, slot.min, slot.max, slot.last_value, slot.last_at
      FROM unnest(slot_measures, slot_starts, slot_counts, slot_sums, slot_mins, slot_maxes, slot_last_values, slot_last_ats)
           AS slot (measure, slot, count, sum, min, max, last_value, last_at)
     WHERE added = given
    UNION ALL
    SELECT input.measure, date_bin('15 minutes', input.measured_at, TIMESTAMPTZ '2000-01-01Z'),
           count(*), sum(input.value), min(input.value), max(input.value),
           (array_agg(input.value ORDER BY input.measured_at DESC))[1], max(input.measured_at)
      FROM unnest(measures, measured_ats, measured_values, sources) AS input (measure, measured_at, value, source)
     WHERE added < given
       AND input.measure || '|' || (extract(epoch FROM input.measured_at) * 1000)::bigint || '|' || input.source = ANY (added_keys)
     GROUP BY input.measure, date_bin('15 minutes', input.measured_at, TIMESTAMPTZ '2000-01-01Z')
  ), hourly AS (
    INSERT INTO readings_hourly AS r (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
    SELECT tenant, patient, slots.measure, rollup_hour_start(slots.slot, zone), sum(slots.count), sum(slots.sum), min(slots.min), max(slots.max),
           (array_agg(slots.last_value ORDER BY slots.last_at DESC))[1], max(slots.last_at)
      FROM slots GROUP BY slots.measure, rollup_hour_start(slots.slot, zone)
    ON CONFLICT (tenant_id, patient_id, measure, bucket_start) DO UPDATE SET
      count = r.count + excluded.count, sum = r.sum + excluded.sum,
      min = least(r.min, excluded.min), max = greatest(r.max, excluded.max),
      last_value = CASE WHEN excluded.last_at >= r.last_at THEN excluded.last_value ELSE r.last_value END,
      last_at = greatest(r.last_at, excluded.last_at)
  ), daily AS (
    INSERT INTO readings_daily AS r (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
    SELECT tenant, patient, slots.measure, rollup_day_start(slots.slot, zone), sum(slots.count), sum(slots.sum), min(slots.min), max(slots.max),
           (array_agg(slots.last_value ORDER BY slots.last_at DESC))[1], max(slots.last_at)
      FROM slots GROUP BY slots.measure, rollup_day_start(slots.slot, zone)
    ON CONFLICT (tenant_id, patient_id, measure, bucket_start) DO UPDATE SET
      count = r.count + excluded.count, sum = r.sum + excluded.sum,
      min = least(r.min, excluded.min), max = greatest(r.max, excluded.max),
      last_value = CASE WHEN excluded.last_at >= r.last_at THEN excluded.last_value ELSE r.last_value END,
      last_at = greatest(r.last_at, excluded.last_at)
  )
  SELECT CASE WHEN added = given THEN '{}'::text[] ELSE added_keys END INTO added_keys;
END $$;
REVOKE ALL ON FUNCTION ingest_readings(uuid, uuid, uuid, uuid, timestamptz, text[], timestamptz[], float8[], text[], boolean[],
                                       text[], timestamptz[], integer[], float8[], float8[], float8[], float8[], timestamptz[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ingest_readings(uuid, uuid, uuid, uuid, timestamptz, text[], timestamptz[], float8[], text[], boolean[],
                                          text[], timestamptz[], integer[], float8[], float8[], float8[], float8[], timestamptz[]) TO rpm_app;
