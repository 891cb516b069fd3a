-- Where each DEDICATED tenant connection really leads: '<system identifier>:<database oid>' as
-- read inside the session when the connection was tested and saved (NULL when the server did
-- not let the role read its system identifier). Whatever host name reached it, a database that
-- already serves one tenant is refused to every other.
ALTER TABLE tenant_connections ADD COLUMN target_identity text;
CREATE INDEX tenant_connections_by_target ON tenant_connections (target_identity) WHERE target_identity IS NOT NULL;
