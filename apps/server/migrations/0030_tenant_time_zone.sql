-- A tenant time zone (tenant setting TIME_ZONE) as the fallback for patients' local days. A
-- patient's rollups and health views use their account's time zone; a patient without an account
-- (or whose account has no zone) now uses the tenant's zone, and only then UTC. No row means the
-- default, Asia/Ho_Chi_Minh, for new and existing tenants alike (TENANT_SETTING_DEFAULTS).
--
-- When a tenant's zone changes, every patient of the tenant who follows it (no account zone) gets
-- the same durable rebuild job as for an account change (vitals.rebuildLocalRollups, one waiting
-- job per patient, keyed by patient, so a second change replaces it; a rerun rebuilds the same
-- rows). Scheduled in the changing transaction: a rolled-back change schedules nothing.

-- The zone a tenant's patients fall back to; a name this server's database does not know counts
-- as UTC (the API checks new values against pg_timezone_names).
CREATE FUNCTION tenant_time_zone(tenant uuid) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  zone text;
BEGIN
  SELECT s.value INTO zone FROM tenant_settings s WHERE s.tenant_id = tenant AND s.key = 'TIME_ZONE';
  zone := coalesce(zone, 'Asia/Ho_Chi_Minh');
  BEGIN
    PERFORM now() AT TIME ZONE zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN 'UTC';
  END;
  RETURN zone;
END $$;
REVOKE ALL ON FUNCTION tenant_time_zone(uuid) FROM PUBLIC;

-- As in 0027, with the tenant's zone before UTC. An account zone the database does not know
-- still counts as UTC (the account chose a zone; it is not replaced by the tenant's).
CREATE OR REPLACE FUNCTION patient_time_zone(patient uuid) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  zone text;
  tenant uuid := app_current_tenant();
BEGIN
  SELECT account.time_zone INTO zone
    FROM patients p JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
   WHERE p.tenant_id = tenant AND p.id = patient;
  IF zone IS NULL THEN
    IF tenant IS NULL THEN
      RETURN 'UTC';
    END IF;
    RETURN tenant_time_zone(tenant);
  END IF;
  BEGIN
    PERFORM now() AT TIME ZONE zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN 'UTC';
  END;
  RETURN zone;
END $$;

-- The tenant's zone changed (set, changed or put back to the default): rebuild the rollups of its
-- patients without an account zone.
CREATE FUNCTION tenant_time_zone_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant uuid;
  patient uuid;
  specs json;
BEGIN
  IF TG_OP = 'DELETE' THEN
    tenant := OLD.tenant_id;
    IF OLD.key <> 'TIME_ZONE' OR OLD.value = 'Asia/Ho_Chi_Minh' THEN
      RETURN NULL;
    END IF;
  ELSE
    tenant := NEW.tenant_id;
    IF NEW.key <> 'TIME_ZONE' THEN
      RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.value IS NOT DISTINCT FROM NEW.value THEN
      RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' AND NEW.value = 'Asia/Ho_Chi_Minh' THEN
      RETURN NULL;
    END IF;
  END IF;
  -- The jobs of all those patients are added in one call (graphile_worker.add_jobs, the same
  -- replace-by-key semantics as add_job): one call per patient costs about 1.5 ms each.
  IF to_regproc('graphile_worker.add_jobs') IS NOT NULL THEN
    SELECT json_agg(json_build_object(
             'identifier', 'vitals.rebuildLocalRollups',
             'payload', json_build_object('tenantId', tenant, 'payload', json_build_object('patientId', p.id)),
             'job_key', tenant::text || ':vitals.rebuildLocalRollups:' || p.id::text))
      INTO specs
      FROM patients p LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
     WHERE p.tenant_id = tenant AND account.time_zone IS NULL;
    IF specs IS NOT NULL THEN
      EXECUTE 'SELECT count(*) FROM graphile_worker.add_jobs(array(SELECT json_populate_recordset(NULL::graphile_worker.job_spec, $1)))'
        USING specs;
    END IF;
    RETURN NULL;
  END IF;
  FOR patient IN
    SELECT p.id FROM patients p LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
     WHERE p.tenant_id = tenant AND account.time_zone IS NULL
  LOOP
    PERFORM schedule_local_rollups_rebuild(tenant, patient);
  END LOOP;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION tenant_time_zone_changed() FROM PUBLIC;

CREATE TRIGGER tenant_time_zone_changed
  AFTER INSERT OR UPDATE OR DELETE ON tenant_settings
  FOR EACH ROW EXECUTE FUNCTION tenant_time_zone_changed();

-- Patients without an account zone had UTC days until now: their rollups are rebuilt once, here,
-- in their tenant's zone (in each patient's tenant, as the rebuild job does).
DO $$
DECLARE
  row record;
BEGIN
  FOR row IN
    SELECT p.tenant_id, p.id FROM patients p LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
     WHERE account.time_zone IS NULL AND tenant_time_zone(p.tenant_id) <> 'UTC'
       AND EXISTS (SELECT 1 FROM readings_hourly h WHERE h.tenant_id = p.tenant_id AND h.patient_id = p.id)
  LOOP
    PERFORM set_config('app.tenant_id', row.tenant_id::text, true);
    PERFORM rebuild_patient_rollups(row.id);
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
