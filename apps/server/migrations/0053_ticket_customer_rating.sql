-- The patient rates a ticket (spec §1 ratings, §3 Ticket customer rating): once the work is done
-- (COMPLETED or SUCCESS) the patient app shows the ticket with stars and a message. The rating
-- stays in customer_rating (staff still record one given over the phone); these columns say what
-- the patient wrote, when, and which account wrote it (the patient, or the holder of a sub-user).
ALTER TABLE tickets
  ADD COLUMN customer_rating_message text NOT NULL DEFAULT '' CHECK (length(customer_rating_message) <= 1000),
  ADD COLUMN customer_rated_at timestamptz,
  ADD COLUMN customer_rated_by uuid;
-- Lists the patient's own tickets newest first.
CREATE INDEX IF NOT EXISTS tickets_by_patient ON tickets (tenant_id, patient_id, created_at DESC);
