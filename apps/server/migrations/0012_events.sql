-- Real-time events outbox (spec §1 SOS functions; architecture "Real time"). A change that others
-- must see live (a patient's status, an SOS case, a ticket, an alert) writes one row here in the
-- same transaction as the change itself; the row's id orders the tenant's events, and a client
-- that reconnects asks for everything after the last id it saw, so nothing is lost.
--
-- Every insert wakes the server processes listening on channel rpm_events (payload
-- "<tenant id>:<event id>"); PostgreSQL delivers the notification only when the transaction
-- commits, so no one hears of an event that was rolled back.

CREATE TABLE events (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id bigint GENERATED ALWAYS AS IDENTITY,
  type text NOT NULL CHECK (type ~ '^[a-z]+(\.[a-zA-Z]+)+$'),
  -- The patient and center the event is about; a center's staff only see their centers' events.
  patient_id uuid,
  health_center_id uuid,
  payload jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX events_by_time ON events (tenant_id, created_at);

ALTER TABLE events ENABLE ROW LEVEL SECURITY;
ALTER TABLE events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON events USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- Events without a center (tenant-wide) are seen by everyone in the tenant.
CREATE POLICY center_visibility ON events AS RESTRICTIVE
  USING (health_center_id IS NULL OR app_center_visible(health_center_id));
-- Append-only for the application: events are facts.
GRANT SELECT, INSERT ON events TO rpm_app;

CREATE FUNCTION events_notify() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM pg_notify('rpm_events', NEW.tenant_id::text || ':' || NEW.id::text);
  RETURN NULL;
END $$;
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_notify();
