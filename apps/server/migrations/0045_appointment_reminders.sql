-- Appointment reminders (spec §9: 24 hours and 15 minutes before the start): when each was queued,
-- written in the same transaction as its messages, so a rerun, a restart or a second server never
-- sends one twice. A reminder not yet due when the appointment moves is sent for the new time.
ALTER TABLE appointments ADD COLUMN reminded_24h_at timestamptz;
ALTER TABLE appointments ADD COLUMN reminded_15m_at timestamptz;
-- The pass looks only at open appointments with a reminder still to send.
CREATE INDEX appointments_reminders_due ON appointments (tenant_id, starts_at)
  WHERE status IN ('UPCOMING', 'WAITING_FOR_DOCTOR') AND reminded_15m_at IS NULL;
