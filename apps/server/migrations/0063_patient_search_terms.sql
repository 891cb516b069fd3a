-- The patient list's search by index under row-level security (tools/bench/million-patients.ts).
--
-- The search was ILIKE '%…%' over the name forms, the patient id, the phone and the email. Under
-- row-level security PostgreSQL evaluates a query's own conditions ahead of the policies only when
-- their operators are leakproof; ILIKE, trigram and array operators are not, so no index could
-- serve them and a tenant-wide search read every patient (2.2–2.5 s at a million). Plain text
-- comparison (text_ge, text_lt) is leakproof: the search now looks up word prefixes in
-- patient_search_terms with a range (term >= prefix AND term < prefix || U+10FFFF), which its
-- primary key serves.
--
-- What a patient is found by (patient_search_terms_of): the words of the first, middle and last
-- names and of the patient id, and the id's number; the email from its start; the phone's digits
-- from the start and from the end. Words are folded by patient_search_key: Vietnamese diacritics
-- removed, đ read as d, lower case. The list folds what is typed with the same function
-- (store.ts), so both sides always agree. Only live patients (account_state ACTIVE) have terms:
-- the list shows no others, and a search's total is then counted from the terms alone.

-- Text as the search compares it. Decomposed first (NFD), so accents typed as separate marks
-- fold like composed letters; the marks removed; lower case after, when only đ/Đ is left outside
-- ASCII among Vietnamese letters (lower() of other letters depends on the database's ctype).
CREATE FUNCTION patient_search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(translate(regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g'), 'đĐ', 'dd'));

-- One word as the search compares it: folded, punctuation at its ends trimmed.
CREATE FUNCTION patient_search_key(word text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(patient_search_fold(word), '^[[:punct:][:space:]]+|[[:punct:][:space:]]+$', '', 'g');
GRANT EXECUTE ON FUNCTION patient_search_key(text) TO rpm_app;

-- The distinct terms of one patient (none empty). Names and the patient id are cut into words at
-- spaces and punctuation, as the list cuts what is typed. The email is one term after an '@', and
-- the phone's digits read backwards one after a '~' (folded words never start with either): the
-- list looks there only for what is typed with an @, or for digits. Kept apart, the emails (most
-- begin with a name) and the reversed numbers do not lengthen the range a name's prefix reads.
CREATE FUNCTION patient_search_terms_of(
  patient_code text, first_name text, middle_name text, last_name text, phone text, email text
) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (
    SELECT coalesce(array_agg(DISTINCT term ORDER BY term), '{}')
      FROM (SELECT nullif(regexp_replace(phone, '[^0-9]', '', 'g'), '') AS value) AS digits,
           -- Folded before it is cut: the regular expressions' [[:punct:]] holds combining marks.
           -- Then a patient id's number (BNCS10001: 10001), the email, the phone both ways.
           unnest(regexp_split_to_array(patient_search_fold(concat_ws(' ', first_name, middle_name, last_name, patient_code)),
                                        '[[:space:][:punct:]]+')
                  || ARRAY[substring(patient_code FROM '[0-9]+$'), '@' || patient_search_key(email),
                           digits.value, '~' || reverse(digits.value)]) AS term
     WHERE term NOT IN ('', '@')
  );
GRANT EXECUTE ON FUNCTION patient_search_terms_of(text, text, text, text, text, text) TO rpm_app;

-- One row per live patient and term. The primary key is the search's index: a tenant's terms in
-- byte order (COLLATE "C": a prefix is one contiguous range, and the comparisons are leakproof),
-- with the health center beside them, so that the visibility policy and the center filter are
-- answered from the index alone. No foreign key to the patient: a cascade would need an index by
-- patient; the triggers below remove a patient's terms by their keys.
CREATE TABLE patient_search_terms (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  term text COLLATE "C" NOT NULL,
  patient_id uuid NOT NULL,
  health_center_id uuid
);

-- What is there already, tenant by tenant (the tenant set as a request sets it: under FORCE row
-- level security an owner that is not a superuser sees only the tenant set). Written in the key's
-- order and the key built after: a word's rows then share pages, and reading a common word's range
-- (the visibility map is checked per row) took a quarter of the time it took on rows written in
-- the patients' order; one sort also builds the key faster than a million insertions.
DO $$
DECLARE
  tenant uuid;
BEGIN
  FOR tenant IN SELECT id FROM tenants ORDER BY id LOOP
    PERFORM set_config('app.tenant_id', tenant::text, true);
    INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
    SELECT p.tenant_id, t.term, p.id, p.health_center_id
      FROM patients p,
           unnest(patient_search_terms_of(p.patient_code, p.first_name, p.middle_name, p.last_name, p.phone, p.email)) AS t (term)
     WHERE p.tenant_id = tenant AND p.account_state = 'ACTIVE'
     ORDER BY t.term COLLATE "C", p.id;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
ALTER TABLE patient_search_terms ADD PRIMARY KEY (tenant_id, term, patient_id) INCLUDE (health_center_id);

ALTER TABLE patient_search_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE patient_search_terms FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON patient_search_terms
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- Read as staff see the patients they name (app_center_visible: by center, center-less ones by
-- whole-tenant callers only); a patient account lists no patients and reads no terms. Written so
-- that the settings are read once per statement (the two scalar subqueries run once, as
-- InitPlans), not once per row: a common word's prefix is hundreds of thousands of rows, and
-- app_center_visible per row cost more than reading them.
CREATE POLICY center_visibility ON patient_search_terms AS RESTRICTIVE FOR SELECT
  USING ((SELECT current_setting('app.subject', true) IS DISTINCT FROM 'patient'
                 AND coalesce(current_setting('app.center_ids', true), '') IN ('', '*'))
         OR health_center_id = ANY (coalesce(
              (SELECT CASE WHEN current_setting('app.subject', true) IS DISTINCT FROM 'patient'
                             AND coalesce(current_setting('app.center_ids', true), '') NOT IN ('', '*', 'none')
                           THEN string_to_array(current_setting('app.center_ids', true), ',')::uuid[] END),
              '{}')));
-- Written only by the triggers below (SECURITY DEFINER): the application reads.
GRANT SELECT ON patient_search_terms TO rpm_app;

-- The triggers run with the owner's rights, and for the length of the call as a whole-tenant staff
-- caller of the patient's tenant (as the severity triggers of 0062): whoever changes a patient may
-- not see the rows its old terms are in (a patient account renaming itself), and a statement run
-- without a tenant set (an administrator's, on a tenant's own database) must keep the terms too.
-- The caller's settings are put back before they return.

-- The caller's settings (tenant, subject, centers), for patient_search_restore.
CREATE FUNCTION patient_search_caller() RETURNS text[]
  LANGUAGE sql STABLE
  RETURN ARRAY[current_setting('app.tenant_id', true), current_setting('app.subject', true),
               current_setting('app.center_ids', true)];
REVOKE ALL ON FUNCTION patient_search_caller() FROM PUBLIC;

CREATE FUNCTION patient_search_act_for(tenant uuid) RETURNS void
  LANGUAGE sql
  BEGIN ATOMIC
    SELECT set_config('app.tenant_id', tenant::text, true), set_config('app.subject', '', true),
           set_config('app.center_ids', '*', true);
  END;
REVOKE ALL ON FUNCTION patient_search_act_for(uuid) FROM PUBLIC;

CREATE FUNCTION patient_search_restore(caller text[]) RETURNS void
  LANGUAGE sql
  BEGIN ATOMIC
    SELECT set_config('app.tenant_id', coalesce(caller[1], ''), true), set_config('app.subject', coalesce(caller[2], ''), true),
           set_config('app.center_ids', coalesce(caller[3], ''), true);
  END;
REVOKE ALL ON FUNCTION patient_search_restore(text[]) FROM PUBLIC;

CREATE FUNCTION patients_search_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
  tenant uuid;
BEGIN
  FOR tenant IN SELECT DISTINCT tenant_id FROM inserted_patients LOOP
    PERFORM patient_search_act_for(tenant);
    INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
    SELECT p.tenant_id, t.term, p.id, p.health_center_id
      FROM inserted_patients p,
           unnest(patient_search_terms_of(p.patient_code, p.first_name, p.middle_name, p.last_name, p.phone, p.email)) AS t (term)
     WHERE p.tenant_id = tenant AND p.account_state = 'ACTIVE'
     -- In the key's order: an import batch's thousands of terms then go down the key in one sweep.
     ORDER BY t.term COLLATE "C", p.id;
  END LOOP;
  PERFORM patient_search_restore(caller);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_search_inserted() FROM PUBLIC;

CREATE FUNCTION patients_search_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
  tenant uuid;
BEGIN
  FOR tenant IN SELECT DISTINCT tenant_id FROM deleted_patients WHERE account_state = 'ACTIVE' LOOP
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
REVOKE ALL ON FUNCTION patients_search_deleted() FROM PUBLIC;

-- A change of what is searched, of the center or of the account state: the old terms go, the
-- new ones come (both only while the patient is live).
CREATE FUNCTION patients_search_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text[] := patient_search_caller();
BEGIN
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
      FROM unnest(patient_search_terms_of(NEW.patient_code, NEW.first_name, NEW.middle_name, NEW.last_name, NEW.phone, NEW.email)) AS t (term);
  END IF;
  PERFORM patient_search_restore(caller);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_search_changed() FROM PUBLIC;

CREATE FUNCTION patients_search_truncated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  TRUNCATE patient_search_terms;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patients_search_truncated() FROM PUBLIC;

-- Statement triggers for inserts and deletes (an import batch, a purge); a row trigger for changes,
-- called only when a searched column, the center or the account state really changes (the
-- ingest's last_reading_at and status updates do not call it).
CREATE TRIGGER patients_search_inserted
  AFTER INSERT ON patients REFERENCING NEW TABLE AS inserted_patients
  FOR EACH STATEMENT EXECUTE FUNCTION patients_search_inserted();
CREATE TRIGGER patients_search_deleted
  AFTER DELETE ON patients REFERENCING OLD TABLE AS deleted_patients
  FOR EACH STATEMENT EXECUTE FUNCTION patients_search_deleted();
CREATE TRIGGER patients_search_changed
  AFTER UPDATE OF patient_code, first_name, middle_name, last_name, phone, email, health_center_id, account_state ON patients
  FOR EACH ROW
  WHEN (OLD.patient_code IS DISTINCT FROM NEW.patient_code OR OLD.first_name IS DISTINCT FROM NEW.first_name
        OR OLD.middle_name IS DISTINCT FROM NEW.middle_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.phone IS DISTINCT FROM NEW.phone OR OLD.email IS DISTINCT FROM NEW.email
        OR OLD.health_center_id IS DISTINCT FROM NEW.health_center_id OR OLD.account_state IS DISTINCT FROM NEW.account_state)
  EXECUTE FUNCTION patients_search_changed();
CREATE TRIGGER patients_search_truncated
  AFTER TRUNCATE ON patients
  FOR EACH STATEMENT EXECUTE FUNCTION patients_search_truncated();

-- Statistics for the first searches' plans, before autovacuum comes by.
ANALYZE patient_search_terms;
