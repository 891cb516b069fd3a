-- Watch settings the patient app sets for a bound watch (contracts watchSettingsSchema): night
-- SpO2 detection and fall detection. Missing keys take their defaults; unbinding clears them.
-- A constant default is metadata only. Rows stay under the devices table's row-level security.
ALTER TABLE devices ADD COLUMN watch_settings jsonb NOT NULL DEFAULT '{}'::jsonb;
