-- Quotas on the emails and SMS that public calls cause (architecture "One-time codes and the
-- message outbox"; SEND_QUOTAS in contracts limits.ts). One row per counter and fixed hour window:
-- kind ADDRESS (the caller's address), DESTINATION (the normalised email or phone) or TENANT. The
-- key is an HMAC keyed from SECRETS_KEY, so the table holds no address, email or phone.
--
-- Control plane: a call is counted before anything of the tenant is touched, every process counts
-- in the platform database (DEDICATED tenants included), and the rows carry no tenant data.
CREATE TABLE send_quota_counters (
  kind text NOT NULL CHECK (kind IN ('ADDRESS', 'DESTINATION', 'TENANT')),
  key_hash bytea NOT NULL,
  window_start timestamptz NOT NULL,
  sends integer NOT NULL CHECK (sends > 0),
  PRIMARY KEY (kind, key_hash, window_start)
);
-- Ended windows are deleted as new ones open.
CREATE INDEX send_quota_counters_window ON send_quota_counters (window_start);
GRANT SELECT, INSERT, UPDATE, DELETE ON send_quota_counters TO rpm_app;
