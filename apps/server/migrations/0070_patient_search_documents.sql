-- Several words searched together are found through an inverted index of each patient's terms.
--
-- patient_search_terms (0063) holds one row per term and patient, and a search of two words read
-- at least the rarer word's range whole: "Tran Linh" at a million patients read 13,000 rows of
-- "linh" and probed "tran" and "trang" for each (70 ms), "Nguyen Huy" 440,000 rows of "nguyen",
-- "huy" and "huynh" (230 ms under EXPLAIN ANALYZE). patient_search_documents holds the same terms, one row per patient
-- with its terms as an array, under a GIN index: the words' posting lists are intersected inside
-- the index (skipping through the common word's list by the rare one's) and only the matches are
-- read, 4–11 ms for the same searches.
--
-- A document holds the terms a word of letters can start: the names' and the patient id's words.
-- Not the phone's digits (both ways), the id's number or the email (after an '@'), found by words of
-- digits or with an '@', which are searched as before. That halves the index (4 terms a patient
-- instead of 7.6) and what each new patient costs in it.
--
-- The documents are kept from the terms themselves, by statement triggers on patient_search_terms:
-- every way the terms change (a patient added, changed, deleted, an import's backlog flushed) goes
-- through them already, so the documents cannot disagree with the terms.
--
-- The array operator that GIN answers (&&) is not leakproof, so under row level security the
-- planner would not let the index evaluate it ahead of the policies (the reason 0063 compares
-- ranges of text). The index is therefore read only by patient_search_matching, with the owner's
-- rights, which applies the tenant and the caller's centers itself, as the policies of
-- patient_search_terms state them. Where the owner is itself bound by row level security (not a
-- superuser, no BYPASSRLS), the function still answers rightly, by reading the tenant's documents.

-- The terms a word of letters can start (patient_search_terms_of's other terms are digits only,
-- the reversed phone after a '~' and the email after an '@').
CREATE FUNCTION patient_search_is_documented(term text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN term !~ '^[0-9]*$' AND left(term, 1) NOT IN ('@', '~');

CREATE TABLE patient_search_documents (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  patient_id uuid NOT NULL,
  health_center_id uuid,
  terms text[] NOT NULL,
  PRIMARY KEY (tenant_id, patient_id)
);

-- What is there already, tenant by tenant (under FORCE row level security an owner that is not a
-- superuser sees only the tenant set).
DO $$
DECLARE
  tenant uuid;
BEGIN
  FOR tenant IN SELECT id FROM tenants ORDER BY id LOOP
    PERFORM set_config('app.tenant_id', tenant::text, true);
    INSERT INTO patient_search_documents (tenant_id, patient_id, health_center_id, terms)
    SELECT term.tenant_id, term.patient_id, (array_agg(term.health_center_id))[1], array_agg(term.term ORDER BY term.term)
      FROM patient_search_terms term
     WHERE term.tenant_id = tenant AND patient_search_is_documented(term.term)
     GROUP BY term.tenant_id, term.patient_id;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
CREATE INDEX patient_search_documents_terms ON patient_search_documents USING gin (terms);

ALTER TABLE patient_search_documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE patient_search_documents FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON patient_search_documents
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- No grant: written by the triggers below and read only by patient_search_matching, both the
-- owner's. The function applies the caller's centers itself (the terms' center_visibility rule), so
-- the table carries no copy of that policy: one statement of the rule for its one reader.

-- The terms' triggers run inside the patients' (0063, 0065), which act for the patient's tenant
-- as a whole-tenant caller; so the documents' tenant policy passes for their writes.
CREATE FUNCTION patient_search_terms_added() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  -- Usually the patients have no document yet (a new patient; a changed one's terms were all
  -- removed just before): a plain insert, a third cheaper than ON CONFLICT for an import's flush.
  BEGIN
    INSERT INTO patient_search_documents (tenant_id, patient_id, health_center_id, terms)
    SELECT added.tenant_id, added.patient_id, (array_agg(added.health_center_id))[1], array_agg(added.term ORDER BY added.term)
      FROM added_terms added
     WHERE patient_search_is_documented(added.term)
     GROUP BY added.tenant_id, added.patient_id;
  EXCEPTION WHEN unique_violation THEN
    INSERT INTO patient_search_documents AS document (tenant_id, patient_id, health_center_id, terms)
    SELECT added.tenant_id, added.patient_id, (array_agg(added.health_center_id))[1], array_agg(added.term ORDER BY added.term)
      FROM added_terms added
     WHERE patient_search_is_documented(added.term)
     GROUP BY added.tenant_id, added.patient_id
    ON CONFLICT (tenant_id, patient_id) DO UPDATE SET
      health_center_id = excluded.health_center_id,
      terms = ARRAY(SELECT DISTINCT kept.term FROM unnest(document.terms || excluded.terms) AS kept (term) ORDER BY kept.term);
  END;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patient_search_terms_added() FROM PUBLIC;

CREATE FUNCTION patient_search_terms_removed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  WITH gone AS (
    SELECT removed.tenant_id, removed.patient_id, array_agg(removed.term) AS terms
      FROM removed_terms removed
     WHERE patient_search_is_documented(removed.term)
     GROUP BY removed.tenant_id, removed.patient_id
  ), emptied AS (
    DELETE FROM patient_search_documents document
     USING gone
     WHERE document.tenant_id = gone.tenant_id AND document.patient_id = gone.patient_id AND document.terms <@ gone.terms
    RETURNING document.tenant_id, document.patient_id
  )
  UPDATE patient_search_documents document
     SET terms = ARRAY(SELECT kept.term FROM unnest(document.terms) AS kept (term) WHERE kept.term <> ALL (gone.terms) ORDER BY kept.term)
    FROM gone
   WHERE document.tenant_id = gone.tenant_id AND document.patient_id = gone.patient_id
     AND NOT (document.terms <@ gone.terms);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION patient_search_terms_removed() FROM PUBLIC;

CREATE TRIGGER patient_search_terms_added
  AFTER INSERT ON patient_search_terms REFERENCING NEW TABLE AS added_terms
  FOR EACH STATEMENT EXECUTE FUNCTION patient_search_terms_added();
CREATE TRIGGER patient_search_terms_removed
  AFTER DELETE ON patient_search_terms REFERENCING OLD TABLE AS removed_terms
  FOR EACH STATEMENT EXECUTE FUNCTION patient_search_terms_removed();

-- TRUNCATE fires no delete trigger: the patients' truncate trigger empties the documents too.
CREATE OR REPLACE FUNCTION patients_search_truncated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  TRUNCATE patient_search_terms, patient_search_backlog, patient_search_documents;
  RETURN NULL;
END $$;

-- The live patients who have, for each word, one of the word's terms (`words`: a JSON array of
-- arrays of terms, one array a word), in `center` when given, up to `most` (NULL: all), as the
-- caller sees them: the transaction's tenant, and the caller's centers as the terms' policy reads
-- them (a patient account sees none). The words' terms are those of the ranges the words start
-- (patient_search_terms); each condition is written out as a constant, so the statement is planned
-- for the words' own terms.
CREATE FUNCTION patient_search_matching(words jsonb, center uuid, most integer) RETURNS SETOF uuid
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public, pg_temp
  SET enable_seqscan = off
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
  is_staff boolean := current_setting('app.subject', true) IS DISTINCT FROM 'patient';
  centers text := coalesce(current_setting('app.center_ids', true), '');
  visible text;
  conditions text := '';
  word jsonb;
BEGIN
  IF tenant IS NULL OR NOT is_staff OR centers = 'none' OR jsonb_typeof(words) IS DISTINCT FROM 'array'
     OR jsonb_array_length(words) = 0 THEN
    RETURN;
  END IF;
  visible := CASE WHEN centers IN ('', '*') THEN 'true'
                  ELSE format('document.health_center_id = ANY (%L::uuid[])', string_to_array(centers, ',')::uuid[]) END;
  FOR word IN SELECT element FROM jsonb_array_elements(words) AS listed (element) LOOP
    IF jsonb_typeof(word) IS DISTINCT FROM 'array' THEN
      RAISE EXCEPTION 'a word is an array of terms' USING ERRCODE = '22023';
    END IF;
    conditions := conditions || format(' AND document.terms && %L::text[]', ARRAY(SELECT jsonb_array_elements_text(word)));
  END LOOP;
  IF center IS NOT NULL THEN
    conditions := conditions || format(' AND document.health_center_id = %L::uuid', center);
  END IF;
  RETURN QUERY EXECUTE format(
    'SELECT document.patient_id FROM patient_search_documents document WHERE document.tenant_id = %L::uuid%s AND %s LIMIT %s',
    tenant, conditions, visible, coalesce(most::text, 'ALL'));
END $$;
REVOKE ALL ON FUNCTION patient_search_matching(jsonb, uuid, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION patient_search_matching(jsonb, uuid, integer) TO rpm_app;

ANALYZE patient_search_documents;

-- The words (indexes into `words`, as patient_search_matching takes them) from the one whose terms
-- the fewest documents hold to the most, by the planner's estimates: the order in which a row of
-- the list is checked against them, so that most rows are turned down by the first check. Only the
-- order is answered: the estimates are of the whole table, every tenant's documents. (VOLATILE:
-- PostgreSQL runs EXPLAIN in no other kind of function.)
CREATE FUNCTION patient_search_rarest_first(words jsonb) RETURNS integer[]
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  word jsonb;
  plan json;
  estimates float8[] := '{}';
BEGIN
  IF jsonb_typeof(words) IS DISTINCT FROM 'array' THEN
    RETURN '{}';
  END IF;
  FOR word IN SELECT element FROM jsonb_array_elements(words) AS listed (element) LOOP
    IF jsonb_typeof(word) IS DISTINCT FROM 'array' THEN
      RAISE EXCEPTION 'a word is an array of terms' USING ERRCODE = '22023';
    END IF;
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM patient_search_documents document WHERE document.terms && %L::text[]',
                   ARRAY(SELECT jsonb_array_elements_text(word)))
      INTO plan;
    estimates := estimates || ((plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8);
  END LOOP;
  RETURN ARRAY(SELECT listed.position - 1 FROM unnest(estimates) WITH ORDINALITY AS listed (estimate, position)
                ORDER BY listed.estimate, listed.position);
END $$;
REVOKE ALL ON FUNCTION patient_search_rarest_first(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION patient_search_rarest_first(jsonb) TO rpm_app;
