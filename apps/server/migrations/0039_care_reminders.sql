-- Care reminders (spec §3 Reminder; §6 doctors write reminders, assistants create and delete them):
-- a reminder on a patient that is not a medicine's dose ("Measure your blood pressure", "Walk 30
-- minutes"), with the reminder schedule of contracts reminderScheduleSchema (checked by contracts
-- scheduleProblems before it is stored). A medicine's own reminder is part of its prescription and
-- changes only with it (docs/decisions.md). Deleting one keeps the row (deleted_at), so who
-- reminded what and when stays answerable; the app's occurrences are computed from the schedule.
CREATE TABLE care_reminders (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  note text CHECK (length(note) <= 1000),
  schedule jsonb NOT NULL CHECK (jsonb_array_length(schedule -> 'times') >= 1),
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz,
  deleted_by uuid,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  CHECK ((deleted_at IS NULL) = (deleted_by IS NULL))
);
CREATE INDEX care_reminders_by_patient ON care_reminders (tenant_id, patient_id) WHERE deleted_at IS NULL;

-- The same rule as the prescriptions (migration 0038): tenant, patient access, nothing for
-- followers, no writes by a patient session.
ALTER TABLE care_reminders ENABLE ROW LEVEL SECURITY;
ALTER TABLE care_reminders FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON care_reminders USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON care_reminders AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = care_reminders.tenant_id AND visible.id = care_reminders.patient_id));
CREATE POLICY not_followers ON care_reminders AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed));
CREATE POLICY staff_write_insert ON care_reminders AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_update ON care_reminders AS RESTRICTIVE FOR UPDATE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_delete ON care_reminders AS RESTRICTIVE FOR DELETE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
GRANT SELECT, INSERT, UPDATE, DELETE ON care_reminders TO rpm_app;
