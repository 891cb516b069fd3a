-- Ingest speed: readings arrive in batches of about a thousand for one patient whose row the
-- ingest transaction has already locked, so the per-row foreign-key check to patients (one
-- SELECT … FOR KEY SHARE of the same patient row per reading) only repeats what the transaction
-- guarantees. It is dropped; the patient purge deletes a patient's readings explicitly before the
-- patient row (see modules/patients/store.ts purgePatients), and the rollups keep their keys.
ALTER TABLE readings DROP CONSTRAINT readings_tenant_id_patient_id_fkey;

-- The app role may not delete readings (they are append-only for it); the purge calls this.
CREATE FUNCTION purge_patient_readings(patient_ids uuid[]) RETURNS bigint
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
    WITH gone AS (
      DELETE FROM readings WHERE tenant_id = app_current_tenant() AND patient_id = ANY (patient_ids) RETURNING 1
    ) SELECT count(*) FROM gone
  $$;
REVOKE ALL ON FUNCTION purge_patient_readings(uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purge_patient_readings(uuid[]) TO rpm_app;
