-- Tenants: how the server reaches a DEDICATED tenant's databases over the network.
--
-- A dedicated tenant's database usually sits on another machine (spec: data residency), so the
-- connection needs TLS: disable (a private network), require (encrypted, certificate not
-- checked) or verify-full (encrypted, certificate and host name checked). The API's default is
-- verify-full; rows from before this migration had no TLS and keep working as 'disable'.
ALTER TABLE tenant_connections
  ADD COLUMN ssl_mode text NOT NULL DEFAULT 'disable' CHECK (ssl_mode IN ('disable', 'require', 'verify-full'));

-- A setting put back to its default is removed (no row = the default), so settings can be deleted.
GRANT DELETE ON tenant_settings TO rpm_app;
