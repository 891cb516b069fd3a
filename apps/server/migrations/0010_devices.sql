-- Devices (spec §2 device management, §3 Device, §4 device and app states) and their connection and
-- phone histories (spec §7 "Health prefix").
--
-- A device is activated at its first connection (connection_status leaves -1, "not activated"); an
-- activated device cannot be edited or deleted (checked by the service, which answers
-- device.activated / device.cannotDelete). The trigger below keeps activated_at and
-- first_connected_at true for every writer, so "activated" is one column to read.
--
-- Histories keep the account's user name as text and reference only devices: purging a patient
-- (which unbinds their devices) is never blocked by them.

-- Devices ------------------------------------------------------------------------------------------

ALTER TABLE devices
  ADD COLUMN account_username text,
  ADD COLUMN first_connected_at timestamptz,
  ADD COLUMN last_connected_at timestamptz,
  ADD COLUMN os_version text NOT NULL DEFAULT '',
  ADD COLUMN firmware_version text NOT NULL DEFAULT '',
  ADD COLUMN app_status text NOT NULL DEFAULT 'NO_SYNC' CHECK (app_status IN ('ONLINE', 'OFFLINE', 'KILLED', 'NO_SYNC')),
  ADD COLUMN last_synced_at timestamptz,
  ADD COLUMN data_source text NOT NULL DEFAULT 'WIRELESS_DEVICE' CHECK (data_source IN ('WIRELESS_DEVICE', 'PHOTO_OCR', 'MANUAL')),
  ADD COLUMN activated_at timestamptz,
  ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
  -- The import job that created the device (import_jobs arrives with migration 0011).
  ADD COLUMN import_id uuid;

CREATE FUNCTION devices_track_activation() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.activated_at IS NOT NULL THEN
    -- Activation is once and for all (its time may be corrected, never removed).
    NEW.activated_at := coalesce(NEW.activated_at, OLD.activated_at);
    NEW.first_connected_at := coalesce(NEW.first_connected_at, OLD.first_connected_at);
    IF NEW.connection_status = -1 THEN
      NEW.connection_status := OLD.connection_status;
    END IF;
  ELSIF NEW.connection_status <> -1 AND NEW.activated_at IS NULL THEN
    NEW.first_connected_at := coalesce(NEW.first_connected_at, NEW.last_connected_at, now());
    NEW.activated_at := NEW.first_connected_at;
  END IF;
  IF NEW.last_connected_at IS NULL AND NEW.first_connected_at IS NOT NULL THEN
    NEW.last_connected_at := NEW.first_connected_at;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER devices_track_activation
  BEFORE INSERT OR UPDATE ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_track_activation();

-- Rows written before this migration: a device that ever connected is activated.
UPDATE devices SET first_connected_at = imported_at WHERE connection_status <> -1;

ALTER TABLE devices
  ADD CONSTRAINT devices_mac_format CHECK (mac_address IS NULL OR mac_address ~ '^([0-9A-F]{2}:){5}[0-9A-F]{2}$'),
  ADD CONSTRAINT devices_imei_format CHECK (imei IS NULL OR imei ~ '^[0-9]{15}$'),
  ADD CONSTRAINT devices_serial_not_blank CHECK (btrim(serial_number) <> ''),
  ADD CONSTRAINT devices_activation CHECK ((activated_at IS NULL) = (connection_status = -1));

-- Unique per tenant: MAC and IMEI (0001), serial number within a model.
CREATE UNIQUE INDEX devices_serial_key ON devices (tenant_id, model, serial_number);

-- The device list: newest first, by model and states, a patient's devices, search by account.
CREATE INDEX devices_by_created ON devices (tenant_id, created_at DESC, id);
CREATE INDEX devices_by_model ON devices (tenant_id, model);
CREATE INDEX devices_by_patient ON devices (tenant_id, patient_id) WHERE patient_id IS NOT NULL;
CREATE INDEX devices_by_account ON devices (tenant_id, lower(account_username)) WHERE account_username IS NOT NULL;
CREATE INDEX devices_by_connection_status ON devices (tenant_id, connection_status);

-- Health-center visibility (spec §6) through the bound patient: a device bound to a patient of a
-- center the caller cannot see is invisible and cannot be written; unbound devices (the stock)
-- are seen by everyone holding device rights. The patient's center is read under the patients'
-- own policies, so an invisible patient yields NULL, which only a whole-tenant caller passes
-- (and for them a patient of another tenant is still refused, by the foreign key).
CREATE POLICY center_visibility ON devices AS RESTRICTIVE
  USING (patient_id IS NULL OR app_center_visible((SELECT bound.health_center_id FROM patients bound WHERE bound.tenant_id = devices.tenant_id AND bound.id = devices.patient_id)));

-- Connection history -------------------------------------------------------------------------------

-- One row per connection of a device to the patient app: status 1 connected, 0 disconnected,
-- -1 not activated, 2 unknown (spec §3).
CREATE TABLE device_connection_history (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  device_id uuid NOT NULL,
  username text NOT NULL,
  device_name text NOT NULL DEFAULT '',
  model text NOT NULL CHECK (model IN ('V19', 'GT2', 'GT5', 'J2025E', 'J2025B')),
  status smallint NOT NULL CHECK (status IN (1, 0, -1, 2)),
  connected_at timestamptz NOT NULL,
  disconnected_at timestamptz,
  app_version text NOT NULL DEFAULT '',
  phone_name text NOT NULL DEFAULT '',
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, device_id) REFERENCES devices (tenant_id, id) ON DELETE CASCADE,
  CONSTRAINT device_connection_history_period CHECK (disconnected_at IS NULL OR disconnected_at >= connected_at)
);
CREATE INDEX device_connection_history_by_username ON device_connection_history (tenant_id, lower(username), connected_at DESC);
CREATE INDEX device_connection_history_by_device ON device_connection_history (tenant_id, device_id, connected_at DESC);
CREATE INDEX device_connection_history_by_name ON device_connection_history (tenant_id, device_name);

-- Phone history ------------------------------------------------------------------------------------

-- The phones a patient's account used with the app (spec §3: phone name, OS, app version), with the
-- app status seen at the time. patient_id goes NULL when the patient is purged; the user name stays.
CREATE TABLE phone_history (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  patient_id uuid,
  username text NOT NULL,
  phone_name text NOT NULL,
  os text NOT NULL CHECK (os IN ('IOS', 'ANDROID')),
  os_version text NOT NULL DEFAULT '',
  app_version text NOT NULL DEFAULT '',
  status text NOT NULL CHECK (status IN ('ONLINE', 'OFFLINE', 'KILLED', 'NO_SYNC')),
  recorded_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE SET NULL (patient_id)
);
CREATE INDEX phone_history_by_username ON phone_history (tenant_id, lower(username), recorded_at DESC);
CREATE INDEX phone_history_by_patient ON phone_history (tenant_id, patient_id) WHERE patient_id IS NOT NULL;
CREATE INDEX phone_history_by_phone_name ON phone_history (tenant_id, phone_name);
CREATE INDEX phone_history_by_app_version ON phone_history (tenant_id, app_version);

DO $$
DECLARE
  data_plane_table text;
BEGIN
  FOREACH data_plane_table IN ARRAY ARRAY['device_connection_history', 'phone_history'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', data_plane_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())',
      data_plane_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO rpm_app', data_plane_table);
  END LOOP;
END $$;

-- A connection row is visible when its device is; a phone row when its patient is (or when the
-- patient was purged). Whole-tenant callers skip the lookups.
CREATE POLICY center_visibility ON device_connection_history AS RESTRICTIVE
  USING (coalesce(current_setting('app.center_ids', true), '') IN ('', '*')
         OR EXISTS (SELECT 1 FROM devices device WHERE device.tenant_id = device_connection_history.tenant_id AND device.id = device_connection_history.device_id));
CREATE POLICY center_visibility ON phone_history AS RESTRICTIVE
  USING (patient_id IS NULL
         OR app_center_visible((SELECT owner.health_center_id FROM patients owner WHERE owner.tenant_id = phone_history.tenant_id AND owner.id = phone_history.patient_id)));
