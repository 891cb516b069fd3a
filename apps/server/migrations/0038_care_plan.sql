-- The care plan (spec §1 prescriptions and medication reminders; §3 Prescription, Medicine,
-- Reminder; §4 prescription and medication intake states; §5 medicines and reminders; §6 doctors
-- write prescriptions, patients cannot change their medical profile).
--
-- A prescription is never edited in place: an edit deactivates it and creates its successor, which
-- names it in replaces_id (one successor at most), so the history stays and is linked. Deactivation
-- is permanent (deactivated_at is set once and never cleared: see the trigger). "In use" and
-- "expired" are not stored: they follow from end_date and the patient's day (contracts
-- prescriptionState).
CREATE TABLE prescriptions (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  rx_number text CHECK (length(rx_number) <= 60),
  diagnosis text CHECK (length(diagnosis) <= 2000),
  doctor_in_charge_id uuid NOT NULL,
  note_for_patient text CHECK (length(note_for_patient) <= 2000),
  start_date date NOT NULL,
  end_date date NOT NULL,
  refills smallint NOT NULL DEFAULT 0 CHECK (refills BETWEEN 0 AND 99),
  replaces_id uuid,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  deactivated_at timestamptz,
  deactivated_by uuid,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, replaces_id) REFERENCES prescriptions (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, doctor_in_charge_id) REFERENCES users (tenant_id, id),
  -- Spec §5: the start must not be after the end.
  CHECK (start_date <= end_date),
  CHECK ((deactivated_at IS NULL) = (deactivated_by IS NULL)),
  CHECK (replaces_id IS DISTINCT FROM id)
);
CREATE UNIQUE INDEX prescriptions_one_successor ON prescriptions (tenant_id, replaces_id) WHERE replaces_id IS NOT NULL;
CREATE INDEX prescriptions_by_patient ON prescriptions (tenant_id, patient_id, start_date DESC);

-- Deactivation is permanent (spec §4): once set, deactivated_at and deactivated_by never change,
-- and nothing else of a prescription changes either (an edit is a successor).
CREATE FUNCTION prescriptions_deactivation_is_final() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF OLD.deactivated_at IS NOT NULL THEN
    RAISE EXCEPTION 'prescription % is deactivated for good', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF (NEW.tenant_id, NEW.id, NEW.patient_id, NEW.name, NEW.rx_number, NEW.diagnosis, NEW.doctor_in_charge_id, NEW.note_for_patient,
      NEW.start_date, NEW.end_date, NEW.refills, NEW.replaces_id, NEW.created_by, NEW.created_at)
     IS DISTINCT FROM
     (OLD.tenant_id, OLD.id, OLD.patient_id, OLD.name, OLD.rx_number, OLD.diagnosis, OLD.doctor_in_charge_id, OLD.note_for_patient,
      OLD.start_date, OLD.end_date, OLD.refills, OLD.replaces_id, OLD.created_by, OLD.created_at) THEN
    RAISE EXCEPTION 'a prescription is not edited in place: deactivate it and create its successor' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER prescriptions_deactivation_is_final BEFORE UPDATE ON prescriptions
  FOR EACH ROW EXECUTE FUNCTION prescriptions_deactivation_is_final();

-- A prescription's medicines (spec §3 Medicine), with the reminder schedule of a medicine taken on
-- schedule (contracts reminderScheduleSchema, checked by contracts scheduleProblems before it is
-- stored). patient_id repeats the prescription's, so the patient access rule reads it directly.
CREATE TABLE prescription_medicines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  prescription_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  position smallint NOT NULL CHECK (position >= 0),
  catalogue_id text CHECK (length(catalogue_id) <= 40),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- Spec §5: above 0 (docs/decisions.md), at most 300, decimals only in the listed steps.
  dose numeric(6, 3) NOT NULL CHECK (dose > 0 AND dose <= 300 AND dose - trunc(dose) IN (0, 0.125, 0.25, 0.33, 0.5, 0.66, 0.75)),
  dose_unit text NOT NULL CHECK (dose_unit IN ('PILL', 'DROP', 'TEASPOON', 'TABLESPOON')),
  strength text CHECK (length(strength) <= 60),
  quantity integer CHECK (quantity BETWEEN 1 AND 10000),
  side_effects text CHECK (length(side_effects) <= 1000),
  instructions text CHECK (length(instructions) <= 1000),
  note text CHECK (length(note) <= 1000),
  route text NOT NULL CHECK (route IN ('ORAL', 'RECTAL', 'INTRAVENOUS', 'INTRAMUSCULAR', 'SUBCUTANEOUS', 'SUBLINGUAL', 'PULMONARY', 'TRANSDERMAL', 'TOPICAL')),
  form text NOT NULL CHECK (form IN ('TABLET', 'CAPSULE', 'INJECTABLE', 'SOLUTION', 'CREAM', 'DROPS', 'SPRAY')),
  frequency_cycle text NOT NULL CHECK (frequency_cycle IN ('DAY', 'WEEK', 'MONTH')),
  times_of_day text[] NOT NULL DEFAULT '{}' CHECK (times_of_day <@ ARRAY['MORNING', 'AFTERNOON', 'EVENING', 'NIGHT']),
  meal text NOT NULL CHECK (meal IN ('WITH_MEAL', 'BEFORE_MEAL', 'AFTER_MEAL', 'ANYTIME')),
  image_id uuid,
  color text CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
  mode text NOT NULL CHECK (mode IN ('ON_SCHEDULE', 'ON_DEMAND')),
  schedule jsonb,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, prescription_id, position),
  FOREIGN KEY (tenant_id, prescription_id) REFERENCES prescriptions (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  -- Spec §5: no reminders for an on-demand medicine; a medicine on schedule has its schedule.
  CHECK ((mode = 'ON_DEMAND') = (schedule IS NULL)),
  CHECK (schedule IS NULL OR jsonb_array_length(schedule -> 'times') >= 1)
);
CREATE INDEX prescription_medicines_by_patient ON prescription_medicines (tenant_id, patient_id);

-- One dose of a medicine due at a time (spec §4 medication intake), made ahead by the expansion
-- job (unique per medicine and time, so a job run twice makes each dose once) and answered by the
-- patient: taken (on time, early or late), skipped; left unanswered it becomes unconfirmed.
CREATE TABLE medication_intakes (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  medicine_id uuid NOT NULL,
  due_at timestamptz NOT NULL,
  local_date date NOT NULL,
  local_time text NOT NULL CHECK (local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 60),
  state text NOT NULL DEFAULT 'TO_TAKE' CHECK (state IN ('TO_TAKE', 'TAKEN', 'TAKEN_LATE', 'TAKEN_EARLY', 'SKIPPED', 'UNCONFIRMED')),
  answered_at timestamptz,
  answered_by uuid,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, medicine_id, due_at),
  FOREIGN KEY (tenant_id, medicine_id) REFERENCES prescription_medicines (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  CHECK ((state IN ('TAKEN', 'TAKEN_LATE', 'TAKEN_EARLY', 'SKIPPED')) = (answered_at IS NOT NULL))
);
CREATE INDEX medication_intakes_by_patient_day ON medication_intakes (tenant_id, patient_id, local_date);

-- Row level security: the tenant, the patient access rule (staff by center, a patient its own
-- records and its sub-users'), nothing for followers (a prescription is the patient's treatment,
-- not health data it shares: docs/decisions.md), and spec §6 "patients cannot change their
-- medical profile": a patient session reads its prescriptions and medicines and answers its doses,
-- it never writes a prescription or a medicine, nor makes or removes a dose.
DO $$
DECLARE
  care_table text;
  not_followed constant text := '(SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))'
                                 ' OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed)';
  not_patient constant text := 'current_setting(''app.subject'', true) IS DISTINCT FROM ''patient''';
BEGIN
  FOREACH care_table IN ARRAY ARRAY['prescriptions', 'prescription_medicines', 'medication_intakes'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', care_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', care_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())', care_table);
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      care_table, care_table, care_table);
    EXECUTE format('CREATE POLICY not_followers ON %I AS RESTRICTIVE USING (%s)', care_table, not_followed);
    EXECUTE format('CREATE POLICY staff_write_insert ON %I AS RESTRICTIVE FOR INSERT WITH CHECK (%s)', care_table, not_patient);
    EXECUTE format('CREATE POLICY staff_write_delete ON %I AS RESTRICTIVE FOR DELETE USING (%s)', care_table, not_patient);
    IF care_table <> 'medication_intakes' THEN
      EXECUTE format('CREATE POLICY staff_write_update ON %I AS RESTRICTIVE FOR UPDATE USING (%s)', care_table, not_patient);
    END IF;
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO rpm_app', care_table);
  END LOOP;
END $$;
