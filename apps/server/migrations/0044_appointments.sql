-- Appointments (spec §3 Appointment; §4 states; §5 customer, doctor and slot required, cancel
-- reasons required; §6 operators and doctors create and edit, doctors diagnose): a patient's visit
-- in one slot of a doctor's approved schedule. The transitions are contracts APPOINTMENT_TRANSITIONS.
CREATE TABLE appointments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  schedule_id uuid NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  note text CHECK (length(note) <= 1000),
  place text NOT NULL CHECK (place IN ('CLINIC', 'PATIENT_ADDRESS', 'ONLINE')),
  paid boolean NOT NULL DEFAULT false,
  status text NOT NULL CHECK (status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING', 'COMPLETED', 'CANCELED')),
  diagnosis text CHECK (length(diagnosis) <= 2000),
  advice text CHECK (length(advice) <= 2000),
  cancel_reason text CHECK (length(cancel_reason) <= 500),
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, schedule_id) REFERENCES doctor_schedules (tenant_id, id),
  CHECK (status <> 'COMPLETED' OR (diagnosis IS NOT NULL AND advice IS NOT NULL)),
  CHECK (status <> 'CANCELED' OR cancel_reason IS NOT NULL)
);
-- One open appointment per doctor and slot: two bookings of one slot at once cannot both succeed.
CREATE UNIQUE INDEX appointments_one_per_slot ON appointments (tenant_id, doctor_id, starts_at)
  WHERE status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING');
CREATE INDEX appointments_by_patient ON appointments (tenant_id, patient_id, starts_at);
CREATE INDEX appointments_by_schedule ON appointments (tenant_id, schedule_id, starts_at);
CREATE INDEX appointments_by_start ON appointments (tenant_id, starts_at);

-- Seen exactly when the patient is, never by followers, written only by staff (for now: the
-- patient app's own booking writes through the staff rule's successor when it comes).
ALTER TABLE appointments ENABLE ROW LEVEL SECURITY;
ALTER TABLE appointments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON appointments USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON appointments AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = appointments.tenant_id AND visible.id = appointments.patient_id));
CREATE POLICY not_followers ON appointments AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed));
CREATE POLICY staff_write_insert ON appointments AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_update ON appointments AS RESTRICTIVE FOR UPDATE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_delete ON appointments AS RESTRICTIVE FOR DELETE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
GRANT SELECT, INSERT, UPDATE, DELETE ON appointments TO rpm_app;
