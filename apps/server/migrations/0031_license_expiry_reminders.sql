-- License expiry reminders: a doctor gets an e-mail 30 days and 7 days before a medical license
-- expires. One row per license, expiry date and threshold records that the reminder was queued
-- (in the same transaction as its outbox message), so a reminder goes out once however often the
-- daily job runs or restarts. A renewed license (another expiry date) is reminded again for its
-- new date; a removed license takes its rows with it.

CREATE TABLE license_expiry_reminders (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  license_id uuid NOT NULL,
  expires_on date NOT NULL,
  threshold_days smallint NOT NULL CHECK (threshold_days IN (7, 30)),
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, license_id, expires_on, threshold_days),
  FOREIGN KEY (tenant_id, license_id) REFERENCES doctor_licenses (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE license_expiry_reminders ENABLE ROW LEVEL SECURITY;
ALTER TABLE license_expiry_reminders FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON license_expiry_reminders
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- Seen where the license is (the doctor's health center), as doctor_licenses.
CREATE POLICY center_visibility ON license_expiry_reminders AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM doctor_licenses license
                  WHERE license.tenant_id = license_expiry_reminders.tenant_id
                    AND license.id = license_expiry_reminders.license_id));
GRANT SELECT, INSERT, DELETE ON license_expiry_reminders TO rpm_app;
