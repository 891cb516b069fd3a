-- Reads of patient data (PHI) are audited with the patients each request revealed, in
-- details.patientIds (a JSON array of patient ids: one row per request, however many patients a
-- page shows). This index answers "who has seen patient X" without reading the whole log:
--   SELECT … FROM audit_log
--    WHERE details ? 'patientIds' AND details -> 'patientIds' @> jsonb_build_array('<patient id>'::text)
-- It is partial, so the other audit rows (changes, logins) cost nothing more to insert.
CREATE INDEX audit_log_patient_ids ON audit_log USING gin ((details -> 'patientIds') jsonb_path_ops)
  WHERE details ? 'patientIds';
