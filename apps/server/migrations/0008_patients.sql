-- Patients: the profile fields of spec §3 (Patient, User profile), the contract id that cannot
-- change once set (§4), account deletion with a purge after 30 days (§4, §9), the per-tenant
-- patient-code sequence (BNCS10001…), the status-change history, attached files and the
-- patient-doctor links the care team and the dashboard counts use.

-- Patient fields -----------------------------------------------------------------------------

ALTER TABLE patients
  ADD COLUMN middle_name text NOT NULL DEFAULT '',
  ADD COLUMN height_cm double precision CHECK (height_cm > 0 AND height_cm < 300),
  ADD COLUMN weight_kg double precision CHECK (weight_kg > 1 AND weight_kg < 700),
  ADD COLUMN blood_type text CHECK (blood_type IN ('A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-')),
  ADD COLUMN address_line text NOT NULL DEFAULT '',
  ADD COLUMN address_ward text NOT NULL DEFAULT '',
  ADD COLUMN address_district text NOT NULL DEFAULT '',
  ADD COLUMN address_province text NOT NULL DEFAULT '',
  ADD COLUMN address_country text NOT NULL DEFAULT '',
  ADD COLUMN avatar_file text,
  ADD COLUMN medical_notes text NOT NULL DEFAULT '',
  ADD COLUMN contract_id text,
  -- Packages arrive later: until then a package is a code (the list's package filter) and an expiry.
  ADD COLUMN package_code text,
  ADD COLUMN package_expires_at date,
  -- DISABLED from the moment deletion is asked for; the purge job removes the row after purge_after.
  ADD COLUMN account_state text NOT NULL DEFAULT 'ACTIVE' CHECK (account_state IN ('ACTIVE', 'DISABLED')),
  ADD COLUMN deletion_requested_at timestamptz,
  ADD COLUMN purge_after timestamptz,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
  ADD CONSTRAINT patients_deletion_dates CHECK (account_state = 'ACTIVE' OR (deletion_requested_at IS NOT NULL AND purge_after IS NOT NULL));

-- Spec §5 duplicates: phone, email, patient id (patients_code_key, 0001) and contract id.
CREATE UNIQUE INDEX patients_phone_key ON patients (tenant_id, phone) WHERE phone IS NOT NULL;
CREATE UNIQUE INDEX patients_email_key ON patients (tenant_id, lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX patients_contract_id_key ON patients (tenant_id, contract_id) WHERE contract_id IS NOT NULL;

-- The list's sorts and prefix searches (pg_trgm is not assumed; a contains-search scans the
-- tenant's rows, which these keep ordered for paging).
CREATE INDEX patients_by_name ON patients (tenant_id, lower(first_name), lower(last_name));
CREATE INDEX patients_by_created ON patients (tenant_id, created_at);
CREATE INDEX patients_by_birthday ON patients (tenant_id, birthday);
CREATE INDEX patients_by_package ON patients (tenant_id, package_code) WHERE package_code IS NOT NULL;
-- The purge job looks only at accounts waiting for removal.
CREATE INDEX patients_purge_due ON patients (tenant_id, purge_after) WHERE account_state = 'DISABLED';

-- Spec §4: "Account contract id cannot be changed once set" — for every writer, not only the API.
CREATE FUNCTION patients_keep_contract_id() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF OLD.contract_id IS NOT NULL AND NEW.contract_id IS DISTINCT FROM OLD.contract_id THEN
    RAISE EXCEPTION 'the contract id of patient % cannot change once set', OLD.id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'patients_contract_id_locked';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER patients_contract_id_locked
  BEFORE UPDATE OF contract_id ON patients
  FOR EACH ROW EXECUTE FUNCTION patients_keep_contract_id();

-- The patient-code sequence -----------------------------------------------------------------
-- One row per tenant, allocated with one UPDATE … RETURNING (a row lock, so concurrent creates and
-- imports never hand out the same number); an import takes a whole range in one statement.

CREATE TABLE patient_code_sequences (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  prefix text NOT NULL DEFAULT 'BNCS' CHECK (prefix ~ '^[A-Z]{1,10}$'),
  next_value bigint NOT NULL DEFAULT 10001 CHECK (next_value > 0),
  PRIMARY KEY (tenant_id)
);

-- Status history ------------------------------------------------------------------------------
-- changed_by is the acting user, who may be platform staff (a row of the platform tenant): no FK.

CREATE TABLE patient_status_changes (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  from_status text NOT NULL CHECK (from_status IN ('NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS')),
  to_status text NOT NULL CHECK (to_status IN ('NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS')),
  reason text NOT NULL CHECK (btrim(reason) <> ''),
  changed_by uuid,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX patient_status_changes_by_patient ON patient_status_changes (tenant_id, patient_id, changed_at DESC);

-- Attached files (jpg, png, pdf up to 10 MB) kept in the file storage under storage_key.

CREATE TABLE patient_files (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  storage_key text NOT NULL,
  uploaded_by uuid,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX patient_files_by_patient ON patient_files (tenant_id, patient_id, uploaded_at DESC);

-- Patient-doctor links (family doctor, specialists): written by the care-team work, read here for
-- the doctor filter and the doctor and assistant dashboard counts.

CREATE TABLE patient_doctors (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  patient_id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  relation text NOT NULL CHECK (relation IN ('FAMILY', 'SPECIALIST')),
  assigned_at timestamptz NOT NULL DEFAULT now(),
  assigned_by uuid,
  PRIMARY KEY (tenant_id, patient_id, doctor_id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id)
);
CREATE UNIQUE INDEX patient_doctors_one_family ON patient_doctors (tenant_id, patient_id) WHERE relation = 'FAMILY';
CREATE INDEX patient_doctors_by_doctor ON patient_doctors (tenant_id, doctor_id);

-- Tenant isolation and health-center visibility ---------------------------------------------

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['patient_code_sequences', 'patient_status_changes', 'patient_files', 'patient_doctors'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO rpm_app', data_plane_table);
  END LOOP;
END $$;

-- A patient's history, files and doctors are seen exactly when the patient is: the subquery reads
-- patients under its own policies, center_visibility included.
DO $$
DECLARE
  dependent_table text;
BEGIN
  FOREACH dependent_table IN ARRAY ARRAY['patient_status_changes', 'patient_files', 'patient_doctors'] LOOP
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      dependent_table, dependent_table, dependent_table);
  END LOOP;
END $$;
