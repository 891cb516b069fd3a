-- Patient emails are unique per tenant without regard to case (patients_email_key, 0008). That
-- index was on the expression lower(email), and lower() is not LEAKPROOF: under row level security
-- PostgreSQL may not evaluate a caller's lower(email) = … before the table's policies, so it cannot
-- use the index for it and reads every patient of the tenant instead. The bulk import asks which
-- emails of each batch are taken, which made every batch scan the tenant (O(n²) over a file:
-- about 100 ms a batch at 100,000 patients, growing with every batch).
--
-- The lowered email as a stored column: comparing it is plain text equality (leakproof), so the
-- index serves that lookup under the policies. Uniqueness is unchanged (lower(email) per tenant
-- for every patient with an email) and the index keeps its name, which the API maps to
-- patient.emailExists.
ALTER TABLE patients ADD COLUMN email_lower text GENERATED ALWAYS AS (lower(email)) STORED;
DROP INDEX patients_email_key;
CREATE UNIQUE INDEX patients_email_key ON patients (tenant_id, email_lower) WHERE email_lower IS NOT NULL;
