-- The status lifecycle and the alert episode rule (contracts status-lifecycle.ts,
-- docs/status-lifecycle.md).
--
-- patients.alert_episode_level: the highest level alerted in the patient's current alert episode
-- (NORMAL: none). It ends when a batch of judged readings is all NORMAL, which also ends "I am
-- fine" (alerts_suppressed_until_normal); the next crossing alerts again. Existing patients start
-- with the episode at their status, so nothing is alerted twice by the upgrade.
--
-- patients.level_evidence: for each alert level, when the latest current reading at or above it
-- was measured ({"AT_RISK": ms, "HIGH_RISK": ms, "SOS": ms}) and when the latest judged reading
-- was ("judged": ms). The status comes down when readings stayed within a lower level for the
-- tenant's window (alert_settings.status_settle_minutes, default 30) and no SOS case is open.
ALTER TABLE patients
  ADD COLUMN alert_episode_level text NOT NULL DEFAULT 'NORMAL'
    CHECK (alert_episode_level IN ('NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS')),
  ADD COLUMN level_evidence jsonb NOT NULL DEFAULT '{}'::jsonb;
UPDATE patients SET alert_episode_level = status WHERE status IN ('AT_RISK', 'HIGH_RISK', 'SOS');

-- Why a status changed, as data the console renders in the reader's language
-- (i18n patients:statusReasons.<code>); reason keeps the plain text. NULL: recorded before codes.
ALTER TABLE patient_status_changes
  ADD COLUMN reason_code text
    CHECK (reason_code IN ('READING', 'EVENT', 'SETTLED', 'CASE_CLOSED', 'TICKET_CLOSED', 'MANUAL')),
  ADD COLUMN reason_params jsonb NOT NULL DEFAULT '{}'::jsonb;

-- Minutes readings must stay within a lower level before the status comes down by itself.
ALTER TABLE alert_settings
  ADD COLUMN status_settle_minutes integer NOT NULL DEFAULT 30 CHECK (status_settle_minutes BETWEEN 5 AND 1440);
