-- Account settings: a user's own units (null follows the tenant's setting) and self-deactivation.

ALTER TABLE users
  ADD COLUMN unit_system text CHECK (unit_system IN ('metric', 'imperial')),
  ADD COLUMN thermal_unit text CHECK (thermal_unit IN ('C', 'F')),
  ADD COLUMN blood_glucose_unit text CHECK (blood_glucose_unit IN ('mg/dL', 'mmol/L')),
  ADD COLUMN uric_acid_unit text CHECK (uric_acid_unit IN ('mg/dL', 'mmol/L', 'umol/L')),
  -- A doctor's deactivation waits for an admin's approval (spec §4): the request is kept here.
  ADD COLUMN deactivation_requested_at timestamptz,
  ADD COLUMN deactivation_requested_until timestamptz,
  ADD COLUMN deactivation_requested_indefinite boolean NOT NULL DEFAULT false;
