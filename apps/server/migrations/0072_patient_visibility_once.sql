-- Which patients a caller sees (migration 0037), cheaper to check and better estimated. The rule is
-- unchanged: a patient subject sees its own record, its sub-users' and the patients it follows;
-- staff see the patients of their centers (app.center_ids: '' or '*' every center and the
-- center-less patients, 'none' no center, else a list of ids).
--
-- Every table whose rows belong to a patient checks that the patient is visible (EXISTS … FROM
-- patients visible). PostgreSQL answers that either by probing the patient of each row or by
-- hashing every visible patient of the tenant once, and picks by cost. Two things made it pick the
-- hash where probes were far cheaper, and made the hash dearer than it had to be:
--
-- 1. The followed patients (app_subject_followed) were estimated at 1,000 rows, a set function's
--    default, and each probe was charged for hashing them. A subject follows a handful of patients
--    (spec: up to 5 caring, 5 emergency, 3 shared), so 10 is the honest estimate; the same for the
--    hidden kinds. One doctor's care team of 259 in a tenant of 20,000 patients: its links were
--    read in about 30 ms (a hash of the 20,000) and are now read in 3 ms (259 probes); the
--    doctor's worklist went from 72-78 to 16 ms.
-- 2. The policy read app.subject and app.center_ids through app_center_visible, which PostgreSQL
--    inlines: for each row it checked, it looked both settings up and parsed the list into a uuid[]
--    again. The scalar subqueries below run once per statement (InitPlans), as the search terms'
--    policy already does (migration 0063); a scan of 20,000 patients as one center's doctor went
--    from 25 to 15 ms. A subquery in the function's body would keep it from being inlined (a
--    function call per row, slower still), so the policy says it in place.
ALTER FUNCTION app_subject_followed() ROWS 10;
ALTER FUNCTION app_subject_hidden_kinds() ROWS 10;

DROP POLICY center_visibility ON patients;
CREATE POLICY center_visibility ON patients AS RESTRICTIVE
  USING (CASE WHEN (SELECT current_setting('app.subject', true) = 'patient')
              THEN user_id = (SELECT app_patient_subject()) OR holder_user_id = (SELECT app_patient_subject())
                OR id IN (SELECT followed.patient_id FROM app_subject_followed() followed)
              ELSE (SELECT coalesce(current_setting('app.center_ids', true), '') IN ('', '*'))
                OR health_center_id = ANY ((SELECT CASE WHEN coalesce(current_setting('app.center_ids', true), '') IN ('', '*', 'none')
                                                        THEN '{}'::uuid[]
                                                        ELSE string_to_array(current_setting('app.center_ids', true), ',')::uuid[] END)::uuid[])
         END);
