-- How far ahead each medicine's doses are made (modules/care-plan/intake-expansion.ts): the dose
-- pass extends only the medicines whose doses run out within its horizon, a day at a time, so a
-- pass every few minutes touches a small share of the medicines rather than all of them.
ALTER TABLE prescription_medicines ADD COLUMN doses_made_until timestamptz;
CREATE INDEX prescription_medicines_doses_due ON prescription_medicines (tenant_id, doses_made_until)
  WHERE mode = 'ON_SCHEDULE';
