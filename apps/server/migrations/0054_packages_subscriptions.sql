-- Service packages, add-on services and subscriptions (spec §1 packages and add-on services, §3
-- Package, Add-on service, Subscription, §4 package and subscription states, §5 packages rules,
-- §6 paid features need the Basic package, §9 prices).
--
-- A package is a tenant's offer: its "Package ID" (code, unique, letters, digits, - and _ only),
-- a unique name, a price in integer minor units of its currency (VND has none, USD and CAD two:
-- money is never a float), a duration in months (-1: unlimited), limits (-1: unlimited) and the
-- features it gives the patient ("user") and the patient's followers and sub-users ("relative").
-- An add-on service is the same kind of row with use times (use_limit) that adds to a package.
-- Exactly one enabled, free package per tenant is the default (Zero): a patient without an active
-- subscription is on it, and cancelling returns there. Packages are disabled, never deleted
-- (subscriptions and orders keep pointing at them), and can be enabled again.
CREATE TABLE service_packages (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{1,32}$'),
  kind text NOT NULL CHECK (kind IN ('PACKAGE', 'ADDON')),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 120),
  level text CHECK (level IN ('STANDARD', 'SILVER', 'GOLD')),
  plan text CHECK (plan IN ('ZERO', '12MCARE', '24MCARE')),
  price_minor bigint NOT NULL CHECK (price_minor >= 0),
  currency text NOT NULL CHECK (currency IN ('VND', 'USD', 'CAD')),
  duration_months integer NOT NULL CHECK (duration_months = -1 OR duration_months BETWEEN 1 AND 120),
  use_limit integer NOT NULL DEFAULT -1 CHECK (use_limit >= -1),
  storage_count integer NOT NULL DEFAULT -1 CHECK (storage_count >= -1),
  follower_limit integer NOT NULL DEFAULT -1 CHECK (follower_limit >= -1),
  sub_user_limit integer NOT NULL DEFAULT -1 CHECK (sub_user_limit >= -1),
  user_features text[] NOT NULL DEFAULT '{}',
  relative_features text[] NOT NULL DEFAULT '{}',
  icon text NOT NULL DEFAULT '' CHECK (length(icon) <= 64),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
  is_default boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  -- The default package is a free, enabled package (what cancelling returns to).
  CHECK (NOT is_default OR (kind = 'PACKAGE' AND price_minor = 0 AND enabled)),
  -- Levels and plans describe packages, not add-ons.
  CHECK (kind = 'PACKAGE' OR (level IS NULL AND plan IS NULL))
);
CREATE UNIQUE INDEX service_packages_code_key ON service_packages (tenant_id, lower(code));
CREATE UNIQUE INDEX service_packages_name_key ON service_packages (tenant_id, lower(btrim(name)));
CREATE UNIQUE INDEX service_packages_one_default ON service_packages (tenant_id) WHERE is_default;

ALTER TABLE service_packages ENABLE ROW LEVEL SECURITY;
ALTER TABLE service_packages FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON service_packages USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- Every account of the tenant reads the offer (patients choose from it); patients never write it.
CREATE POLICY staff_write_insert ON service_packages AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_update ON service_packages AS RESTRICTIVE FOR UPDATE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
GRANT SELECT, INSERT, UPDATE ON service_packages TO rpm_app;

-- A patient's subscriptions: at most one current package subscription (ACTIVE or
-- ABOUT_TO_EXPIRE) and any number of add-ons. ends_at NULL: unlimited. remaining_turns NULL:
-- unlimited. A change of package ends the current one (REPLACED) and starts the new one; a cancel
-- ends it (CANCELED) and the patient is back on the default package; the lifecycle job moves
-- ACTIVE → ABOUT_TO_EXPIRE (7 days before, notified) → EXPIRED. receipt_id names what paid for it
-- (an order's code, an activation code's series, or nothing for the free default).
CREATE TABLE subscriptions (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  package_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('PACKAGE', 'ADDON')),
  status text NOT NULL CHECK (status IN ('ACTIVE', 'ABOUT_TO_EXPIRE', 'EXPIRED', 'CANCELED', 'REPLACED')),
  source text NOT NULL CHECK (source IN ('ORDER', 'CODE', 'STAFF')),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  next_extend_at timestamptz,
  remaining_turns integer CHECK (remaining_turns >= 0),
  receipt_id text CHECK (length(receipt_id) <= 64),
  ended_at timestamptz,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, package_id) REFERENCES service_packages (tenant_id, id),
  CHECK (ends_at IS NULL OR ends_at > starts_at),
  CHECK ((status IN ('ACTIVE', 'ABOUT_TO_EXPIRE')) = (ended_at IS NULL))
);
CREATE UNIQUE INDEX subscriptions_one_current_package ON subscriptions (tenant_id, patient_id)
  WHERE kind = 'PACKAGE' AND status IN ('ACTIVE', 'ABOUT_TO_EXPIRE');
CREATE INDEX subscriptions_by_patient ON subscriptions (tenant_id, patient_id, created_at DESC);
CREATE INDEX subscriptions_by_package ON subscriptions (tenant_id, package_id) WHERE status IN ('ACTIVE', 'ABOUT_TO_EXPIRE');

ALTER TABLE subscriptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE subscriptions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON subscriptions USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON subscriptions AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = subscriptions.tenant_id AND visible.id = subscriptions.patient_id));
-- What a patient pays for is its own business: followers see none of it.
CREATE POLICY not_followers ON subscriptions AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed));
CREATE POLICY nobody_deletes ON subscriptions AS RESTRICTIVE FOR DELETE USING (false);
GRANT SELECT, INSERT, UPDATE, DELETE ON subscriptions TO rpm_app;
