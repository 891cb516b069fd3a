-- Activation-code packages (spec §1, §2 code package management and code list with export, §3 Code
-- package, §4 code states, §5 all fields required, §8 "scratch card code or security code
-- incorrect"). A code package is a batch of scratch cards a tenant sells to an organisation: each
-- card has a visible series number and a secret code that upgrades the patient who enters it to
-- the batch's package. The secret is drawn at random from an alphabet without look-alikes and
-- stored only as an HMAC under the server's secrets key: it is shown once, in the file written
-- when the batch is generated, and never again.
CREATE TABLE code_packages (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 120),
  -- PACKAGE: the code starts a package subscription; ADDON: an add-on service.
  type text NOT NULL CHECK (type IN ('PACKAGE', 'ADDON')),
  -- The series prefix printed on every card of the batch (letters and digits).
  prefix text NOT NULL CHECK (prefix ~ '^[A-Z0-9]{2,8}$'),
  total_codes integer NOT NULL CHECK (total_codes BETWEEN 1 AND 100000),
  available_from date NOT NULL,
  expires_on date NOT NULL,
  purpose text NOT NULL CHECK (length(btrim(purpose)) BETWEEN 1 AND 500),
  benefit text NOT NULL CHECK (length(btrim(benefit)) BETWEEN 1 AND 500),
  package_id uuid NOT NULL,
  recipient_organization text NOT NULL CHECK (length(btrim(recipient_organization)) BETWEEN 1 AND 200),
  created_by uuid,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, package_id) REFERENCES service_packages (tenant_id, id),
  CHECK (expires_on > available_from)
);
CREATE UNIQUE INDEX code_packages_prefix_key ON code_packages (tenant_id, prefix);

CREATE TABLE activation_codes (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  code_package_id uuid NOT NULL,
  -- Prefix and number: what is printed on the card and typed with the code.
  series text NOT NULL CHECK (series ~ '^[A-Z0-9]{2,8}[0-9]{6}$'),
  -- HMAC-SHA256 (hex) of the normalised secret code, keyed by the server's secrets key and the tenant.
  code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  state text NOT NULL DEFAULT 'NOT_PAID' CHECK (state IN ('NOT_PAID', 'PAID', 'USED', 'LOCKED')),
  -- The state a locked code returns to when unlocked.
  locked_from text CHECK (locked_from IN ('NOT_PAID', 'PAID')),
  purchased_at timestamptz,
  activated_at timestamptz,
  -- The patient record the code was used for, and the account that entered it.
  activated_for uuid,
  activated_by uuid,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, code_package_id) REFERENCES code_packages (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, activated_for) REFERENCES patients (tenant_id, id) ON DELETE SET NULL (activated_for),
  CHECK ((state = 'USED') = (activated_at IS NOT NULL)),
  CHECK ((state = 'LOCKED') = (locked_from IS NOT NULL))
);
CREATE UNIQUE INDEX activation_codes_series_key ON activation_codes (tenant_id, series);
CREATE INDEX activation_codes_by_package ON activation_codes (tenant_id, code_package_id, series);

-- Every attempt to enter a code, to limit guessing per account (wrong ones count).
CREATE TABLE activation_attempts (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  series text NOT NULL CHECK (length(series) <= 32),
  succeeded boolean NOT NULL,
  attempted_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX activation_attempts_by_user ON activation_attempts (tenant_id, user_id, attempted_at DESC);

DO $$
DECLARE
  code_table text;
BEGIN
  FOREACH code_table IN ARRAY ARRAY['code_packages', 'activation_codes', 'activation_attempts'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', code_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', code_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())', code_table);
  END LOOP;
END $$;
-- Code packages are staff business: a patient session reads none of them. The redeeming call runs
-- as the tenant (not as the patient) after checking the patient's own record.
CREATE POLICY staff_only ON code_packages AS RESTRICTIVE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_only ON activation_codes AS RESTRICTIVE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_only ON activation_attempts AS RESTRICTIVE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
GRANT SELECT, INSERT, UPDATE ON code_packages, activation_codes TO rpm_app;
GRANT SELECT, INSERT ON activation_attempts TO rpm_app;
