-- Care teams: doctor profiles (specialties, degree, licenses) and the requests that put a doctor
-- on a patient's care team (spec §3 Doctor, §4 requests, §9 limits). The care team itself is
-- patient_doctors (migration 0008).

-- One profile per doctor account. Specialties are codes of the catalogue in @rpm/contracts (at
-- most 5: spec §9); the server checks the codes, the database the count.
CREATE TABLE doctor_profiles (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  doctor_id uuid NOT NULL,
  specialties text[] NOT NULL DEFAULT '{}' CHECK (cardinality(specialties) <= 5),
  degree_code smallint CHECK (degree_code BETWEEN 1 AND 7),
  place_of_education text NOT NULL DEFAULT '',
  years_of_experience smallint CHECK (years_of_experience BETWEEN 0 AND 80),
  examination_cost numeric(12, 2) CHECK (examination_cost >= 0),
  office_address text NOT NULL DEFAULT '',
  office_email text NOT NULL DEFAULT '',
  office_phone text NOT NULL DEFAULT '',
  introduction text NOT NULL DEFAULT '',
  kind text NOT NULL DEFAULT 'SPECIALIST' CHECK (kind IN ('FAMILY_DOCTOR', 'SPECIALIST')),
  rating_average numeric(3, 2) NOT NULL DEFAULT 0 CHECK (rating_average BETWEEN 0 AND 5),
  rating_count integer NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, doctor_id),
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

-- Medical licenses: a doctor whose every license has expired is not assigned to patients and
-- cannot accept requests (spec §8 "Medical license expired").
CREATE TABLE doctor_licenses (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  expires_on date NOT NULL,
  image_file text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX doctor_licenses_by_doctor ON doctor_licenses (tenant_id, doctor_id, expires_on);

-- Requests between a patient and a doctor (spec §4): PATIENT_REQUEST goes from the patient (or
-- staff on their behalf) to a doctor, DOCTOR_REQUEST from a doctor to a patient. WAITING is the
-- only state that changes; APPROVED, REJECTED and CANCELED are final. The recipient is the doctor,
-- or the patient's account (null for a patient without one: staff answer for them).
CREATE TABLE care_requests (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('PATIENT_REQUEST', 'DOCTOR_REQUEST')),
  requester_id uuid NOT NULL,
  recipient_id uuid,
  patient_id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  relation text NOT NULL CHECK (relation IN ('FAMILY', 'SPECIALIST')),
  status text NOT NULL DEFAULT 'WAITING' CHECK (status IN ('WAITING', 'APPROVED', 'REJECTED', 'CANCELED')),
  message text NOT NULL DEFAULT '',
  reject_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by uuid,
  PRIMARY KEY (tenant_id, id),
  -- Patients are purged 30 days after their account is deleted; their requests go with them.
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, requester_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, recipient_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, decided_by) REFERENCES users (tenant_id, id),
  CONSTRAINT care_requests_not_to_self CHECK (recipient_id IS NULL OR recipient_id <> requester_id),
  CONSTRAINT care_requests_reject_reason CHECK (status <> 'REJECTED' OR btrim(coalesce(reject_reason, '')) <> ''),
  CONSTRAINT care_requests_decided CHECK ((status = 'WAITING') = (decided_at IS NULL))
);
-- "A duplicate request to the same person is blocked until the earlier one is canceled": one
-- waiting request per direction between a patient and a doctor, whoever files it.
CREATE UNIQUE INDEX care_requests_one_waiting ON care_requests (tenant_id, kind, patient_id, doctor_id) WHERE status = 'WAITING';
CREATE INDEX care_requests_by_requester ON care_requests (tenant_id, requester_id, created_at DESC);
CREATE INDEX care_requests_by_doctor ON care_requests (tenant_id, doctor_id, created_at DESC);
CREATE INDEX care_requests_by_patient ON care_requests (tenant_id, patient_id, created_at DESC);

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['doctor_profiles', 'doctor_licenses', 'care_requests'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO rpm_app', data_plane_table);
  END LOOP;
END $$;

-- Health-center visibility (spec §6): a doctor's profile and licenses show where the doctor's
-- account does, a request where its patient does. The subqueries run under the users' and
-- patients' own center_visibility policies, so these follow them exactly.
CREATE POLICY center_visibility ON doctor_profiles AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM users doctor WHERE doctor.tenant_id = doctor_profiles.tenant_id AND doctor.id = doctor_profiles.doctor_id));
CREATE POLICY center_visibility ON doctor_licenses AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM users doctor WHERE doctor.tenant_id = doctor_licenses.tenant_id AND doctor.id = doctor_licenses.doctor_id));
CREATE POLICY center_visibility ON care_requests AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients patient WHERE patient.tenant_id = care_requests.tenant_id AND patient.id = care_requests.patient_id));
