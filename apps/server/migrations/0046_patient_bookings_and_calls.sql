-- The patient app books and cancels its own appointments (spec §2 patient app events): a patient
-- subject may now insert an appointment it creates itself, and change one; which rows it reaches is
-- still the read rule of migration 0044 (its own record and its sub-users', never a followed
-- patient's), and the service allows it only to cancel one still to come.
DROP POLICY staff_write_insert ON appointments;
CREATE POLICY staff_or_own_insert ON appointments AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient'
              OR created_by = app_patient_subject());
DROP POLICY staff_write_update ON appointments;

-- Video call signalling (contracts realtime.ts callSignalSchema), relayed between the processes
-- that hold the two parties' sockets: the sender's process writes the message here and notifies
-- channel rpm_calls with "<recipient user id>:<id>"; a process holding a socket of that user reads
-- it and sends it on. The messages are SDP and ICE candidates (no health data), kept minutes only:
-- a platform table, like the sessions, with no tenant rows to isolate.
CREATE TABLE call_signals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient_user_id uuid NOT NULL,
  message jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX call_signals_by_age ON call_signals (created_at);
GRANT SELECT, INSERT, DELETE ON call_signals TO rpm_app;
