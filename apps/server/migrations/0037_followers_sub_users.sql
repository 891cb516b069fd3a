-- Followers and sub-users (spec §1, §3 Follower or relative and Sub-user, §4 relative invitation,
-- §5 contacts, §6 followers view health data and receive alerts, patients may hide data from
-- followers, SOS for main users only; §9 limits). Contracts: followers.ts, sub-users.ts.
--
-- The patient access rule (migration 0017, contracts patient-access.ts) gains two relations:
-- - a *holder* (users.id in patients.holder_user_id) sees and changes its sub-users' records as
--   its own; a sub-user has no login of its own;
-- - a *follower* (an account that confirmed an invitation: follower_grants) sees the patient's
--   row and, through it, the patient's health data and alerts, minus the data kinds the patient
--   hides from that follower; it never sees the patient's files, care team, requests, tickets,
--   messages, calls, recordings, devices, thresholds or other followers.

-- Sub-users --------------------------------------------------------------------------------------

ALTER TABLE patients
  ADD COLUMN holder_user_id uuid,
  -- Sub-user profile (spec §3): relation to the holder, smoking, treated conditions.
  ADD COLUMN relation text CHECK (relation IN ('PARENT', 'CHILD', 'OLDER_SIBLING', 'YOUNGER_SIBLING', 'SON', 'WIFE', 'HUSBAND', 'FRIEND', 'OTHER')),
  ADD COLUMN smoking boolean,
  ADD COLUMN treated_conditions text[] NOT NULL DEFAULT '{}'
    CHECK (treated_conditions <@ ARRAY['HEART_DISEASE', 'HIGH_CHOLESTEROL', 'DIABETES', 'HIGH_BLOOD_PRESSURE']::text[]),
  ADD FOREIGN KEY (tenant_id, holder_user_id) REFERENCES users (tenant_id, id),
  -- A sub-user is held by an account and has no login; a main user has no holder.
  ADD CONSTRAINT patients_sub_user_holder CHECK (
    (account_kind = 'SUB_USER') = (holder_user_id IS NOT NULL) AND (account_kind <> 'SUB_USER' OR user_id IS NULL));
CREATE INDEX patients_by_holder ON patients (tenant_id, holder_user_id) WHERE holder_user_id IS NOT NULL;

-- Followers: invitations ---------------------------------------------------------------------------

-- name stays the alias name the patient gives the contact (spec §3 "alias name").
ALTER TABLE patient_contacts DROP CONSTRAINT patient_contacts_contact_type_check;
ALTER TABLE patient_contacts ADD CONSTRAINT patient_contacts_contact_type_check
  CHECK (contact_type IN ('EMERGENCY', 'CARING', 'COACH'));
ALTER TABLE patient_contacts DROP CONSTRAINT patient_contacts_invitation_status_check;
ALTER TABLE patient_contacts ADD CONSTRAINT patient_contacts_invitation_status_check
  CHECK (invitation_status IN ('SENT', 'RESENT', 'CONFIRMED', 'DELETED'));
ALTER TABLE patient_contacts
  -- The account that confirmed the invitation (set on CONFIRMED; kept on DELETED for history).
  ADD COLUMN follower_user_id uuid,
  -- Who sent the invitation: the patient (or its holder) in the app, or staff in the console.
  ADD COLUMN invited_by uuid,
  -- The last time the invitation was sent (resend blocked within 5 minutes of it, spec §4, §9).
  ADD COLUMN last_sent_at timestamptz,
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN deleted_at timestamptz,
  -- Data kinds (contracts followers.ts FOLLOWER_DATA_KINDS) the patient hides from this follower.
  ADD COLUMN hidden_kinds text[] NOT NULL DEFAULT '{}',
  -- The one-time code of the last invitation SMS, which only the holder of the invited phone
  -- reads: confirming needs it. Stored as an HMAC keyed by the server (verification/otp.ts
  -- hashOtpCode, salted with the contact id); every send replaces it and resets the wrong tries;
  -- confirming or deleting clears it. NULL: no code to confirm with (a resend issues one).
  ADD COLUMN invitation_code_hash bytea,
  -- Wrong codes tried against it (at most OTP_RULES.maxAttempts; then refused until a resend).
  ADD COLUMN invitation_code_attempts integer NOT NULL DEFAULT 0 CHECK (invitation_code_attempts >= 0),
  ADD FOREIGN KEY (tenant_id, follower_user_id) REFERENCES users (tenant_id, id),
  ADD CONSTRAINT patient_contacts_confirmed CHECK (invitation_status <> 'CONFIRMED' OR (follower_user_id IS NOT NULL AND confirmed_at IS NOT NULL)),
  ADD CONSTRAINT patient_contacts_deleted CHECK ((invitation_status = 'DELETED') = (deleted_at IS NOT NULL));
UPDATE patient_contacts SET last_sent_at = created_at WHERE last_sent_at IS NULL;
ALTER TABLE patient_contacts ALTER COLUMN last_sent_at SET NOT NULL, ALTER COLUMN last_sent_at SET DEFAULT now();

-- Spec §5: an existing follower cannot be added again (a deleted one can be invited anew).
DROP INDEX patient_contacts_phone_key;
CREATE UNIQUE INDEX patient_contacts_phone_key ON patient_contacts (tenant_id, patient_id, phone) WHERE invitation_status <> 'DELETED';
-- An account follows a patient once.
CREATE UNIQUE INDEX patient_contacts_follower_key ON patient_contacts (tenant_id, patient_id, follower_user_id)
  WHERE invitation_status = 'CONFIRMED';
-- Invitations waiting for a phone (the invitee's inbox).
CREATE INDEX patient_contacts_by_phone ON patient_contacts (tenant_id, phone) WHERE invitation_status IN ('SENT', 'RESENT');
CREATE INDEX patient_contacts_by_follower ON patient_contacts (tenant_id, follower_user_id) WHERE invitation_status = 'CONFIRMED';

-- Followers: the grants the access rule reads -------------------------------------------------------

-- One row per confirmed follower, kept by the trigger below from patient_contacts. A separate
-- table because the patients policy reads it: patient_contacts is itself seen through patients,
-- so reading it from the patients policy would recurse.
CREATE TABLE follower_grants (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  contact_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  follower_user_id uuid NOT NULL,
  hidden_kinds text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, contact_id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES patient_contacts (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, follower_user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX follower_grants_by_follower ON follower_grants (tenant_id, follower_user_id, patient_id);
CREATE INDEX follower_grants_by_patient ON follower_grants (tenant_id, patient_id);

ALTER TABLE follower_grants ENABLE ROW LEVEL SECURITY;
ALTER TABLE follower_grants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON follower_grants
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- A patient subject sees only the grants made to it; staff see the tenant's (the services read
-- them only for patients the caller sees).
CREATE POLICY center_visibility ON follower_grants AS RESTRICTIVE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient' OR follower_user_id = app_patient_subject());
-- Written only by the trigger (SECURITY DEFINER): the application reads.
GRANT SELECT ON follower_grants TO rpm_app;

-- Runs with the owner's rights and as a whole-tenant caller for the length of the call: the
-- grant of a contact changes whoever changes the contact, the patient in the app, the follower
-- leaving or staff, and none of them may see or write follower_grants themselves. The caller's
-- settings are put back before it returns (set_config, not a SET clause on the function: only a
-- superuser may attach custom settings to a function, and a DEDICATED tenant's owner is not one).
-- A grant never goes to the patient's own account or its holder: they see the record anyway, and
-- the follower limits (hidden kinds, what followers never see) would take that away from them.
CREATE FUNCTION sync_follower_grant() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller_subject text := current_setting('app.subject', true);
  caller_centers text := current_setting('app.center_ids', true);
BEGIN
  PERFORM set_config('app.subject', '', true);
  PERFORM set_config('app.center_ids', '*', true);
  IF TG_OP = 'DELETE' THEN
    DELETE FROM follower_grants WHERE tenant_id = OLD.tenant_id AND contact_id = OLD.id;
  ELSIF NEW.invitation_status = 'CONFIRMED' AND NEW.follower_user_id IS NOT NULL THEN
    IF EXISTS (SELECT 1 FROM patients p
                WHERE p.tenant_id = NEW.tenant_id AND p.id = NEW.patient_id
                  AND (p.user_id = NEW.follower_user_id OR p.holder_user_id = NEW.follower_user_id)) THEN
      RAISE EXCEPTION 'a patient''s own account or holder cannot follow it' USING ERRCODE = 'check_violation',
        CONSTRAINT = 'patient_contacts_follower_not_self';
    END IF;
    INSERT INTO follower_grants (tenant_id, contact_id, patient_id, follower_user_id, hidden_kinds)
    VALUES (NEW.tenant_id, NEW.id, NEW.patient_id, NEW.follower_user_id, NEW.hidden_kinds)
    ON CONFLICT (tenant_id, contact_id) DO UPDATE
      SET patient_id = EXCLUDED.patient_id, follower_user_id = EXCLUDED.follower_user_id, hidden_kinds = EXCLUDED.hidden_kinds;
  ELSE
    DELETE FROM follower_grants WHERE tenant_id = NEW.tenant_id AND contact_id = NEW.id;
  END IF;
  PERFORM set_config('app.subject', coalesce(caller_subject, ''), true);
  PERFORM set_config('app.center_ids', coalesce(caller_centers, ''), true);
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION sync_follower_grant() FROM PUBLIC;

CREATE TRIGGER patient_contacts_follower_grant
  AFTER INSERT OR UPDATE OR DELETE ON patient_contacts
  FOR EACH ROW EXECUTE FUNCTION sync_follower_grant();

-- The access rule --------------------------------------------------------------------------------

-- The patients the current patient subject follows, and the data kinds each hides from it (none
-- for staff: app_patient_subject() is null). Sets rather than per-row tests: a policy reads them
-- once per statement, "(SELECT NOT EXISTS (…))" as an InitPlan that lets every row through at once
-- when the subject follows no one (staff, most patients), "NOT IN (SELECT …)" as a hashed subplan
-- otherwise. A per-row function with an EXISTS is never inlined and cost 3-4 µs a row on every
-- reading of every caller. PL/pgSQL rather than SQL: a SQL set function is inlined into every
-- statement that reads a patient-scoped table, which costs planning time each time; this one is
-- planned once per connection and called once per statement. The trigger above keeps grants from
-- the owner and the holder, so a followed patient here is never one the subject also owns or holds.
CREATE FUNCTION app_subject_followed() RETURNS TABLE (patient_id uuid)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  AS $$
BEGIN
  RETURN QUERY SELECT g.patient_id FROM follower_grants g WHERE g.follower_user_id = app_patient_subject();
END $$;
GRANT EXECUTE ON FUNCTION app_subject_followed() TO rpm_app;
CREATE FUNCTION app_subject_hidden_kinds() RETURNS TABLE (patient_id uuid, kind text)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  AS $$
BEGIN
  RETURN QUERY SELECT g.patient_id, hidden.kind FROM follower_grants g CROSS JOIN LATERAL unnest(g.hidden_kinds) AS hidden (kind)
                WHERE g.follower_user_id = app_patient_subject();
END $$;
GRANT EXECUTE ON FUNCTION app_subject_hidden_kinds() TO rpm_app;

-- The data kind of a measure (contracts followers.ts MEASURE_DATA_KIND; a test compares them).
CREATE FUNCTION measure_data_kind(measure text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN measure IN ('HEART_RATE', 'HRV') THEN 'HEART_RATE'
      WHEN measure = 'SPO2' THEN 'SPO2'
      WHEN measure IN ('SYSTOLIC', 'DIASTOLIC') THEN 'BLOOD_PRESSURE'
      WHEN measure = 'TEMPERATURE' THEN 'TEMPERATURE'
      WHEN measure IN ('GLUCOSE', 'CHOLESTEROL', 'URIC_ACID') THEN 'BLOOD_TESTS'
      WHEN measure IN ('STEPS', 'CALORIES') THEN 'ACTIVITY'
      WHEN measure = 'RESPIRATION' THEN 'RESPIRATION'
      ELSE 'BODY'
    END
  $$;
GRANT EXECUTE ON FUNCTION measure_data_kind(text) TO rpm_app;

-- A patient row: a patient subject sees its own record, its sub-users' and the patients it
-- follows; staff by health center as before (migration 0017's app_patient_visible).
DROP POLICY center_visibility ON patients;
CREATE POLICY center_visibility ON patients AS RESTRICTIVE
  USING (CASE WHEN current_setting('app.subject', true) = 'patient'
              THEN user_id = app_patient_subject() OR holder_user_id = app_patient_subject()
                OR id IN (SELECT followed.patient_id FROM app_subject_followed() followed)
              ELSE app_center_visible(health_center_id) END);

-- Health data: hidden kinds are not seen by the follower they are hidden from.
DO $$
DECLARE
  measured_table text;
  kind_table text[];
BEGIN
  FOREACH measured_table IN ARRAY ARRAY['readings', 'readings_hourly', 'readings_daily'] LOOP
    EXECUTE format(
      'CREATE POLICY follower_hidden_kinds ON %I AS RESTRICTIVE FOR SELECT USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_hidden_kinds()))'
      ' OR (patient_id, measure_data_kind(measure)) NOT IN (SELECT hidden.patient_id, hidden.kind FROM app_subject_hidden_kinds() hidden))',
      measured_table);
  END LOOP;
  FOREACH kind_table SLICE 1 IN ARRAY ARRAY[['ecg_records', 'ECG'], ['sleep_records', 'SLEEP'], ['sport_records', 'ACTIVITY'], ['weight_goals', 'BODY']] LOOP
    EXECUTE format(
      'CREATE POLICY follower_hidden_kinds ON %I AS RESTRICTIVE USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_hidden_kinds()))'
      ' OR patient_id NOT IN (SELECT hidden.patient_id FROM app_subject_hidden_kinds() hidden WHERE hidden.kind = %L))',
      kind_table[1], kind_table[2]);
  END LOOP;
END $$;

-- What a follower never sees of the patients it follows.
DO $$
DECLARE
  private_table text;
BEGIN
  FOREACH private_table IN ARRAY ARRAY['patient_files', 'patient_doctors', 'care_requests', 'tickets', 'ticket_history', 'calls',
      'patient_messages', 'sos_case_actions', 'sos_recordings', 'alert_reads', 'ingest_batches', 'patient_thresholds',
      'health_events', 'patient_status_changes'] LOOP
    EXECUTE format(
      'CREATE POLICY not_followers ON %I AS RESTRICTIVE USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))'
      ' OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed))',
      private_table);
  END LOOP;
  FOREACH private_table IN ARRAY ARRAY['devices', 'phone_history'] LOOP
    EXECUTE format(
      'CREATE POLICY not_followers ON %I AS RESTRICTIVE USING (patient_id IS NULL OR (SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))'
      ' OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed))',
      private_table);
  END LOOP;
END $$;
-- Of the patient's followers, a follower sees only its own row.
CREATE POLICY not_followers ON patient_contacts AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed)
         OR follower_user_id = app_patient_subject());
-- Live events: a follower gets the patient's status, alerts and SOS state, nothing else (contracts
-- patient-access.ts FOLLOWER_EVENT_TYPES, which the hub applies to live delivery).
CREATE POLICY not_followers ON events AS RESTRICTIVE
  USING (patient_id IS NULL OR (SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed)
         OR type IN ('patient.statusChanged', 'alert.raised', 'alert.updated', 'sos.opened', 'sos.updated', 'follower.changed'));

-- A follower reads; it never changes the record or the data of a patient it follows (the app shows
-- a followed profile read only, and this holds whatever a service does). The owner and the holder
-- change theirs as before; staff by health center as before. Leaving is the one change a follower
-- makes: its own contact row, to DELETED (its grant goes with it).
CREATE POLICY followers_read_only_insert ON patients AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient' OR user_id = app_patient_subject() OR holder_user_id = app_patient_subject());
CREATE POLICY followers_read_only_update ON patients AS RESTRICTIVE FOR UPDATE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient' OR user_id = app_patient_subject() OR holder_user_id = app_patient_subject());
CREATE POLICY followers_read_only_delete ON patients AS RESTRICTIVE FOR DELETE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient' OR user_id = app_patient_subject() OR holder_user_id = app_patient_subject());
DO $$
DECLARE
  followed_table text;
  not_followed constant text := '(SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))'
                                 ' OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed)';
BEGIN
  FOREACH followed_table IN ARRAY ARRAY['readings', 'readings_hourly', 'readings_daily', 'ecg_records', 'sleep_records', 'sport_records',
      'weight_goals', 'alerts', 'sos_cases', 'patient_contacts'] LOOP
    EXECUTE format('CREATE POLICY followers_read_only_insert ON %I AS RESTRICTIVE FOR INSERT WITH CHECK (%s)', followed_table, not_followed);
    EXECUTE format('CREATE POLICY followers_read_only_delete ON %I AS RESTRICTIVE FOR DELETE USING (%s)', followed_table, not_followed);
    IF followed_table <> 'patient_contacts' THEN
      EXECUTE format('CREATE POLICY followers_read_only_update ON %I AS RESTRICTIVE FOR UPDATE USING (%s)', followed_table, not_followed);
    ELSE
      EXECUTE format(
        'CREATE POLICY followers_read_only_update ON %I AS RESTRICTIVE FOR UPDATE USING (%s OR follower_user_id = app_patient_subject())'
        ' WITH CHECK (%s OR (follower_user_id = app_patient_subject() AND invitation_status = %L))',
        followed_table, not_followed, not_followed, 'DELETED');
    END IF;
  END LOOP;
END $$;
