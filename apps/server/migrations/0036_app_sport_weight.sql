-- The patient app's sport sessions and weight goal (spec §2 patient app: sport modes and history,
-- weight goal and records; §7 sport data push, weight record calls).
--
-- sport_records gains what a session tracked in the app carries besides the watch's fields: the
-- app's own id of the session (a retried save stores nothing twice), its distance and where the
-- distance came from (the phone's positions, or steps × stride). Watch records leave them NULL.
ALTER TABLE sport_records
  ADD COLUMN client_id uuid,
  ADD COLUMN distance_m double precision CHECK (distance_m >= 0),
  ADD COLUMN distance_source text CHECK (distance_source IN ('GPS', 'STEPS'));
CREATE UNIQUE INDEX sport_records_client_key ON sport_records (tenant_id, patient_id, client_id) WHERE client_id IS NOT NULL;

-- One weight goal per patient, with the weight it started from (progress is measured from there).
CREATE TABLE weight_goals (
  tenant_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  goal_kg double precision NOT NULL CHECK (goal_kg > 1 AND goal_kg < 700),
  start_kg double precision CHECK (start_kg > 1 AND start_kg < 700),
  set_at timestamptz NOT NULL,
  set_by uuid NOT NULL,
  PRIMARY KEY (tenant_id, patient_id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);

-- Seen and changed exactly when the patient is (the patients policy of migration 0017: staff by
-- center, a patient account its own record only).
ALTER TABLE weight_goals ENABLE ROW LEVEL SECURITY;
ALTER TABLE weight_goals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON weight_goals
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON weight_goals AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = weight_goals.tenant_id AND visible.id = weight_goals.patient_id));
GRANT SELECT, INSERT, UPDATE, DELETE ON weight_goals TO rpm_app;
