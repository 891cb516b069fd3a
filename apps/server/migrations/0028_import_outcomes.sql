-- What an import did, in its status: SUCCEEDED (every row stored), PARTIAL (some rows stored, some
-- refused, or the job stopped after storing some) and FAILED (no row stored). Before, a job read to
-- its end was SUCCEEDED whatever it stored, so an import that stored none of its rows looked done.
-- failure_code (why a job stopped before the end of its file) may now be set on a PARTIAL job too.

ALTER TABLE import_jobs
  DROP CONSTRAINT import_jobs_status_check,
  DROP CONSTRAINT import_jobs_failure,
  DROP CONSTRAINT import_jobs_finished;

UPDATE import_jobs SET status = 'FAILED'
 WHERE status = 'SUCCEEDED' AND rows_stored = 0;
UPDATE import_jobs SET status = 'PARTIAL'
 WHERE (status = 'SUCCEEDED' AND rows_failed > 0) OR (status = 'FAILED' AND rows_stored > 0);

ALTER TABLE import_jobs
  ADD CONSTRAINT import_jobs_status_check
    CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'PARTIAL', 'FAILED')),
  ADD CONSTRAINT import_jobs_failure
    CHECK (failure_code IS NULL OR status IN ('PARTIAL', 'FAILED')),
  ADD CONSTRAINT import_jobs_finished
    CHECK ((status IN ('SUCCEEDED', 'PARTIAL', 'FAILED')) = (finished_at IS NOT NULL)),
  ADD CONSTRAINT import_jobs_outcome CHECK (
    CASE status
      WHEN 'SUCCEEDED' THEN rows_stored > 0 AND rows_failed = 0 AND failure_code IS NULL
      WHEN 'PARTIAL' THEN rows_stored > 0
      WHEN 'FAILED' THEN rows_stored = 0
      ELSE true
    END
  );
