-- The patient list, the dashboard counts and the triage worklist at a million patients a tenant
-- (tools/bench/million-patients.ts; the figures before and after are in tools/bench/RESULTS.md).
--
-- 1. Indexes the list lacked: a sub-user's holder was found by reading every patient of the tenant
--    (nothing indexed the login a patient record belongs to); a rare status or one center in the
--    default order by walking the creation index.
-- 2. Severity order (the worklist and the list's sortField severity): the rank depended on the open
--    SOS case and on a silent watch, rows of other tables, so every visible patient was joined and
--    sorted on each request. The patient row now carries both (kept by triggers on sos_cases and
--    devices) and the rank as a generated column, indexed in the list's exact order.
-- 3. Counts: the list's total and the dashboard counts counted every visible row under row-level
--    security on each request. patient_counts keeps the number of live patients per center and
--    status, written by triggers on patients in the same transaction as the change. Triggers only
--    append rows (+n, -n), so concurrent changes never wait for one another on a counter row; a
--    periodic task folds them (fold_patient_counts). The sum is exact at every instant.

-- 1. Indexes ------------------------------------------------------------------------------------

-- A sub-user's row in the list names its holder from the holder's own patient record, found by
-- its login (store.ts holderColumn). Without an index each listed sub-user read every patient of
-- the tenant, and the estimate of that alone put every page over the JIT threshold.
CREATE INDEX patients_by_user ON patients (tenant_id, user_id) WHERE user_id IS NOT NULL;

-- The list in its default order (newest first) filtered by status, or by center (a center's
-- caller, the center filter): a rare status (SOS is 0.1 %) or one center of a hundred otherwise
-- walked the creation index through hundreds of other patients per row shown.
CREATE INDEX patients_by_status_created ON patients (tenant_id, status, created_at)
  WHERE account_state = 'ACTIVE';
CREATE INDEX patients_by_center_created ON patients (tenant_id, health_center_id, created_at)
  WHERE account_state = 'ACTIVE';

-- 2. Severity ----------------------------------------------------------------------------------

-- open_sos_opened_at: when the patient's open SOS case (status <> CLOSED, at most one) was opened;
-- no_data: a watch bound to the patient is silent (app_status NO_SYNC). triage_rank is the list's
-- severity (contracts PATIENT_ATTENTION_LEVELS, worst highest): open SOS case 5, SOS 4,
-- HIGH_RISK 3, AT_RISK 2, NORMAL with a silent watch 1, NORMAL 0.
ALTER TABLE patients
  ADD COLUMN open_sos_opened_at timestamptz,
  ADD COLUMN no_data boolean NOT NULL DEFAULT false,
  ADD COLUMN triage_rank smallint NOT NULL GENERATED ALWAYS AS (
    CASE WHEN open_sos_opened_at IS NOT NULL THEN 5
         WHEN status = 'SOS' THEN 4
         WHEN status = 'HIGH_RISK' THEN 3
         WHEN status = 'AT_RISK' THEN 2
         WHEN no_data THEN 1
         ELSE 0 END) STORED;

-- The list's severity order ascending (rank, case opened, last reading, id descending); read
-- backwards it is the descending order, worst first (store.ts orderOf). Live patients only, as
-- listed. The second serves a caller of one center (and the center filter) without visiting the
-- other centers' patients.
CREATE INDEX patients_by_severity ON patients
  (tenant_id, triage_rank, open_sos_opened_at NULLS FIRST, last_reading_at NULLS FIRST, id DESC)
  WHERE account_state = 'ACTIVE';
CREATE INDEX patients_by_center_severity ON patients
  (tenant_id, health_center_id, triage_rank, open_sos_opened_at NULLS FIRST, last_reading_at NULLS FIRST, id DESC)
  WHERE account_state = 'ACTIVE';

-- The triggers below run with the owner's rights and as a whole-tenant caller for the length of
-- the call (as sync_follower_grant, migration 0037): whoever opens a case or silences a watch may
-- not see every patient it concerns, and the row must be right for everyone. The caller's
-- settings are put back before they return.

-- The patient's open SOS case, read again whenever a case is opened, changes state or is removed.
CREATE FUNCTION refresh_patient_open_sos(tenant uuid, patient uuid) RETURNS void
  LANGUAGE sql
  SET search_path = public, pg_temp
  AS $$
    UPDATE patients p SET open_sos_opened_at = o.opened_at
      FROM (SELECT (SELECT c.opened_at FROM sos_cases c
                     WHERE c.tenant_id = tenant AND c.patient_id = patient AND c.status <> 'CLOSED') AS opened_at) o
     WHERE p.tenant_id = tenant AND p.id = patient AND p.open_sos_opened_at IS DISTINCT FROM o.opened_at
  $$;
REVOKE ALL ON FUNCTION refresh_patient_open_sos(uuid, uuid) FROM PUBLIC;

CREATE FUNCTION sos_cases_refresh_patient() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller_subject text := current_setting('app.subject', true);
  caller_centers text := current_setting('app.center_ids', true);
BEGIN
  PERFORM set_config('app.subject', '', true);
  PERFORM set_config('app.center_ids', '*', true);
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM refresh_patient_open_sos(OLD.tenant_id, OLD.patient_id);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.patient_id IS DISTINCT FROM OLD.patient_id) THEN
    PERFORM refresh_patient_open_sos(NEW.tenant_id, NEW.patient_id);
  END IF;
  PERFORM set_config('app.subject', coalesce(caller_subject, ''), true);
  PERFORM set_config('app.center_ids', coalesce(caller_centers, ''), true);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION sos_cases_refresh_patient() FROM PUBLIC;

CREATE TRIGGER sos_cases_refresh_patient
  AFTER INSERT OR DELETE OR UPDATE OF status, opened_at, patient_id ON sos_cases
  FOR EACH ROW EXECUTE FUNCTION sos_cases_refresh_patient();

-- Whether one of the patient's watches is silent, read again whenever a watch is bound, unbound,
-- removed or changes its app status (the sync sets ONLINE on every batch: unchanged, no call).
-- Inserts and deletes are handled per statement (a device import binds thousands at once), changes
-- per row.
CREATE FUNCTION refresh_patients_no_data(tenant uuid, patient_ids uuid[]) RETURNS void
  LANGUAGE sql
  SET search_path = public, pg_temp
  AS $$
    UPDATE patients p SET no_data = s.silent
      FROM (SELECT touched.id,
                   EXISTS (SELECT 1 FROM devices d
                            WHERE d.tenant_id = tenant AND d.patient_id = touched.id AND d.app_status = 'NO_SYNC') AS silent
              FROM (SELECT DISTINCT unnest(patient_ids) AS id) touched) s
     WHERE p.tenant_id = tenant AND p.id = s.id AND p.no_data IS DISTINCT FROM s.silent
  $$;
REVOKE ALL ON FUNCTION refresh_patients_no_data(uuid, uuid[]) FROM PUBLIC;

CREATE FUNCTION devices_refresh_patients() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller_subject text := current_setting('app.subject', true);
  caller_centers text := current_setting('app.center_ids', true);
  touched record;
BEGIN
  PERFORM set_config('app.subject', '', true);
  PERFORM set_config('app.center_ids', '*', true);
  IF TG_LEVEL = 'STATEMENT' THEN
    -- changed_devices: the inserted or the deleted rows (the transition table of each trigger).
    FOR touched IN SELECT tenant_id, array_agg(DISTINCT patient_id) AS patient_ids FROM changed_devices
                    WHERE patient_id IS NOT NULL GROUP BY tenant_id LOOP
      PERFORM refresh_patients_no_data(touched.tenant_id, touched.patient_ids);
    END LOOP;
  ELSE
    PERFORM refresh_patients_no_data(OLD.tenant_id, array_remove(ARRAY[OLD.patient_id, NEW.patient_id], NULL));
  END IF;
  PERFORM set_config('app.subject', coalesce(caller_subject, ''), true);
  PERFORM set_config('app.center_ids', coalesce(caller_centers, ''), true);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION devices_refresh_patients() FROM PUBLIC;

CREATE TRIGGER devices_refresh_patients_inserted
  AFTER INSERT ON devices REFERENCING NEW TABLE AS changed_devices
  FOR EACH STATEMENT EXECUTE FUNCTION devices_refresh_patients();
CREATE TRIGGER devices_refresh_patients_deleted
  AFTER DELETE ON devices REFERENCING OLD TABLE AS changed_devices
  FOR EACH STATEMENT EXECUTE FUNCTION devices_refresh_patients();
CREATE TRIGGER devices_refresh_patients_changed
  AFTER UPDATE OF patient_id, app_status ON devices
  FOR EACH ROW
  WHEN (OLD.patient_id IS DISTINCT FROM NEW.patient_id OR OLD.app_status IS DISTINCT FROM NEW.app_status)
  EXECUTE FUNCTION devices_refresh_patients();

-- 3. Counts ------------------------------------------------------------------------------------

-- Live patients (account_state ACTIVE) per center (NULL: no center) and status: the sum of a
-- center's and status's rows. Triggers append +n / -n; fold_patient_counts replaces a key's rows
-- by their sum. No foreign key to the center: a folded zero disappears, a center may go.
CREATE TABLE patient_counts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id bigint GENERATED ALWAYS AS IDENTITY,
  health_center_id uuid,
  status text NOT NULL CHECK (status IN ('NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS')),
  patients integer NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX patient_counts_by_center ON patient_counts (tenant_id, health_center_id, status) INCLUDE (patients);

ALTER TABLE patient_counts ENABLE ROW LEVEL SECURITY;
ALTER TABLE patient_counts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON patient_counts
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- Read as the patients they count are seen by staff: by center (center-less ones by whole-tenant
-- callers only). A patient account sees its own records, not a center's: it reads no counts.
CREATE POLICY center_visibility ON patient_counts AS RESTRICTIVE FOR SELECT
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient' AND app_center_visible(health_center_id));
-- Written only by the triggers and the fold (SECURITY DEFINER): the application reads.
GRANT SELECT ON patient_counts TO rpm_app;

-- Each tenant's rows are written as that tenant (app.tenant_id set for the call, the caller's put
-- back after): a statement run without a tenant set (an administrator's, on a tenant's own
-- database, whose owner row level security binds) keeps the counts too.
-- One function for both statement triggers: the rows a statement inserted (+1 each) or deleted
-- (-1 each), under the one name both triggers give their transition table.
CREATE FUNCTION patients_count_statement() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text := coalesce(current_setting('app.tenant_id', true), '');
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
  tenant uuid;
BEGIN
  FOR tenant IN SELECT DISTINCT tenant_id FROM statement_patients WHERE account_state = 'ACTIVE' LOOP
    PERFORM set_config('app.tenant_id', tenant::text, true);
    INSERT INTO patient_counts (tenant_id, health_center_id, status, patients)
    SELECT tenant_id, health_center_id, status, sign * count(*) FROM statement_patients
     WHERE tenant_id = tenant AND account_state = 'ACTIVE' GROUP BY tenant_id, health_center_id, status;
  END LOOP;
  PERFORM set_config('app.tenant_id', caller, true);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_count_statement() FROM PUBLIC;

CREATE FUNCTION patients_count_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text := coalesce(current_setting('app.tenant_id', true), '');
BEGIN
  -- A patient never changes tenant (the key holds it): one tenant for both rows.
  PERFORM set_config('app.tenant_id', NEW.tenant_id::text, true);
  INSERT INTO patient_counts (tenant_id, health_center_id, status, patients)
  SELECT changed.tenant_id, changed.health_center_id, changed.status, changed.patients
    FROM (VALUES (OLD.tenant_id, OLD.health_center_id, OLD.status, -1, OLD.account_state),
                 (NEW.tenant_id, NEW.health_center_id, NEW.status, 1, NEW.account_state))
         AS changed (tenant_id, health_center_id, status, patients, account_state)
   WHERE changed.account_state = 'ACTIVE';
  PERFORM set_config('app.tenant_id', caller, true);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_count_changed() FROM PUBLIC;

CREATE FUNCTION patients_count_truncated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  TRUNCATE patient_counts;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_count_truncated() FROM PUBLIC;

-- Statement triggers for inserts and deletes: an import batch or a purge appends one row per
-- center and status, not one per patient.
CREATE TRIGGER patients_count_inserted
  AFTER INSERT ON patients REFERENCING NEW TABLE AS statement_patients
  FOR EACH STATEMENT EXECUTE FUNCTION patients_count_statement();
CREATE TRIGGER patients_count_deleted
  AFTER DELETE ON patients REFERENCING OLD TABLE AS statement_patients
  FOR EACH STATEMENT EXECUTE FUNCTION patients_count_statement();
-- A row trigger for changes, only when a counted column really changes (the ingest's
-- last_reading_at updates do not call it).
CREATE TRIGGER patients_count_changed
  AFTER UPDATE OF status, health_center_id, account_state ON patients
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.health_center_id IS DISTINCT FROM NEW.health_center_id
        OR OLD.account_state IS DISTINCT FROM NEW.account_state)
  EXECUTE FUNCTION patients_count_changed();
CREATE TRIGGER patients_count_truncated
  AFTER TRUNCATE ON patients
  FOR EACH STATEMENT EXECUTE FUNCTION patients_count_truncated();

-- Folds the current tenant's (app.tenant_id) rows: every center and status with more than one row
-- becomes one row holding their sum (none when it is zero). Rows appended by transactions not yet
-- committed are not seen and stay for the next fold; two folds at once never count a row twice
-- (a row the other fold deleted is skipped). Returns how many rows it removed.
CREATE FUNCTION fold_patient_counts() RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
  removed integer;
BEGIN
  IF tenant IS NULL THEN
    RETURN 0;
  END IF;
  WITH busy AS (
         SELECT health_center_id, status FROM patient_counts WHERE tenant_id = tenant
          GROUP BY health_center_id, status HAVING count(*) > 1),
       gone AS (
         DELETE FROM patient_counts c USING busy b
          WHERE c.tenant_id = tenant AND c.health_center_id IS NOT DISTINCT FROM b.health_center_id AND c.status = b.status
         RETURNING c.health_center_id, c.status, c.patients),
       folded AS (
         INSERT INTO patient_counts (tenant_id, health_center_id, status, patients)
         SELECT tenant, health_center_id, status, sum(patients) FROM gone
          GROUP BY health_center_id, status HAVING sum(patients) <> 0)
  SELECT count(*) INTO removed FROM gone;
  RETURN removed;
END $$;
REVOKE ALL ON FUNCTION fold_patient_counts() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fold_patient_counts() TO rpm_app;

-- What is there already, tenant by tenant (the tenant set as a request sets it: under FORCE row
-- level security an owner that is not a superuser sees only the tenant set).
DO $$
DECLARE
  tenant uuid;
BEGIN
  FOR tenant IN SELECT id FROM tenants LOOP
    PERFORM set_config('app.tenant_id', tenant::text, true);
    UPDATE patients p SET open_sos_opened_at = c.opened_at
      FROM sos_cases c
     WHERE p.tenant_id = tenant AND c.tenant_id = tenant AND c.patient_id = p.id AND c.status <> 'CLOSED';
    UPDATE patients p SET no_data = true
     WHERE p.tenant_id = tenant
       AND EXISTS (SELECT 1 FROM devices d WHERE d.tenant_id = tenant AND d.patient_id = p.id AND d.app_status = 'NO_SYNC');
    INSERT INTO patient_counts (tenant_id, health_center_id, status, patients)
    SELECT tenant, health_center_id, status, count(*) FROM patients
     WHERE tenant_id = tenant AND account_state = 'ACTIVE' GROUP BY health_center_id, status;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
