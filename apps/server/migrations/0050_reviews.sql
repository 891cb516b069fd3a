-- Ratings and reviews (spec §1, §2 rating and review management, §3 Review: rating 1 to 5 stars,
-- report message; §5 review images). A patient rates a doctor (appointment_id NULL) or one of its
-- completed appointments with that doctor; one review per patient and subject, a new submission
-- replaces it. Admins report (report_message) and hide (hidden_reason) reviews. The doctor's
-- rating_average and rating_count (migration 0009) are derived from the visible reviews by the
-- trigger below, in the writing transaction.
CREATE TABLE doctor_reviews (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  patient_id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  appointment_id uuid,
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  message text NOT NULL DEFAULT '' CHECK (length(message) <= 1000),
  -- The first letter of the author's name when it wrote: what other patients see of the author.
  author_initial text NOT NULL DEFAULT '' CHECK (length(author_initial) <= 2),
  report_message text CHECK (length(report_message) <= 500),
  reported_at timestamptz,
  reported_by uuid,
  hidden_reason text CHECK (length(hidden_reason) <= 500),
  hidden_at timestamptz,
  hidden_by uuid,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, patient_id) REFERENCES patients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, appointment_id) REFERENCES appointments (tenant_id, id) ON DELETE CASCADE,
  CHECK (hidden_at IS NULL OR hidden_reason IS NOT NULL),
  CHECK (reported_at IS NULL OR report_message IS NOT NULL)
);
CREATE UNIQUE INDEX doctor_reviews_one_per_doctor ON doctor_reviews (tenant_id, patient_id, doctor_id)
  WHERE appointment_id IS NULL;
CREATE UNIQUE INDEX doctor_reviews_one_per_appointment ON doctor_reviews (tenant_id, appointment_id)
  WHERE appointment_id IS NOT NULL;
CREATE INDEX doctor_reviews_by_doctor ON doctor_reviews (tenant_id, doctor_id, created_at DESC);

-- A review's images: stored files (png, jpeg, gif or webp by content, at most 5 MB), in order.
CREATE TABLE doctor_review_images (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  review_id uuid NOT NULL,
  position smallint NOT NULL CHECK (position BETWEEN 0 AND 9),
  storage_key text NOT NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, review_id) REFERENCES doctor_reviews (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX doctor_review_images_by_review ON doctor_review_images (tenant_id, review_id, position);

-- Who sees a review: staff where they see both its doctor and its author (center visibility);
-- a patient session its own profiles' reviews, and the visible reviews of any doctor (the service
-- shows other patients' reviews without identity). A patient session writes only its own profiles'
-- reviews (never a followed patient's); the service writes a review's text for patient sessions
-- only, and staff change only the moderation columns.
ALTER TABLE doctor_reviews ENABLE ROW LEVEL SECURITY;
ALTER TABLE doctor_reviews FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON doctor_reviews USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON doctor_reviews AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM users doctor WHERE doctor.tenant_id = doctor_reviews.tenant_id AND doctor.id = doctor_reviews.doctor_id)
         AND (current_setting('app.subject', true) = 'patient'
              OR EXISTS (SELECT 1 FROM patients author WHERE author.tenant_id = doctor_reviews.tenant_id AND author.id = doctor_reviews.patient_id)));
CREATE POLICY patient_reads ON doctor_reviews AS RESTRICTIVE FOR SELECT
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient'
         OR hidden_at IS NULL
         OR EXISTS (SELECT 1 FROM patients own WHERE own.tenant_id = doctor_reviews.tenant_id AND own.id = doctor_reviews.patient_id));
CREATE POLICY patient_writes_own_insert ON doctor_reviews AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient'
              OR (EXISTS (SELECT 1 FROM patients own WHERE own.tenant_id = doctor_reviews.tenant_id AND own.id = doctor_reviews.patient_id)
                  AND doctor_reviews.patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed)));
CREATE POLICY patient_writes_own_update ON doctor_reviews AS RESTRICTIVE FOR UPDATE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient'
         OR (EXISTS (SELECT 1 FROM patients own WHERE own.tenant_id = doctor_reviews.tenant_id AND own.id = doctor_reviews.patient_id)
             AND doctor_reviews.patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed)));
CREATE POLICY nobody_deletes ON doctor_reviews AS RESTRICTIVE FOR DELETE USING (false);
GRANT SELECT, INSERT, UPDATE, DELETE ON doctor_reviews TO rpm_app;

ALTER TABLE doctor_review_images ENABLE ROW LEVEL SECURITY;
ALTER TABLE doctor_review_images FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON doctor_review_images USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
-- An image is seen with its review; a patient session sees only its own reviews' images.
CREATE POLICY review_visibility ON doctor_review_images AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM doctor_reviews review WHERE review.tenant_id = doctor_review_images.tenant_id AND review.id = doctor_review_images.review_id
                 AND (current_setting('app.subject', true) IS DISTINCT FROM 'patient'
                      OR EXISTS (SELECT 1 FROM patients own WHERE own.tenant_id = review.tenant_id AND own.id = review.patient_id))));
CREATE POLICY patient_writes_insert ON doctor_review_images AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) = 'patient');
CREATE POLICY patient_writes_delete ON doctor_review_images AS RESTRICTIVE FOR DELETE
  USING (current_setting('app.subject', true) = 'patient');
GRANT SELECT, INSERT, DELETE ON doctor_review_images TO rpm_app;

-- The doctor's rating from its visible reviews (appointment reviews included), rounded to two
-- decimals. SECURITY DEFINER: a patient session may not write doctor profiles, and the average
-- must count reviews the writer cannot read; it touches only the row of the review's doctor in the
-- review's tenant (a doctor without a profile row gets one).
CREATE FUNCTION doctor_reviews_recount() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed := OLD;
  ELSE
    changed := NEW;
  END IF;
  INSERT INTO doctor_profiles (tenant_id, doctor_id, rating_average, rating_count)
  SELECT changed.tenant_id, changed.doctor_id, COALESCE(round(avg(rating)::numeric, 2), 0), count(*)::int
    FROM doctor_reviews
   WHERE tenant_id = changed.tenant_id AND doctor_id = changed.doctor_id AND hidden_at IS NULL
  ON CONFLICT (tenant_id, doctor_id) DO UPDATE
    SET rating_average = EXCLUDED.rating_average, rating_count = EXCLUDED.rating_count;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION doctor_reviews_recount() FROM PUBLIC;
CREATE TRIGGER doctor_reviews_recount AFTER INSERT OR UPDATE OF rating, hidden_at OR DELETE ON doctor_reviews
  FOR EACH ROW EXECUTE FUNCTION doctor_reviews_recount();

-- The static ratings written before reviews existed are replaced by the reviews' (none yet: 0).
UPDATE doctor_profiles SET rating_average = 0, rating_count = 0;
