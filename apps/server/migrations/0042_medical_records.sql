-- Medical records (spec §3 Medical record; §2 medical records: add, edit, detail): a patient's
-- examination card, result card, paper prescription, bill or other document, with the day and
-- place of the examination and the examining doctor (free text: often outside the platform), and
-- its attachments. The attachments are the patient files of migration 0008: every file now belongs
-- to one record (record_id), and each file stored before this migration becomes a record of its
-- own (type OTHER, titled by the file's name, dated the day it was uploaded in the patient's zone).
CREATE TABLE medical_records (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  record_type text NOT NULL CHECK (record_type IN ('EXAMINATION_CARD', 'RESULT_CARD', 'PRESCRIPTION', 'BILL', 'OTHER')),
  examined_on date NOT NULL CHECK (examined_on >= DATE '1900-01-01'),
  place text CHECK (length(place) <= 200),
  doctor_name text CHECK (length(doctor_name) <= 120),
  note text CHECK (length(note) <= 1000),
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX medical_records_by_patient ON medical_records (tenant_id, patient_id, examined_on DESC);

ALTER TABLE patient_files ADD COLUMN record_id uuid;

INSERT INTO medical_records (tenant_id, id, patient_id, title, record_type, examined_on, created_by, created_at, updated_by, updated_at)
SELECT f.tenant_id, f.id, f.patient_id, left(f.name, 200), 'OTHER',
       GREATEST((f.uploaded_at AT TIME ZONE COALESCE(account.time_zone, 'UTC'))::date, DATE '1900-01-01'),
       f.uploaded_by, f.uploaded_at, f.uploaded_by, f.uploaded_at
  FROM patient_files f
  JOIN patients p ON p.tenant_id = f.tenant_id AND p.id = f.patient_id
  LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id;
-- The record made from a file has the file's id, so each file points at its own.
UPDATE patient_files SET record_id = id;

ALTER TABLE patient_files ALTER COLUMN record_id SET NOT NULL;
ALTER TABLE patient_files
  ADD FOREIGN KEY (tenant_id, record_id) REFERENCES medical_records (tenant_id, id) ON DELETE CASCADE;
CREATE INDEX patient_files_by_record ON patient_files (tenant_id, record_id, uploaded_at);

-- Seen exactly when the patient is (center visibility), never by followers, written only by staff:
-- the patient reads its records and cannot change them (spec §6: patients cannot change their
-- medical profile). The attachments get the same write rule.
ALTER TABLE medical_records ENABLE ROW LEVEL SECURITY;
ALTER TABLE medical_records FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON medical_records USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON medical_records AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = medical_records.tenant_id AND visible.id = medical_records.patient_id));
CREATE POLICY not_followers ON medical_records AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed));
DO $$
DECLARE
  staff_table text;
BEGIN
  FOREACH staff_table IN ARRAY ARRAY['medical_records', 'patient_files'] LOOP
    EXECUTE format('CREATE POLICY staff_write_insert ON %I AS RESTRICTIVE FOR INSERT'
                   ' WITH CHECK (current_setting(''app.subject'', true) IS DISTINCT FROM ''patient'')', staff_table);
    EXECUTE format('CREATE POLICY staff_write_update ON %I AS RESTRICTIVE FOR UPDATE'
                   ' USING (current_setting(''app.subject'', true) IS DISTINCT FROM ''patient'')', staff_table);
    EXECUTE format('CREATE POLICY staff_write_delete ON %I AS RESTRICTIVE FOR DELETE'
                   ' USING (current_setting(''app.subject'', true) IS DISTINCT FROM ''patient'')', staff_table);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE, DELETE ON medical_records TO rpm_app;
