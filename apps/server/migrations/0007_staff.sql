-- Staff management and level access: indexes only, no new table or column.

-- The re-enable job runs every minute in every tenant and looks only for temporary disables
-- that have run out: a partial index keeps that a few index pages however many users a tenant has.
CREATE INDEX users_disabled_until ON users (tenant_id, disabled_until) WHERE status = 'DISABLED' AND disabled_until IS NOT NULL;

-- "The calling doctor's assistants" (the primary key leads with the assistant).
CREATE INDEX doctor_assistants_by_doctor ON doctor_assistants (tenant_id, doctor_id);

-- A user's extra levels (session resolution, level options, staff detail).
CREATE INDEX user_levels_by_user ON user_levels (tenant_id, user_id);
