-- An import's search terms are written after its patients, in one sorted pass.
--
-- Written with each import batch (0063), a patient's 7–8 terms went to places all over the key
-- of patient_search_terms: the phone's digits both ways and the email are as good as random. At
-- a million imported patients the key no longer fits in memory and each batch's thousands of
-- terms touched as many pages: about 170 µs of PostgreSQL time a row, and the 1 M-row import took
-- 199 s instead of 70 s (tools/bench/RESULTS.md).
--
-- Now an insert made with app.search_terms = 'deferred' (the patient import sets it for its
-- batches) leaves only the patients' ids in patient_search_backlog, in the id's order (uuidv7:
-- the end of the key). patient_search_flush() writes the terms of everything in the tenant's
-- backlog at once, sorted, so each page of the key is visited once per flush however many of the
-- patients' terms land on it. The import flushes every so many rows and when it ends; a periodic
-- task flushes what a stopped process left (modules/patients/search-backlog.ts). Until then a new
-- patient is listed but not found by search.
--
-- Concurrent changes: the flush reads the patients as they are when it runs, under a per-tenant
-- advisory lock that the change and delete triggers take shared. A change committed before the
-- flush is seen by it; a change made while it runs waits for it, and then removes what the flush
-- wrote from the old values and writes the new ones. So the terms never keep an old name, phone or
-- center. A patient the change trigger gave terms already meets them again in the flush, which
-- skips what exists.

CREATE TABLE patient_search_backlog (
  tenant_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, patient_id)
);
ALTER TABLE patient_search_backlog ENABLE ROW LEVEL SECURITY;
ALTER TABLE patient_search_backlog FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON patient_search_backlog
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- No grant: written by the insert trigger and emptied by patient_search_flush, both the owner's.

-- The lock that orders a flush of a tenant against changes to its patients' searched columns.
CREATE FUNCTION patient_search_lock(tenant uuid, exclusive boolean) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF exclusive THEN
    PERFORM pg_advisory_xact_lock(hashtext('patient_search_terms'), hashtext(tenant::text));
  ELSE
    PERFORM pg_advisory_xact_lock_shared(hashtext('patient_search_terms'), hashtext(tenant::text));
  END IF;
END $$;
REVOKE ALL ON FUNCTION patient_search_lock(uuid, boolean) FROM PUBLIC;

CREATE OR REPLACE FUNCTION patients_search_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
  deferred boolean := coalesce(current_setting('app.search_terms', true), '') = 'deferred';
  tenant uuid;
BEGIN
  FOR tenant IN SELECT DISTINCT tenant_id FROM inserted_patients LOOP
    PERFORM patient_search_act_for(tenant);
    IF deferred THEN
      INSERT INTO patient_search_backlog (tenant_id, patient_id)
      SELECT p.tenant_id, p.id FROM inserted_patients p
       WHERE p.tenant_id = tenant AND p.account_state = 'ACTIVE'
       ORDER BY p.id;
    ELSE
      INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
      SELECT p.tenant_id, t.term, p.id, p.health_center_id
        FROM inserted_patients p,
             unnest(patient_search_terms_of(p.patient_code, p.first_name, p.middle_name, p.last_name, p.phone, p.email)) AS t (term)
       WHERE p.tenant_id = tenant AND p.account_state = 'ACTIVE'
       ORDER BY t.term COLLATE "C", p.id;
    END IF;
  END LOOP;
  PERFORM patient_search_restore(caller);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION patients_search_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
  tenant uuid;
BEGIN
  FOR tenant IN SELECT DISTINCT tenant_id FROM deleted_patients WHERE account_state = 'ACTIVE' LOOP
    PERFORM patient_search_lock(tenant, false);
    PERFORM patient_search_act_for(tenant);
    DELETE FROM patient_search_terms s
     USING (SELECT p.id, t.term
              FROM deleted_patients p,
                   unnest(patient_search_terms_of(p.patient_code, p.first_name, p.middle_name, p.last_name, p.phone, p.email)) AS t (term)
             WHERE p.tenant_id = tenant AND p.account_state = 'ACTIVE') gone
     WHERE s.tenant_id = tenant AND s.term = gone.term AND s.patient_id = gone.id;
  END LOOP;
  PERFORM patient_search_restore(caller);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION patients_search_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
BEGIN
  PERFORM patient_search_lock(NEW.tenant_id, false);
  IF OLD.account_state = 'ACTIVE' THEN
    PERFORM patient_search_act_for(OLD.tenant_id);
    DELETE FROM patient_search_terms
     WHERE tenant_id = OLD.tenant_id AND patient_id = OLD.id
       AND term = ANY (patient_search_terms_of(OLD.patient_code, OLD.first_name, OLD.middle_name, OLD.last_name, OLD.phone, OLD.email));
  END IF;
  IF NEW.account_state = 'ACTIVE' THEN
    PERFORM patient_search_act_for(NEW.tenant_id);
    INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
    SELECT NEW.tenant_id, t.term, NEW.id, NEW.health_center_id
      FROM unnest(patient_search_terms_of(NEW.patient_code, NEW.first_name, NEW.middle_name, NEW.last_name, NEW.phone, NEW.email)) AS t (term)
    ON CONFLICT DO NOTHING;
  END IF;
  PERFORM patient_search_restore(caller);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION patients_search_truncated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  TRUNCATE patient_search_terms, patient_search_backlog;
  RETURN NULL;
END $$;

-- Writes the terms of the transaction tenant's backlog, in the key's order, and empties it.
-- Returns how many patients it took from the backlog. Each statement below reads the patients as
-- they are once the lock is held (READ COMMITTED takes a snapshot per statement).
CREATE FUNCTION patient_search_flush() RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
  tenant uuid := app_current_tenant();
  ids uuid[];
  taken bigint;
BEGIN
  IF tenant IS NULL THEN
    RETURN 0;
  END IF;
  PERFORM patient_search_act_for(tenant);
  -- Nothing to do (the periodic task's usual answer): no lock taken.
  IF NOT EXISTS (SELECT 1 FROM patient_search_backlog WHERE tenant_id = tenant) THEN
    PERFORM patient_search_restore(caller);
    RETURN 0;
  END IF;
  PERFORM patient_search_lock(tenant, true);
  WITH taken_rows AS (
    DELETE FROM patient_search_backlog WHERE tenant_id = tenant RETURNING patient_id
  )
  SELECT array_agg(patient_id), count(*) INTO ids, taken FROM taken_rows;
  -- A plain insert (a third cheaper than ON CONFLICT for millions of rows) unless one of the terms
  -- exists: written by a change of the patient's since it was inserted.
  BEGIN
    INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
    SELECT p.tenant_id, t.term, p.id, p.health_center_id
      FROM unnest(ids) AS f (patient_id)
      JOIN patients p ON p.tenant_id = tenant AND p.id = f.patient_id,
           unnest(patient_search_terms_of(p.patient_code, p.first_name, p.middle_name, p.last_name, p.phone, p.email)) AS t (term)
     WHERE p.account_state = 'ACTIVE'
     ORDER BY t.term COLLATE "C", p.id;
  EXCEPTION WHEN unique_violation THEN
    INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
    SELECT p.tenant_id, t.term, p.id, p.health_center_id
      FROM unnest(ids) AS f (patient_id)
      JOIN patients p ON p.tenant_id = tenant AND p.id = f.patient_id,
           unnest(patient_search_terms_of(p.patient_code, p.first_name, p.middle_name, p.last_name, p.phone, p.email)) AS t (term)
     WHERE p.account_state = 'ACTIVE'
     ORDER BY t.term COLLATE "C", p.id
    ON CONFLICT DO NOTHING;
  END;
  PERFORM patient_search_restore(caller);
  RETURN taken;
END $$;
REVOKE ALL ON FUNCTION patient_search_flush() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION patient_search_flush() TO rpm_app;
