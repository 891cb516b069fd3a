-- Alerting (spec §1 SOS functions; §3 SOS case, Ticket, Alert types, SMS or call, Follower or
-- relative; §4 alerts in the patient app; §6 followers, SOS for main users only; §9 limits):
-- followers, alerts, SOS cases with their action history, tickets with their history, voice calls,
-- the link from outbox messages to the patient they were sent for, and the tenant's alert settings.
--
-- Every table but alert_settings carries patient_id and is seen exactly when the patient is
-- (RESTRICTIVE center_visibility through patients, like migration 0008), so a center's staff see
-- their centers' alerts, cases, tickets and messages only.

-- Tenant alert settings (one row per tenant; absent means the defaults of contracts alerts.ts).
CREATE TABLE alert_settings (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  -- Spec §9: high-risk confirmation window, 15 s by default, adjustable.
  high_risk_confirm_seconds integer NOT NULL DEFAULT 15 CHECK (high_risk_confirm_seconds BETWEEN 5 AND 300),
  sos_kpi_minutes integer NOT NULL DEFAULT 5 CHECK (sos_kpi_minutes BETWEEN 1 AND 1440),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid,
  PRIMARY KEY (tenant_id)
);

-- Followers: emergency and caring contacts (spec §3, §9: 5 of each per patient). --------------------

CREATE TABLE patient_contacts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  contact_type text NOT NULL CHECK (contact_type IN ('EMERGENCY', 'CARING')),
  name text NOT NULL CHECK (btrim(name) <> ''),
  phone text NOT NULL CHECK (phone ~ '^\+?[0-9]{3,16}$'),
  relationship text NOT NULL CHECK (relationship IN ('PARENT', 'CHILD', 'OLDER_SIBLING', 'YOUNGER_SIBLING', 'SON', 'WIFE', 'HUSBAND', 'FRIEND', 'OTHER')),
  invitation_status text NOT NULL DEFAULT 'SENT' CHECK (invitation_status IN ('SENT', 'RESENT', 'CONFIRMED')),
  favourite boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
-- Spec §5: an existing follower cannot be added again.
CREATE UNIQUE INDEX patient_contacts_phone_key ON patient_contacts (tenant_id, patient_id, phone);

-- SOS cases (spec §3, §4: new -> in process -> resolved -> closed) ---------------------------------

CREATE TABLE sos_cases (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'IN_PROCESS', 'RESOLVED', 'CLOSED')),
  -- What raised it: the alert type (HEART_RATE, FALL, CALL …).
  reason text NOT NULL,
  source text NOT NULL CHECK (source IN ('READING', 'FALL', 'SOS_BUTTON', 'HOTLINE_CALL', 'MANUAL', 'NO_DATA')),
  -- Vital signs at SOS time: [{measure, value, measuredAt}] in canonical units.
  vitals jsonb NOT NULL DEFAULT '[]',
  location_lat double precision CHECK (location_lat BETWEEN -90 AND 90),
  location_lng double precision CHECK (location_lng BETWEEN -180 AND 180),
  opened_at timestamptz NOT NULL,
  assigned_to uuid,
  accepted_at timestamptz,
  kpi_due_at timestamptz NOT NULL,
  kpi_failed boolean NOT NULL DEFAULT false,
  resolved_at timestamptz,
  closed_at timestamptz,
  close_reason text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  CHECK (status <> 'CLOSED' OR closed_at IS NOT NULL)
);
-- One open SOS case per patient: a second SOS adds to the open case's history.
CREATE UNIQUE INDEX sos_cases_one_open ON sos_cases (tenant_id, patient_id) WHERE status <> 'CLOSED';
CREATE INDEX sos_cases_by_opened ON sos_cases (tenant_id, opened_at DESC);
CREATE INDEX sos_cases_by_status ON sos_cases (tenant_id, status, opened_at DESC);

-- Action history: transitions (ACCEPT, RESOLVE, REOPEN, CLOSE), steps (CALL_PATIENT, CALL_FOLLOWER,
-- CALL_EMERGENCY, SMS, DISPATCH, NOTE) and system entries (OPENED, SOS_REPEATED, KPI_FAILED).
-- actor_id is the acting user (possibly platform staff, a row of another tenant): no FK.
CREATE TABLE sos_case_actions (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  sos_case_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind ~ '^[A-Z_]{2,30}$'),
  from_status text CHECK (from_status IN ('NEW', 'IN_PROCESS', 'RESOLVED', 'CLOSED')),
  to_status text CHECK (to_status IN ('NEW', 'IN_PROCESS', 'RESOLVED', 'CLOSED')),
  note text NOT NULL DEFAULT '',
  actor_id uuid,
  at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, sos_case_id) REFERENCES sos_cases (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX sos_case_actions_by_case ON sos_case_actions (tenant_id, sos_case_id, at);

-- Alerts (spec §3 alert types) ---------------------------------------------------------------------

CREATE TABLE alerts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('HEART_RATE', 'BLOOD_PRESSURE', 'SPO2', 'FALL', 'TEMPERATURE', 'GLUCOSE', 'CALL', 'NO_DATA')),
  level text NOT NULL CHECK (level IN ('AT_RISK', 'HIGH_RISK', 'SOS')),
  -- The readings that reached the level: [{measure, value, measuredAt}].
  measure_values jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'ACKNOWLEDGED', 'RESOLVED')),
  source text NOT NULL CHECK (source IN ('READING', 'FALL', 'SOS_BUTTON', 'HOTLINE_CALL', 'MANUAL', 'NO_DATA')),
  -- High risk: what the patient answered within the confirmation window.
  answer text NOT NULL DEFAULT 'NONE' CHECK (answer IN ('NONE', 'CONFIRMED_FINE', 'CALLING_FOLLOWERS', 'ESCALATED')),
  sos_case_id uuid,
  created_at timestamptz NOT NULL,
  acknowledged_at timestamptz,
  acknowledged_by uuid,
  resolved_at timestamptz,
  resolved_by uuid,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, sos_case_id) REFERENCES sos_cases (tenant_id, id) ON DELETE SET NULL (sos_case_id)
);
CREATE INDEX alerts_by_patient ON alerts (tenant_id, patient_id, created_at DESC);

-- Tickets (spec §3, §4: new -> confirmed -> processing -> completed -> success; canceled) ----------

CREATE TABLE ticket_numbers (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  next_value bigint NOT NULL DEFAULT 1 CHECK (next_value > 0),
  PRIMARY KEY (tenant_id)
);

CREATE TABLE tickets (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  number bigint NOT NULL,
  type text NOT NULL CHECK (type IN ('SOS', 'ALERT', 'CONSULTATION', 'SUPPORT')),
  status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'SUCCESS', 'CANCELED')),
  title text NOT NULL CHECK (btrim(title) <> ''),
  description text NOT NULL DEFAULT '',
  patient_id uuid NOT NULL,
  sos_case_id uuid,
  assignee_id uuid,
  current_action text NOT NULL DEFAULT '',
  sos_at timestamptz,
  location_lat double precision CHECK (location_lat BETWEEN -90 AND 90),
  location_lng double precision CHECK (location_lng BETWEEN -180 AND 180),
  health_indicators jsonb NOT NULL DEFAULT '[]',
  kpi_due_at timestamptz NOT NULL,
  kpi_failure_reason text CHECK (kpi_failure_reason IN ('SOS_PROCESSING_OVERDUE', 'CONSULTATION_OVERDUE', 'RESULT_RETURN_OVERDUE')),
  kpi_rating smallint CHECK (kpi_rating BETWEEN 1 AND 5),
  customer_rating smallint CHECK (customer_rating BETWEEN 1 AND 5),
  cancel_reason text,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, sos_case_id) REFERENCES sos_cases (tenant_id, id) ON DELETE SET NULL (sos_case_id)
);
CREATE UNIQUE INDEX tickets_number_key ON tickets (tenant_id, number);
CREATE UNIQUE INDEX tickets_one_per_sos_case ON tickets (tenant_id, sos_case_id) WHERE sos_case_id IS NOT NULL;
CREATE INDEX tickets_by_created ON tickets (tenant_id, created_at DESC);
CREATE INDEX tickets_by_status ON tickets (tenant_id, status, created_at DESC);

CREATE TABLE ticket_history (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  ticket_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  action text NOT NULL CHECK (action ~ '^[A-Z_]{2,30}$'),
  from_status text CHECK (from_status IN ('NEW', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'SUCCESS', 'CANCELED')),
  to_status text CHECK (to_status IN ('NEW', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'SUCCESS', 'CANCELED')),
  note text NOT NULL DEFAULT '',
  actor_id uuid,
  at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, ticket_id) REFERENCES tickets (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX ticket_history_by_ticket ON ticket_history (tenant_id, ticket_id, at);

-- Voice calls and SMS (spec §3 SMS or call: from, to, provider, send date, status) -----------------

-- Calls to followers and the care team, placed through a CallProvider after the deciding
-- transaction commits (a job), like outbox messages.
CREATE TABLE calls (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  sos_case_id uuid,
  contact_id uuid,
  from_number text NOT NULL,
  to_number text NOT NULL,
  to_name text NOT NULL DEFAULT '',
  purpose text NOT NULL,
  provider text,
  provider_call_id text,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'COMPLETED', 'NO_ANSWER', 'FAILED')),
  attempts smallint NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  ended_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, sos_case_id) REFERENCES sos_cases (tenant_id, id) ON DELETE SET NULL (sos_case_id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES patient_contacts (tenant_id, id) ON DELETE SET NULL (contact_id)
);
CREATE INDEX calls_by_created ON calls (tenant_id, created_at DESC);

-- The outbox messages (SMS, email) sent for a patient: the SMS and call management list joins
-- them to the patient (and so to center visibility); the messages stay in outbox_messages.
CREATE TABLE patient_messages (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  message_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  sos_case_id uuid,
  contact_id uuid,
  -- The number or name the recipient sees the message from (the center's hotline).
  from_number text NOT NULL DEFAULT '',
  to_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, message_id),
  FOREIGN KEY (tenant_id, message_id) REFERENCES outbox_messages (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, sos_case_id) REFERENCES sos_cases (tenant_id, id) ON DELETE SET NULL (sos_case_id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES patient_contacts (tenant_id, id) ON DELETE SET NULL (contact_id)
);
CREATE INDEX patient_messages_by_created ON patient_messages (tenant_id, created_at DESC);

-- Tenant isolation and health-center visibility -----------------------------------------------------

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['alert_settings', 'patient_contacts', 'sos_cases', 'sos_case_actions', 'alerts',
                                           'ticket_numbers', 'tickets', 'ticket_history', 'calls', 'patient_messages'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE ON alert_settings, ticket_numbers TO rpm_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON patient_contacts TO rpm_app;
GRANT SELECT, INSERT, UPDATE ON sos_cases, alerts, tickets, calls TO rpm_app;
-- Histories and message links are facts: append-only for the application.
GRANT SELECT, INSERT ON sos_case_actions, ticket_history, patient_messages TO rpm_app;

-- Seen exactly when the patient is: the subquery reads patients under its own policies.
DO $$
DECLARE
  dependent_table text;
BEGIN
  FOREACH dependent_table IN ARRAY ARRAY['patient_contacts', 'sos_cases', 'sos_case_actions', 'alerts', 'tickets', 'ticket_history',
                                          'calls', 'patient_messages'] LOOP
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      dependent_table, dependent_table, dependent_table);
  END LOOP;
END $$;
