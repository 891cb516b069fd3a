-- Bulk imports of patients and devices from .xlsx files (spec §2, §5, §8, §9).
--
-- One row per uploaded file. The file is checked when it arrives (type, size, zip limits,
-- headers); the rows are then read in the background and the job records its progress.
-- Spec §5 "only one import may run at a time" is held by the database: at most one QUEUED or
-- RUNNING job per tenant (import_jobs_one_active), so two uploads racing each other cannot
-- both start, whichever process serves them.
--
-- heartbeat_at moves with the job's progress; a job whose heartbeat stopped (its process died)
-- is marked FAILED by the recovery pass, so a crash never leaves a tenant unable to import.

CREATE TABLE import_jobs (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('PATIENT', 'DEVICE')),
  status text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  file_name text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
  file_size bigint NOT NULL CHECK (file_size >= 0),
  bytes_read bigint NOT NULL DEFAULT 0 CHECK (bytes_read >= 0),
  rows_processed integer NOT NULL DEFAULT 0 CHECK (rows_processed >= 0),
  rows_stored integer NOT NULL DEFAULT 0 CHECK (rows_stored >= 0),
  rows_failed integer NOT NULL DEFAULT 0 CHECK (rows_failed >= 0),
  -- Where the error file is (relative to DATA_DIR/imports); null when no row failed.
  error_file_key text,
  -- An error code of the catalogue (contracts errors.ts) when status is FAILED.
  failure_code text,
  -- The importing user and their name when they imported. No foreign key: platform staff acting
  -- in this tenant have their account row in the platform tenant.
  created_by uuid NOT NULL,
  created_by_name text NOT NULL DEFAULT '',
  -- The importing user's language: row reasons and the error file are written in it.
  language text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  CONSTRAINT import_jobs_failure CHECK ((status = 'FAILED') = (failure_code IS NOT NULL)),
  CONSTRAINT import_jobs_finished CHECK ((status IN ('SUCCEEDED', 'FAILED')) = (finished_at IS NOT NULL))
);

CREATE UNIQUE INDEX import_jobs_one_active ON import_jobs (tenant_id) WHERE status IN ('QUEUED', 'RUNNING');
-- History (newest first, per kind) and the "current or latest" lookup of the console.
CREATE INDEX import_jobs_by_kind ON import_jobs (tenant_id, kind, created_at DESC);

ALTER TABLE import_jobs ENABLE ROW LEVEL SECURITY;
ALTER TABLE import_jobs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON import_jobs
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());

-- Jobs are history: the app role may create and update them, never delete them.
GRANT SELECT, INSERT, UPDATE ON import_jobs TO rpm_app;
