-- Feedback (spec §3 Feedback: type, category, description, attachments, suggestion; §5 images at
-- most 5 MB, png/jpeg/gif/webp). One row per message a person of the tenant sends (a patient in the
-- app, staff in the console), its images and customer care's replies. The sender's health center is
-- kept when it is sent, so a center's admins see their center's feedback only (center-less senders:
-- whole-tenant callers only), as with the other rows of a center.
CREATE TABLE feedback (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  sender_id uuid NOT NULL,
  sender_kind text NOT NULL CHECK (sender_kind IN ('PATIENT', 'STAFF')),
  health_center_id uuid,
  type text NOT NULL CHECK (type IN ('ERROR', 'IMPROVE')),
  category text NOT NULL CHECK (category IN ('SOFTWARE', 'HARDWARE', 'SERVICE')),
  description text NOT NULL CHECK (length(description) BETWEEN 1 AND 2000),
  suggestion text CHECK (length(suggestion) <= 2000),
  status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'IN_PROGRESS', 'RESOLVED', 'CLOSED')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, sender_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX feedback_by_created ON feedback (tenant_id, created_at DESC, id DESC);
CREATE INDEX feedback_by_sender ON feedback (tenant_id, sender_id, created_at DESC);
CREATE INDEX feedback_open ON feedback (tenant_id, status) WHERE status IN ('NEW', 'IN_PROGRESS');

ALTER TABLE feedback ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON feedback USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- A patient session reaches only what its own account sent; staff the feedback of the centers
-- they see, and their own: the sender's own reads set app.feedback_sender for their transaction
-- (modules/feedback/store.ts), so a scope-level sender still finds what it sent.
CREATE POLICY sender_or_center ON feedback AS RESTRICTIVE
  USING (CASE WHEN app_patient_subject() IS NOT NULL THEN sender_id = app_patient_subject()
              ELSE app_center_visible(health_center_id) OR sender_id = nullif(current_setting('app.feedback_sender', true), '')::uuid END)
  WITH CHECK (CASE WHEN app_patient_subject() IS NOT NULL THEN sender_id = app_patient_subject()
                   ELSE true END);
GRANT SELECT, INSERT, UPDATE ON feedback TO rpm_app;

CREATE TABLE feedback_images (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  feedback_id uuid NOT NULL,
  position integer NOT NULL CHECK (position BETWEEN 0 AND 4),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')),
  size_bytes integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 5242880),
  storage_key text NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, feedback_id, position),
  FOREIGN KEY (tenant_id, feedback_id) REFERENCES feedback (tenant_id, id) ON DELETE CASCADE
);
ALTER TABLE feedback_images ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_images FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON feedback_images USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- An image goes with its feedback: reached exactly when the feedback is.
CREATE POLICY with_feedback ON feedback_images AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM feedback f WHERE f.tenant_id = feedback_images.tenant_id AND f.id = feedback_images.feedback_id));
GRANT SELECT, INSERT ON feedback_images TO rpm_app;

CREATE TABLE feedback_replies (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  feedback_id uuid NOT NULL,
  author_id uuid,
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, feedback_id) REFERENCES feedback (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX feedback_replies_of ON feedback_replies (tenant_id, feedback_id, created_at);
ALTER TABLE feedback_replies ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_replies FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON feedback_replies USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY with_feedback ON feedback_replies AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM feedback f WHERE f.tenant_id = feedback_replies.tenant_id AND f.id = feedback_replies.feedback_id));
-- Replies are customer care's: a patient session never writes one.
CREATE POLICY staff_replies ON feedback_replies AS RESTRICTIVE FOR INSERT
  WITH CHECK (app_patient_subject() IS NULL);
GRANT SELECT, INSERT ON feedback_replies TO rpm_app;
