-- Vitals rollups in the patient's local time (product spec: health views day, week, month, year in
-- the patient's time zone). Until now an hour and a day bucket were UTC, so a patient in Ho Chi
-- Minh City (UTC+7) had days starting at 07:00 and a patient in Kolkata (+05:30) hours starting at
-- :30 local.
--
-- The tables keep their shape and key (tenant, patient, measure, bucket_start); what changes is
-- which instant bucket_start is:
-- - readings_daily: the instant of the local midnight that starts the patient's calendar day, so a
--   day of 23 or 25 hours (a DST change) is one bucket;
-- - readings_hourly: the start of the local clock hour, i.e. the UTC hour shifted by the minutes of
--   the zone's offset at that instant (+05:30 → :30, +05:45 → :15). Computed from the offset rather
--   than by truncating local time, so the repeated hour of a DST fall-back stays two buckets.
-- The zone is the patient's account time zone (users.time_zone), or UTC for a patient without an
-- account (tenants have no time zone of their own). When an account's zone changes, or a patient
-- gets another account, a durable job rebuilds that patient's rollups from the raw readings
-- (triggers below, task vitals.rebuildLocalRollups); this migration rebuilds every existing rollup
-- once.

-- The time zone a patient's rollups and views use. SECURITY DEFINER: the account row may be hidden
-- from the caller by center visibility; only the zone is returned, only within the caller's tenant.
-- A name this server's time zone database does not know (accounts are checked against the
-- runtime's list) counts as UTC rather than failing every batch of the patient.
CREATE FUNCTION patient_time_zone(patient uuid) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  zone text;
BEGIN
  SELECT account.time_zone INTO zone
    FROM patients p JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
   WHERE p.tenant_id = app_current_tenant() AND p.id = patient;
  IF zone IS NULL THEN
    RETURN 'UTC';
  END IF;
  BEGIN
    PERFORM now() AT TIME ZONE zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN 'UTC';
  END;
  RETURN zone;
END $$;
REVOKE ALL ON FUNCTION patient_time_zone(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION patient_time_zone(uuid) TO rpm_app;

-- The start of the local clock hour holding `at` in `zone` (see above).
CREATE FUNCTION rollup_hour_start(at timestamptz, zone text) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT date_trunc('hour', at + ((at AT TIME ZONE zone) - (at AT TIME ZONE 'UTC')), 'UTC')
           - ((at AT TIME ZONE zone) - (at AT TIME ZONE 'UTC'))
  $$;

-- The instant of the local midnight starting the calendar day that holds `at` in `zone`.
CREATE FUNCTION rollup_day_start(at timestamptz, zone text) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT date_trunc('day', at AT TIME ZONE zone) AT TIME ZONE zone $$;

GRANT EXECUTE ON FUNCTION rollup_hour_start(timestamptz, text), rollup_day_start(timestamptz, text) TO rpm_app;

-- Rebuilds one patient's hourly and daily rollups from their readings in the patient's current
-- zone. The app role may not delete rollups; the rebuild job calls this in a tenant transaction
-- holding the patient row's lock (ingest takes the same lock, so no batch rolls up meanwhile).
CREATE FUNCTION rebuild_patient_rollups(patient uuid) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
  zone text;
BEGIN
  IF tenant IS NULL THEN
    RAISE EXCEPTION 'rebuild_patient_rollups needs a tenant transaction' USING ERRCODE = '42501';
  END IF;
  zone := patient_time_zone(patient);
  DELETE FROM readings_hourly WHERE tenant_id = tenant AND patient_id = patient;
  DELETE FROM readings_daily WHERE tenant_id = tenant AND patient_id = patient;
  -- Hours from the readings' UTC quarter hours (no quarter hour straddles a local hour: offsets
  -- and DST changes are whole quarter hours), days from the hours.
  INSERT INTO readings_hourly (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
  SELECT tenant, patient, measure, rollup_hour_start(slot, zone), sum(count), sum(sum), min(min), max(max),
         (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
    FROM (SELECT measure, date_bin('15 minutes', measured_at, TIMESTAMPTZ '2000-01-01Z') AS slot, count(*) AS count,
                 sum(value) AS sum, min(value) AS min, max(value) AS max,
                 (array_agg(value ORDER BY measured_at DESC))[1] AS last_value, max(measured_at) AS last_at
            FROM readings WHERE tenant_id = tenant AND patient_id = patient
           GROUP BY measure, slot) AS slots
   GROUP BY measure, rollup_hour_start(slot, zone);
  INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
  SELECT tenant, patient, measure, rollup_day_start(bucket_start, zone), sum(count), sum(sum), min(min), max(max),
         (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
    FROM readings_hourly WHERE tenant_id = tenant AND patient_id = patient
   GROUP BY measure, rollup_day_start(bucket_start, zone);
  RETURN zone;
END $$;
REVOKE ALL ON FUNCTION rebuild_patient_rollups(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION rebuild_patient_rollups(uuid) TO rpm_app;

-- A patient's zone changed (their account's time zone, or which account is theirs): their rollups
-- are rebuilt by a durable job (one waiting job per patient: a second change replaces it),
-- scheduled in the changing transaction, so a rolled-back change schedules nothing. Where the job
-- queue is not installed, the rebuild happens in the transaction itself.
CREATE FUNCTION schedule_local_rollups_rebuild(tenant uuid, patient uuid) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  IF to_regproc('graphile_worker.add_job') IS NOT NULL THEN
    PERFORM graphile_worker.add_job(
      identifier => 'vitals.rebuildLocalRollups',
      payload => json_build_object('tenantId', tenant, 'payload', json_build_object('patientId', patient)),
      job_key => tenant::text || ':vitals.rebuildLocalRollups:' || patient::text
    );
  ELSIF app_current_tenant() = tenant THEN
    PERFORM rebuild_patient_rollups(patient);
  END IF;
END $$;
REVOKE ALL ON FUNCTION schedule_local_rollups_rebuild(uuid, uuid) FROM PUBLIC;

CREATE FUNCTION users_time_zone_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  patient uuid;
BEGIN
  FOR patient IN SELECT id FROM patients WHERE tenant_id = NEW.tenant_id AND user_id = NEW.id LOOP
    PERFORM schedule_local_rollups_rebuild(NEW.tenant_id, patient);
  END LOOP;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION users_time_zone_changed() FROM PUBLIC;

CREATE TRIGGER users_time_zone_changed
  AFTER UPDATE OF time_zone ON users
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone)
  EXECUTE FUNCTION users_time_zone_changed();

CREATE FUNCTION patients_account_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  PERFORM schedule_local_rollups_rebuild(NEW.tenant_id, NEW.id);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_account_changed() FROM PUBLIC;

CREATE TRIGGER patients_account_changed
  AFTER UPDATE OF user_id ON patients
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION patients_account_changed();

-- Every existing rollup, rebuilt once in its patient's zone (hours from UTC quarter hours, days
-- from hours, as rebuild_patient_rollups does).
DELETE FROM readings_hourly;
DELETE FROM readings_daily;
INSERT INTO readings_hourly (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
WITH zones AS (
  SELECT p.tenant_id, p.id AS patient_id,
         CASE WHEN account.time_zone IN (SELECT name FROM pg_timezone_names) THEN account.time_zone ELSE 'UTC' END AS zone
    FROM patients p LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
), slots AS (
  SELECT tenant_id, patient_id, measure, date_bin('15 minutes', measured_at, TIMESTAMPTZ '2000-01-01Z') AS slot,
         count(*) AS count, sum(value) AS sum, min(value) AS min, max(value) AS max,
         (array_agg(value ORDER BY measured_at DESC))[1] AS last_value, max(measured_at) AS last_at
    FROM readings GROUP BY tenant_id, patient_id, measure, slot
)
SELECT s.tenant_id, s.patient_id, s.measure, rollup_hour_start(s.slot, z.zone), sum(s.count), sum(s.sum), min(s.min),
       max(s.max), (array_agg(s.last_value ORDER BY s.last_at DESC))[1], max(s.last_at)
  FROM slots s JOIN zones z ON z.tenant_id = s.tenant_id AND z.patient_id = s.patient_id
 GROUP BY s.tenant_id, s.patient_id, s.measure, rollup_hour_start(s.slot, z.zone);
INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
WITH zones AS (
  SELECT p.tenant_id, p.id AS patient_id,
         CASE WHEN account.time_zone IN (SELECT name FROM pg_timezone_names) THEN account.time_zone ELSE 'UTC' END AS zone
    FROM patients p LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
)
SELECT h.tenant_id, h.patient_id, h.measure, rollup_day_start(h.bucket_start, z.zone), sum(h.count), sum(h.sum),
       min(h.min), max(h.max), (array_agg(h.last_value ORDER BY h.last_at DESC))[1], max(h.last_at)
  FROM readings_hourly h JOIN zones z ON z.tenant_id = h.tenant_id AND z.patient_id = h.patient_id
 GROUP BY h.tenant_id, h.patient_id, h.measure, rollup_day_start(h.bucket_start, z.zone);
