-- Foundation: control plane (tenants, their settings, sessions) and the first data-plane tables
-- (scopes, health centers, users, patients, devices).
--
-- Platform staff (ROOT, SUPER_ADMIN, SYSTEM_ADMIN) are users of the one platform tenant
-- (tenants.is_platform), which always lives in this database; they act inside a tenant they
-- choose at login. So every account feature (profile, lockout, OTP, audit) has one code path.
--
-- Conventions every later migration follows:
--  * A data-plane table has tenant_id uuid NOT NULL leading its keys, row level security ENABLE +
--    FORCE, and the policy tenant_isolation on app_current_tenant(). References between data-plane
--    tables include tenant_id, so a row can never point into another tenant.
--  * Control-plane tables are listed in CONTROL_PLANE_TABLES (src/db/tenancy.ts); a test fails for
--    any other table without RLS.
--  * The application connects as rpm_app, which owns nothing; grants are explicit per table.

CREATE FUNCTION app_current_tenant() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;

-- Control plane ------------------------------------------------------------------------------

CREATE TABLE tenants (
  id uuid PRIMARY KEY,
  code text NOT NULL,
  name text NOT NULL,
  official_name text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
  connection_type text NOT NULL DEFAULT 'SHARED' CHECK (connection_type IN ('SHARED', 'DEDICATED')),
  is_platform boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT tenants_code_format CHECK (code ~ '^[a-z0-9][a-z0-9-]{1,39}$'),
  CONSTRAINT tenants_platform_shared CHECK (NOT is_platform OR connection_type = 'SHARED')
);
CREATE UNIQUE INDEX tenants_one_platform ON tenants (is_platform) WHERE is_platform;
CREATE UNIQUE INDEX tenants_code_key ON tenants (code);
CREATE UNIQUE INDEX tenants_name_key ON tenants (lower(name));

CREATE TABLE tenant_settings (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key)
);

-- A session is looked up by the hash of its token before any tenant is known, so it lives in
-- the control plane. account_tenant_id holds the user's row; tenant_id is the tenant the session
-- acts in (the same, except for platform staff).
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  token_hash bytea NOT NULL,
  user_id uuid NOT NULL,
  account_tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  role text NOT NULL,
  app text NOT NULL DEFAULT 'console' CHECK (app IN ('console', 'patient', 'doctor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text CHECK (revoked_reason IN ('logout', 'replaced', 'permission_changed', 'disabled', 'expired'))
);
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
CREATE INDEX sessions_active_by_user ON sessions (user_id, app) WHERE revoked_at IS NULL;

-- Data plane ---------------------------------------------------------------------------------

CREATE TABLE scopes (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  type text NOT NULL DEFAULT '',
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 5),
  parent_id uuid,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, parent_id) REFERENCES scopes (tenant_id, id)
);
CREATE UNIQUE INDEX scopes_name_per_level_key ON scopes (tenant_id, level, lower(name));

CREATE TABLE health_centers (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  scope_id uuid,
  name text NOT NULL CHECK (btrim(name) <> ''),
  type text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  representative text NOT NULL DEFAULT '',
  phone_prefix text NOT NULL DEFAULT '',
  phone_number text NOT NULL DEFAULT '',
  hotline text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  website text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  lat double precision,
  lng double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, scope_id) REFERENCES scopes (tenant_id, id)
);
CREATE UNIQUE INDEX health_centers_name_key ON health_centers (tenant_id, lower(name));

CREATE TABLE users (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  email text,
  phone text,
  first_name text NOT NULL,
  last_name text NOT NULL,
  role text NOT NULL,
  health_center_id uuid,
  scope_id uuid,
  password_hash text,
  status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DISABLED', 'UNACTIVATED', 'LOCKED', 'DELETED')),
  language text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, health_center_id) REFERENCES health_centers (tenant_id, id),
  FOREIGN KEY (tenant_id, scope_id) REFERENCES scopes (tenant_id, id),
  CONSTRAINT users_email_or_phone CHECK (email IS NOT NULL OR phone IS NOT NULL)
);
CREATE UNIQUE INDEX users_email_key ON users (tenant_id, lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX users_phone_key ON users (tenant_id, phone) WHERE phone IS NOT NULL;

CREATE TABLE patients (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  user_id uuid,
  patient_code text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  birthday date,
  gender text CHECK (gender IN ('MALE', 'FEMALE', 'OTHER')),
  phone text,
  email text,
  status text NOT NULL DEFAULT 'NORMAL' CHECK (status IN ('NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS')),
  health_center_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, health_center_id) REFERENCES health_centers (tenant_id, id)
);
CREATE UNIQUE INDEX patients_code_key ON patients (tenant_id, patient_code);
CREATE INDEX patients_by_center_status ON patients (tenant_id, health_center_id, status);

CREATE TABLE devices (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  model text NOT NULL CHECK (model IN ('V19', 'GT2', 'GT5', 'J2025E', 'J2025B')),
  serial_number text NOT NULL,
  mac_address text,
  imei text,
  patient_id uuid,
  connection_status smallint NOT NULL DEFAULT -1 CHECK (connection_status IN (1, 0, -1, 2)),
  imported_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id),
  CONSTRAINT devices_mac_or_imei CHECK (mac_address IS NOT NULL OR imei IS NOT NULL)
);
CREATE UNIQUE INDEX devices_mac_key ON devices (tenant_id, mac_address) WHERE mac_address IS NOT NULL;
CREATE UNIQUE INDEX devices_imei_key ON devices (tenant_id, imei) WHERE imei IS NOT NULL;

-- Tenant isolation ---------------------------------------------------------------------------

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['scopes', 'health_centers', 'users', 'patients', 'devices'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO rpm_app', data_plane_table);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE ON tenants, tenant_settings TO rpm_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON sessions TO rpm_app;
GRANT EXECUTE ON FUNCTION app_current_tenant() TO rpm_app;

-- The platform tenant exists from the start: it holds the platform staff's accounts.
INSERT INTO tenants (id, code, name, official_name, is_platform)
VALUES (gen_random_uuid(), 'platform', 'Platform', 'Platform operations', true);
