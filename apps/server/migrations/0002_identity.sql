-- Identity and access: user profiles and account states, custom roles, refresh-token families,
-- one-time codes, the message outbox, the audit log and login throttling.

-- Profiles and account states --------------------------------------------------------------

ALTER TABLE users
  ADD COLUMN middle_name text NOT NULL DEFAULT '',
  ADD COLUMN nick_name text NOT NULL DEFAULT '',
  ADD COLUMN gender text CHECK (gender IN ('MALE', 'FEMALE', 'OTHER')),
  ADD COLUMN birthday date,
  ADD COLUMN blood_type text CHECK (blood_type IN ('A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-')),
  ADD COLUMN skin_color text NOT NULL DEFAULT '',
  ADD COLUMN height_cm numeric(5, 1) CHECK (height_cm > 0 AND height_cm < 300),
  ADD COLUMN weight_kg numeric(5, 1) CHECK (weight_kg > 0 AND weight_kg < 700),
  ADD COLUMN country text NOT NULL DEFAULT '',
  ADD COLUMN province text NOT NULL DEFAULT '',
  ADD COLUMN district text NOT NULL DEFAULT '',
  ADD COLUMN ward text NOT NULL DEFAULT '',
  ADD COLUMN address_line text NOT NULL DEFAULT '',
  ADD COLUMN medical_notes text NOT NULL DEFAULT '',
  ADD COLUMN avatar_file text,
  ADD COLUMN time_zone text NOT NULL DEFAULT 'Asia/Ho_Chi_Minh',
  ADD COLUMN custom_role_id uuid,
  ADD COLUMN failed_logins smallint NOT NULL DEFAULT 0,
  ADD COLUMN locked_until timestamptz,
  ADD COLUMN disabled_until timestamptz,
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN password_changed_at timestamptz,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- Custom roles: a tenant's own permission sets. Default roles are data in @rpm/contracts;
-- a custom role names the default role whose console area and meaning it keeps (base_role).
CREATE TABLE roles (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  description text NOT NULL DEFAULT '',
  base_role text NOT NULL,
  permissions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX roles_name_key ON roles (tenant_id, lower(name));
ALTER TABLE users ADD FOREIGN KEY (tenant_id, custom_role_id) REFERENCES roles (tenant_id, id);

-- Sessions: each row is one access token with its refresh token. A refresh rotates the pair
-- into a new row of the same family; presenting a refresh token twice ends the whole family.
ALTER TABLE sessions
  ADD COLUMN family_id uuid,
  ADD COLUMN refresh_hash bytea,
  ADD COLUMN refresh_expires_at timestamptz,
  ADD COLUMN remember_me boolean NOT NULL DEFAULT false;
UPDATE sessions SET family_id = id WHERE family_id IS NULL;
ALTER TABLE sessions ALTER COLUMN family_id SET NOT NULL;
ALTER TABLE sessions DROP CONSTRAINT sessions_revoked_reason_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_revoked_reason_check CHECK (revoked_reason IN
  ('logout', 'replaced', 'permission_changed', 'disabled', 'locked', 'deleted', 'expired', 'rotated', 'refresh_reused', 'password_changed'));
CREATE UNIQUE INDEX sessions_refresh_hash_key ON sessions (refresh_hash) WHERE refresh_hash IS NOT NULL;
CREATE INDEX sessions_family ON sessions (family_id);

-- One-time codes (login, password reset, registration). Only a hash of the code is kept.
CREATE TABLE otp_challenges (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('LOGIN', 'RESET_PASSWORD', 'REGISTER')),
  channel text NOT NULL CHECK (channel IN ('SMS', 'EMAIL')),
  destination text NOT NULL,
  user_id uuid,
  code_hash bytea NOT NULL,
  attempts smallint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE INDEX otp_challenges_latest ON otp_challenges (tenant_id, purpose, channel, destination, created_at DESC);

-- Outbox: every message the product sends (email, SMS), written in the transaction that decides
-- to send it, delivered after commit with attempts and receipts.
CREATE TABLE outbox_messages (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  channel text NOT NULL CHECK (channel IN ('EMAIL', 'SMS')),
  recipient text NOT NULL,
  subject text NOT NULL DEFAULT '',
  body text NOT NULL,
  purpose text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
  attempts smallint NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  provider text,
  provider_message_id text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX outbox_messages_due ON outbox_messages (next_attempt_at) WHERE status = 'PENDING';

-- Audit log: append-only; the app role may insert and read, never change or delete.
CREATE TABLE audit_log (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  action text NOT NULL,
  actor_user_id uuid,
  actor_tenant_id uuid,
  subject_user_id uuid,
  target_type text,
  target_id text,
  ip text,
  user_agent text,
  request_id text,
  details jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX audit_log_by_subject ON audit_log (tenant_id, subject_user_id, occurred_at DESC);
CREATE INDEX audit_log_by_time ON audit_log (tenant_id, occurred_at DESC);

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['roles', 'otp_challenges', 'outbox_messages', 'audit_log'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON roles, otp_challenges, outbox_messages TO rpm_app;
GRANT SELECT, INSERT ON audit_log TO rpm_app;

-- The outbox dispatcher must find due work in every tenant without reading any message: this
-- function (run with the owner's rights) returns tenant ids only.
CREATE FUNCTION outbox_tenants_with_due_messages() RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT DISTINCT tenant_id FROM outbox_messages WHERE status = 'PENDING' AND next_attempt_at <= now() $$;
REVOKE ALL ON FUNCTION outbox_tenants_with_due_messages() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION outbox_tenants_with_due_messages() TO rpm_app;

-- Per-address login throttling, shared by every server process (control plane: no tenant yet).
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  failures integer NOT NULL DEFAULT 0
);
GRANT SELECT, INSERT, UPDATE, DELETE ON login_throttle TO rpm_app;
