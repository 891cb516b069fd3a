-- The patient app's alerts (spec §2 "SOS message choice and recording", "notifications"; §3
-- Notification: read flag; §4 alerts in the patient app).
--
-- sos_recordings: a voice message the patient recorded after pressing SOS, attached to the SOS
-- case. The bytes are stored like patient files (FileStorage, category "sosrecordings", a random
-- key); the row says which case and patient they belong to. A phone that retries an upload sends
-- the same upload_id, and the recording is stored once.
--
-- alert_reads: the patient's read marks of their notifications (one per alert they opened). No
-- row means unread.
--
-- Both are patient data: tenant isolation, and visible exactly when their patient is (the
-- patients policy of migration 0017: staff by center, a patient account its own record only).

CREATE TABLE sos_recordings (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  sos_case_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  upload_id uuid NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('audio/webm', 'audio/ogg', 'audio/mp4')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  duration_seconds integer NOT NULL CHECK (duration_seconds BETWEEN 0 AND 60),
  storage_key text NOT NULL,
  recorded_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, upload_id),
  FOREIGN KEY (tenant_id, sos_case_id) REFERENCES sos_cases (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX sos_recordings_by_case ON sos_recordings (tenant_id, sos_case_id, created_at);

CREATE TABLE alert_reads (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  alert_id uuid NOT NULL,
  patient_id uuid NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, alert_id),
  FOREIGN KEY (tenant_id, alert_id) REFERENCES alerts (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX alert_reads_by_patient ON alert_reads (tenant_id, patient_id);

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['sos_recordings', 'alert_reads'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
    EXECUTE format(
      'CREATE POLICY center_visibility ON %I AS RESTRICTIVE USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = %I.tenant_id AND visible.id = %I.patient_id))',
      data_plane_table, data_plane_table, data_plane_table);
  END LOOP;
END $$;
GRANT SELECT, INSERT ON sos_recordings TO rpm_app;
GRANT SELECT, INSERT, DELETE ON alert_reads TO rpm_app;
