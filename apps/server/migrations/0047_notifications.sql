-- The notification centre (spec §3 Notification: type and read flag; §4 read / unread; §7 inbox,
-- unread count, read, read all, send, force log and status). One row per recipient account, written
-- in the transaction of the event it tells of, so a notice exists exactly when its event does.
-- The text is not stored: `kind` and `params` are rendered in the reader's language by the client;
-- only a message written by a person (kind 'message') keeps its title and body.
CREATE TABLE notifications (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  recipient_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('CONTACT', 'PRESCRIPTION', 'REMINDER', 'REQUEST', 'APPOINTMENT', 'SCHEDULE', 'ALERT', 'ANNOUNCEMENT', 'MESSAGE')),
  kind text NOT NULL CHECK (kind ~ '^[a-z]+(\.[a-zA-Z]+)?$'),
  params jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(params) = 'object'),
  title text CHECK (length(title) <= 120),
  body text CHECK (length(body) <= 2000),
  link text CHECK (length(link) <= 300),
  -- A mandatory notice: shown over every screen until its reader opens it (read_at set).
  force boolean NOT NULL DEFAULT false,
  -- The patient the notice is about, if any: deleting the patient deletes its notices.
  patient_id uuid,
  sender_id uuid,
  created_at timestamptz NOT NULL,
  read_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, recipient_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
-- The inbox, newest first; the unread count and the pending force notices from partial indexes.
CREATE INDEX notifications_inbox ON notifications (tenant_id, recipient_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications (tenant_id, recipient_id) WHERE read_at IS NULL;
CREATE INDEX notifications_force_pending ON notifications (tenant_id, recipient_id, created_at) WHERE force AND read_at IS NULL;
CREATE INDEX notifications_by_patient ON notifications (tenant_id, patient_id) WHERE patient_id IS NOT NULL;

ALTER TABLE notifications ENABLE ROW LEVEL SECURITY;
ALTER TABLE notifications FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON notifications USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- A patient session reads and marks only its own account's notices (it may write notices for
-- others, e.g. the doctor of an appointment it books: WITH CHECK is the tenant's only).
CREATE POLICY own_inbox ON notifications AS RESTRICTIVE FOR SELECT
  USING (app_patient_subject() IS NULL OR recipient_id = app_patient_subject());
CREATE POLICY own_inbox_update ON notifications AS RESTRICTIVE FOR UPDATE
  USING (app_patient_subject() IS NULL OR recipient_id = app_patient_subject());
CREATE POLICY own_inbox_delete ON notifications AS RESTRICTIVE FOR DELETE
  USING (app_patient_subject() IS NULL OR recipient_id = app_patient_subject());
GRANT SELECT, INSERT, UPDATE, DELETE ON notifications TO rpm_app;

-- Per-person channel choices per type (absent: on). ALERT cannot be turned off (checked here too).
CREATE TABLE notification_preferences (
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('CONTACT', 'PRESCRIPTION', 'REMINDER', 'REQUEST', 'APPOINTMENT', 'SCHEDULE', 'ALERT', 'ANNOUNCEMENT', 'MESSAGE')),
  channel text NOT NULL CHECK (channel IN ('IN_APP', 'EMAIL', 'PUSH', 'SMS')),
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, user_id, type, channel),
  CHECK (enabled OR type <> 'ALERT'),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
ALTER TABLE notification_preferences ENABLE ROW LEVEL SECURITY;
ALTER TABLE notification_preferences FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON notification_preferences USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- A patient session reads the choices of the people it notifies, but changes only its own.
CREATE POLICY own_preferences_insert ON notification_preferences AS RESTRICTIVE FOR INSERT
  WITH CHECK (app_patient_subject() IS NULL OR user_id = app_patient_subject());
CREATE POLICY own_preferences_update ON notification_preferences AS RESTRICTIVE FOR UPDATE
  USING (app_patient_subject() IS NULL OR user_id = app_patient_subject());
CREATE POLICY own_preferences_delete ON notification_preferences AS RESTRICTIVE FOR DELETE
  USING (app_patient_subject() IS NULL OR user_id = app_patient_subject());
GRANT SELECT, INSERT, UPDATE, DELETE ON notification_preferences TO rpm_app;

-- Live events addressed to one account (a notification written for it): any session of the tenant
-- may write one (a patient booking tells its doctor), a patient session reads only its own; staff
-- sessions read them too, and the server hands each to its addressee's sockets only.
ALTER TABLE events ADD COLUMN recipient_user_id uuid;
DROP POLICY center_visibility ON events;
CREATE POLICY center_visibility ON events AS RESTRICTIVE FOR SELECT
  USING (CASE WHEN recipient_user_id IS NOT NULL
              THEN app_patient_subject() IS NULL OR recipient_user_id = app_patient_subject()
              WHEN patient_id IS NOT NULL
              THEN EXISTS (SELECT 1 FROM patients subject WHERE subject.tenant_id = events.tenant_id AND subject.id = events.patient_id)
              ELSE app_center_visible(health_center_id) END);
CREATE POLICY center_visibility_insert ON events AS RESTRICTIVE FOR INSERT
  WITH CHECK (CASE WHEN recipient_user_id IS NOT NULL THEN true
                   WHEN patient_id IS NOT NULL
                   THEN EXISTS (SELECT 1 FROM patients subject WHERE subject.tenant_id = events.tenant_id AND subject.id = events.patient_id)
                   ELSE app_center_visible(health_center_id) END);
