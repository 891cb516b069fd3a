-- Organisation: tenant identity, connections and email templates, trial requests, scope and
-- health-center admins, doctor assistants, extra access levels, and health-center visibility.

-- Control plane ------------------------------------------------------------------------------

ALTER TABLE tenants
  ADD COLUMN public_url text NOT NULL DEFAULT '',
  ADD COLUMN logo_square_file text,
  ADD COLUMN logo_horizontal_file text,
  ADD COLUMN registration_qr_file text;

-- A DEDICATED tenant's three connections (spec §3: exactly three). Passwords are encrypted with
-- AES-256-GCM under SECRETS_KEY; only the server can read them.
CREATE TABLE tenant_connections (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('primary', 'replica', 'vitals')),
  host text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  database_name text NOT NULL,
  username text NOT NULL,
  password_ciphertext text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, kind)
);

CREATE TABLE tenant_email_templates (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  key text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'vi')),
  subject text NOT NULL,
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key, language)
);

-- Trial requests from the public branding page (spec §4: NEW -> APPROVED | REJECTED).
CREATE TABLE tenant_requests (
  id uuid PRIMARY KEY,
  type text NOT NULL DEFAULT 'TRIAL' CHECK (type IN ('TRIAL')),
  status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'APPROVED', 'REJECTED')),
  organization_name text NOT NULL,
  official_name text NOT NULL DEFAULT '',
  requested_code text NOT NULL,
  requester_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL DEFAULT '',
  primary_color text NOT NULL DEFAULT '',
  message text NOT NULL DEFAULT '',
  logo_square_file text NOT NULL,
  logo_horizontal_file text NOT NULL,
  language text NOT NULL DEFAULT 'en',
  rejection_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by uuid,
  created_tenant_id uuid REFERENCES tenants (id),
  CONSTRAINT tenant_requests_reason CHECK (status <> 'REJECTED' OR btrim(coalesce(rejection_reason, '')) <> '')
);
CREATE INDEX tenant_requests_by_status ON tenant_requests (status, created_at DESC);

-- Which tenants a system admin serves (spec §6: "System admin is assigned to tenants").
CREATE TABLE platform_staff_tenants (
  user_id uuid NOT NULL,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, tenant_id)
);

-- The level a session acts at (spec: level-access switcher): an extra level of the user, and a
-- narrowing to one scope or health center.
ALTER TABLE sessions
  ADD COLUMN level_id uuid,
  ADD COLUMN filter_scope_id uuid,
  ADD COLUMN filter_center_id uuid;

GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_connections, tenant_email_templates, tenant_requests, platform_staff_tenants TO rpm_app;

-- Data plane ---------------------------------------------------------------------------------

ALTER TABLE health_centers ADD COLUMN logo_file text;
ALTER TABLE scopes ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE health_centers ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- Health-center admins: at least one, at most one MAIN (spec §3, §5).
CREATE TABLE center_admins (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  center_id uuid NOT NULL,
  user_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('MAIN', 'SUPPORT')),
  PRIMARY KEY (tenant_id, center_id, user_id),
  FOREIGN KEY (tenant_id, center_id) REFERENCES health_centers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE UNIQUE INDEX center_admins_one_main ON center_admins (tenant_id, center_id) WHERE kind = 'MAIN';

CREATE TABLE scope_admins (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  scope_id uuid NOT NULL,
  user_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('ADMIN', 'SUPPORT')),
  PRIMARY KEY (tenant_id, scope_id, user_id),
  FOREIGN KEY (tenant_id, scope_id) REFERENCES scopes (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);

-- A doctor assistant supports one or more doctors (at least one: spec §5).
CREATE TABLE doctor_assistants (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  assistant_id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, assistant_id, doctor_id),
  FOREIGN KEY (tenant_id, assistant_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id)
);

-- Extra access levels of a user beyond their main one (users.role / scope_id / health_center_id).
CREATE TABLE user_levels (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  role text NOT NULL,
  custom_role_id uuid,
  scope_id uuid,
  health_center_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, custom_role_id) REFERENCES roles (tenant_id, id),
  FOREIGN KEY (tenant_id, scope_id) REFERENCES scopes (tenant_id, id),
  FOREIGN KEY (tenant_id, health_center_id) REFERENCES health_centers (tenant_id, id)
);

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['center_admins', 'scope_admins', 'doctor_assistants', 'user_levels'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO rpm_app', data_plane_table);
  END LOOP;
END $$;

-- Health-center visibility (spec §6: staff of a health center cannot view patients outside it).
-- A request made for a caller sets app.center_ids to the centers they may see, comma separated,
-- or '*' for all; "none" is an empty list that matches nothing. Work done without a caller (login,
-- jobs) leaves it unset, which means the whole tenant. The policies are RESTRICTIVE: they narrow
-- tenant_isolation, never widen it.
CREATE FUNCTION app_center_visible(center uuid) RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
    SELECT CASE coalesce(current_setting('app.center_ids', true), '')
      WHEN '' THEN true
      WHEN '*' THEN true
      WHEN 'none' THEN false
      ELSE center IS NOT NULL AND center = ANY (string_to_array(current_setting('app.center_ids', true), ',')::uuid[])
    END
  $$;
GRANT EXECUTE ON FUNCTION app_center_visible(uuid) TO rpm_app;

CREATE POLICY center_visibility ON patients AS RESTRICTIVE USING (app_center_visible(health_center_id));
CREATE POLICY center_visibility ON health_centers AS RESTRICTIVE USING (app_center_visible(id));
CREATE POLICY center_visibility ON center_admins AS RESTRICTIVE USING (app_center_visible(center_id));
-- Staff: a center's staff see the staff of their centers; tenant-level staff (no center) are seen
-- only by callers who see the whole tenant. Platform staff are not rows of customer tenants.
CREATE POLICY center_visibility ON users AS RESTRICTIVE USING (app_center_visible(health_center_id));
