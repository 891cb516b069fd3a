-- Ingest integrity (vitals): a batch id reused with other content is refused, late readings are
-- stored but flagged, and readings from before a device was bound to its patient are refused.

-- The SHA-256 (hex) of the normalized batch (contracts normalizedBatchText). A retry with the same
-- id and the same hash replays the first answer; the same id with another hash is
-- health.batchReused. Batches stored before this column have no hash and replay as before.
ALTER TABLE ingest_batches ADD COLUMN content_hash text;

-- A reading measured longer ago than the tenant's LATE_DATA_HORIZON_MINUTES (default 120) before it
-- arrived: stored and shown, but never judged by the status engine (contracts isLateReading).
-- A constant default is metadata only, also on the monthly partitions.
ALTER TABLE readings ADD COLUMN late boolean NOT NULL DEFAULT false;

-- When the device was bound to its current patient (null: unbound, or bound before this column
-- existed). Device readings dated before it are health.beforeMonitoring.
ALTER TABLE devices ADD COLUMN bound_at timestamptz;
