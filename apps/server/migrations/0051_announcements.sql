-- Announcements (spec §1, §2 "announcements (compose, list)", §6 super admins manage them): a
-- title and a sanitized HTML body written by an admin for an audience of the tenant, published at
-- once or at a time by a durable job, which writes one `announcement.published` notice per
-- recipient (the read counts come from those notices' read flags).
CREATE TABLE announcements (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  -- Sanitized by the server (allow-list) before it is stored.
  body_html text NOT NULL CHECK (length(body_html) BETWEEN 1 AND 20000),
  status text NOT NULL CHECK (status IN ('DRAFT', 'SCHEDULED', 'PUBLISHED', 'CANCELED')),
  -- The audience: the whole tenant, one scope (with the scopes below it) or one center; staff of
  -- the listed roles and/or patients there. No foreign keys: a scope or center removed later
  -- leaves the announcement readable (its audience then resolves to no one).
  audience_scope_id uuid,
  audience_center_id uuid,
  audience_staff_roles text[] NOT NULL DEFAULT '{}',
  audience_patients boolean NOT NULL,
  channel_push boolean NOT NULL,
  channel_email boolean NOT NULL,
  publish_at timestamptz,
  published_at timestamptz,
  canceled_at timestamptz,
  -- The fan-out's progress: recipients are taken in account-id order, a batch at a time.
  delivered_through uuid,
  delivered_count integer NOT NULL DEFAULT 0,
  delivery_done boolean NOT NULL DEFAULT false,
  -- The author may be platform staff (account in the platform tenant): kept by id and name.
  author_id uuid NOT NULL,
  author_name text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  CHECK (audience_scope_id IS NULL OR audience_center_id IS NULL),
  CHECK (audience_patients OR cardinality(audience_staff_roles) > 0),
  CHECK (status <> 'SCHEDULED' OR publish_at IS NOT NULL),
  CHECK (status <> 'PUBLISHED' OR published_at IS NOT NULL)
);
CREATE INDEX announcements_recent ON announcements (tenant_id, created_at DESC, id DESC);

ALTER TABLE announcements ENABLE ROW LEVEL SECURITY;
ALTER TABLE announcements FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON announcements USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- A patient session reads only a published announcement it was sent (its notice names it), and
-- never writes one.
CREATE POLICY recipient_read ON announcements AS RESTRICTIVE FOR SELECT
  USING (app_patient_subject() IS NULL OR (status = 'PUBLISHED' AND EXISTS (
    SELECT 1 FROM notifications notice
    WHERE notice.tenant_id = announcements.tenant_id AND notice.recipient_id = app_patient_subject()
      AND notice.kind = 'announcement.published' AND notice.params ->> 'announcementId' = announcements.id::text)));
CREATE POLICY staff_write ON announcements AS RESTRICTIVE FOR INSERT WITH CHECK (app_patient_subject() IS NULL);
CREATE POLICY staff_update ON announcements AS RESTRICTIVE FOR UPDATE USING (app_patient_subject() IS NULL);
CREATE POLICY staff_delete ON announcements AS RESTRICTIVE FOR DELETE USING (app_patient_subject() IS NULL);
GRANT SELECT, INSERT, UPDATE, DELETE ON announcements TO rpm_app;

-- Read counts and the recipients' own look-up: an announcement's notices.
CREATE INDEX notifications_by_announcement ON notifications (tenant_id, (params ->> 'announcementId'), recipient_id)
  WHERE kind = 'announcement.published';
