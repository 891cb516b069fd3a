-- A DEDICATED tenant's readings and rollups live in its vitals database (the third of its three
-- connections, spec §3). That database is migrated like the primary (one schema, one history), but
-- it holds no patients, accounts or follower grants: the caller's access to the patient is checked
-- on the primary (or replica) first, and the transaction opened on the vitals database then names
-- the patients it was opened for (app.vitals_patients), the data kinds hidden from the caller
-- (app.vitals_hidden_kinds, a follower's) and, for writes, the patient's time zone read on the
-- primary under the patient's lock (app.vitals_time_zone). These settings are set only by the
-- server's router, transaction-local like app.tenant_id; unset (every transaction on a primary or
-- on the platform database) they change nothing.

-- app.vitals_patients is a list of patient ids, or 'all' for the jobs that work on the whole
-- tenant's time series there (partitions, compaction, retention), never for a request.
CREATE FUNCTION app_vitals_patients() RETURNS uuid[]
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN current_setting('app.vitals_patients', true) IN ('', 'all') THEN NULL
                    ELSE current_setting('app.vitals_patients', true)::uuid[] END $$;
CREATE FUNCTION app_vitals_whole_tenant() RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT coalesce(current_setting('app.vitals_patients', true) = 'all', false) $$;
CREATE FUNCTION app_vitals_hidden_kinds() RETURNS text[]
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.vitals_hidden_kinds', true), '')::text[] $$;
GRANT EXECUTE ON FUNCTION app_vitals_patients(), app_vitals_whole_tenant(), app_vitals_hidden_kinds() TO rpm_app;

-- Readings, their compacted day blocks (0058) and rollups are seen through their patient row
-- (migration 0013), or, in a vitals transaction, when their patient is one it was opened for (or
-- it works on the whole tenant). The settings are read once per statement (InitPlans) and the
-- cheap tests come first, so a transaction without them pays next to nothing. A vitals
-- transaction writes only its patients' rows, and its reads leave out the hidden kinds.
DO $$
DECLARE
  measured_table text;
BEGIN
  FOREACH measured_table IN ARRAY ARRAY['readings', 'reading_blocks', 'readings_hourly', 'readings_daily'] LOOP
    EXECUTE format('DROP POLICY center_visibility ON %I', measured_table);
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE FOR SELECT USING ((SELECT app_vitals_whole_tenant())'
      ' OR patient_id = ANY ((SELECT app_vitals_patients())::uuid[])'
      ' OR EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      measured_table, measured_table, measured_table);
    EXECUTE format(
      'CREATE POLICY vitals_hidden_kinds ON %I AS RESTRICTIVE FOR SELECT USING ((SELECT app_vitals_hidden_kinds()) IS NULL'
      ' OR measure_data_kind(measure) <> ALL ((SELECT app_vitals_hidden_kinds())::text[]))',
      measured_table);
    EXECUTE format(
      'CREATE POLICY vitals_patients_only ON %I AS RESTRICTIVE FOR INSERT WITH CHECK ((SELECT app_vitals_patients()) IS NULL'
      ' OR patient_id = ANY ((SELECT app_vitals_patients())::uuid[]))',
      measured_table);
  END LOOP;
END $$;

-- The rollups cannot reference patients that their database does not hold (as readings already
-- do not, migration 0016): the purge removes them with the readings (purge_patient_rollups).
ALTER TABLE readings_hourly DROP CONSTRAINT readings_hourly_tenant_id_patient_id_fkey;
ALTER TABLE readings_daily DROP CONSTRAINT readings_daily_tenant_id_patient_id_fkey;

-- The app role may not delete rollups: the purge calls this beside purge_patient_readings.
CREATE FUNCTION purge_patient_rollups(patient_ids uuid[]) RETURNS void
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
    DELETE FROM readings_hourly WHERE tenant_id = app_current_tenant() AND patient_id = ANY (patient_ids);
    DELETE FROM readings_daily WHERE tenant_id = app_current_tenant() AND patient_id = ANY (patient_ids);
  $$;
REVOKE ALL ON FUNCTION purge_patient_rollups(uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purge_patient_rollups(uuid[]) TO rpm_app;

-- As in 0030, but a vitals transaction brings its patient's zone (its database knows no accounts):
-- ingest and the rollup rebuild read the zone on the primary under the patient's lock and pass it.
CREATE OR REPLACE FUNCTION patient_time_zone(patient uuid) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  zone text;
  tenant uuid := app_current_tenant();
  given text := nullif(current_setting('app.vitals_time_zone', true), '');
BEGIN
  IF given IS NOT NULL AND patient = ANY (app_vitals_patients()) THEN
    zone := given;
  ELSE
    SELECT account.time_zone INTO zone
      FROM patients p JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
     WHERE p.tenant_id = tenant AND p.id = patient;
    IF zone IS NULL THEN
      IF tenant IS NULL THEN
        RETURN 'UTC';
      END IF;
      RETURN tenant_time_zone(tenant);
    END IF;
  END IF;
  BEGIN
    PERFORM now() AT TIME ZONE zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN 'UTC';
  END;
  RETURN zone;
END $$;
