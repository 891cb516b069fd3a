-- Lockout without an account oracle (architecture "Access control"). Wrong passwords for a login
-- name that names no account are counted here, per tenant and name, exactly as users.failed_logins
-- and users.locked_until count them for real accounts: the fifth failure "locks" the name for 24
-- hours, so an unknown name answers auth.accountLocked at the same attempt as a known one. Only an
-- HMAC of the normalised name (trimmed, lower case) keyed from SECRETS_KEY is stored: people type
-- passwords into the login field, and the table must not keep them.
CREATE TABLE login_failures_unknown (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  identifier_hash bytea NOT NULL,
  failed_logins integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, identifier_hash)
);
-- Rows whose lock has run out are deleted as new failures come in (they count like no row).
CREATE INDEX login_failures_unknown_lapsed ON login_failures_unknown (tenant_id, locked_until) WHERE locked_until IS NOT NULL;

ALTER TABLE login_failures_unknown ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_failures_unknown FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON login_failures_unknown
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
GRANT SELECT, INSERT, UPDATE, DELETE ON login_failures_unknown TO rpm_app;

-- One-time codes that lift a lockout (POST /auth/unlock/otp/send, POST /auth/unlock).
ALTER TABLE otp_challenges DROP CONSTRAINT otp_challenges_purpose_check;
ALTER TABLE otp_challenges ADD CONSTRAINT otp_challenges_purpose_check
  CHECK (purpose IN ('LOGIN', 'RESET_PASSWORD', 'REGISTER', 'UNLOCK'));
