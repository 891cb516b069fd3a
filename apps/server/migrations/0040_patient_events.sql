-- Event reminders (spec §1 event reminders, §2 patient app events "My Events", §3 Event reminder:
-- arrival time, label, icon, note, location, organizer, status; §5 events need an expected time and
-- an icon, no two events at the same time; §8 "event already at that time"; §9 at most 20 events).
-- The patient's own diary: the patient (or the holder of a sub-user) writes them; the care team of
-- the patient's center reads them; followers do not see them (docs/decisions.md).
CREATE TABLE patient_events (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  arrival_at timestamptz NOT NULL,
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 120),
  icon text NOT NULL CHECK (icon IN ('APPOINTMENT', 'MEDICINE', 'TEST', 'VACCINE', 'EXERCISE', 'MEAL', 'OTHER')),
  note text CHECK (length(note) <= 1000),
  location text CHECK (length(location) <= 200),
  organizer text CHECK (length(organizer) <= 120),
  status text NOT NULL DEFAULT 'PLANNED' CHECK (status IN ('PLANNED', 'DONE', 'CANCELED')),
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
-- Spec §5: no two events of a patient at the same time (a canceled one frees its time).
CREATE UNIQUE INDEX patient_events_one_per_time ON patient_events (tenant_id, patient_id, arrival_at) WHERE status <> 'CANCELED';
CREATE INDEX patient_events_by_patient ON patient_events (tenant_id, patient_id, arrival_at);

ALTER TABLE patient_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE patient_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON patient_events USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON patient_events AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = patient_events.tenant_id AND visible.id = patient_events.patient_id));
CREATE POLICY not_followers ON patient_events AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed));
GRANT SELECT, INSERT, UPDATE, DELETE ON patient_events TO rpm_app;
