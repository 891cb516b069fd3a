-- The one access rule for a patient's data (contracts patient-access.ts), enforced by the database.
--
-- Besides app.tenant_id and app.center_ids, a transaction made for a caller says who the caller is
-- as a subject of that rule:
--   app.subject = 'patient', app.user_id = <user id>: a patient account. It sees the patient
--     records linked to its account (patients.user_id) and nothing else of any patient; its
--     app.center_ids is 'none', so whatever is visible "by center" is invisible to it.
--   unset or anything else: staff (or work without a caller), seen by health center as before.
-- Every patient-scoped table already reads patients under these policies (EXISTS subqueries of
-- migrations 0008, 0009, 0013, 0014), so restricting patients restricts all of them.

CREATE FUNCTION app_patient_subject() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
    SELECT CASE WHEN current_setting('app.subject', true) = 'patient'
                THEN nullif(current_setting('app.user_id', true), '')::uuid END
  $$;
GRANT EXECUTE ON FUNCTION app_patient_subject() TO rpm_app;

-- A patient row is visible to a patient subject when it is that subject's own record, and to
-- staff when its health center is visible (center-less patients: whole-tenant callers only).
CREATE FUNCTION app_patient_visible(center uuid, patient_user uuid) RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
    SELECT CASE WHEN current_setting('app.subject', true) = 'patient'
                THEN patient_user IS NOT NULL AND patient_user = app_patient_subject()
                ELSE app_center_visible(center) END
  $$;
GRANT EXECUTE ON FUNCTION app_patient_visible(uuid, uuid) TO rpm_app;

DROP POLICY center_visibility ON patients;
CREATE POLICY center_visibility ON patients AS RESTRICTIVE USING (app_patient_visible(health_center_id, user_id));

-- Accounts: a patient subject sees its own account and staff accounts (names of its doctors, the
-- doctor search), never another patient's account. Staff: by center as before.
DROP POLICY center_visibility ON users;
CREATE POLICY center_visibility ON users AS RESTRICTIVE
  USING (CASE WHEN current_setting('app.subject', true) = 'patient'
              THEN id = app_patient_subject() OR role <> 'PATIENT'
              ELSE app_center_visible(health_center_id) END);

-- Health centers are no one's personal data: a patient subject may read their names.
DROP POLICY center_visibility ON health_centers;
CREATE POLICY center_visibility ON health_centers AS RESTRICTIVE
  USING (current_setting('app.subject', true) = 'patient' OR app_center_visible(id));

-- A bound device and a phone row are visible exactly when their patient is (through the patients
-- policy above); stock devices (unbound) as before.
DROP POLICY center_visibility ON devices;
CREATE POLICY center_visibility ON devices AS RESTRICTIVE
  USING (patient_id IS NULL
         OR EXISTS (SELECT 1 FROM patients bound WHERE bound.tenant_id = devices.tenant_id AND bound.id = devices.patient_id));
DROP POLICY center_visibility ON phone_history;
CREATE POLICY center_visibility ON phone_history AS RESTRICTIVE
  USING (patient_id IS NULL
         OR EXISTS (SELECT 1 FROM patients owner WHERE owner.tenant_id = phone_history.tenant_id AND owner.id = phone_history.patient_id));

-- Live events: an event about a patient is visible exactly when the patient is (its current
-- center, not the one it had when the event was written); an event about no patient by its center,
-- where NULL means whole-tenant callers only. Before, an event with no center reached everyone.
DROP POLICY center_visibility ON events;
CREATE POLICY center_visibility ON events AS RESTRICTIVE
  USING (CASE WHEN patient_id IS NOT NULL
              THEN EXISTS (SELECT 1 FROM patients subject WHERE subject.tenant_id = events.tenant_id AND subject.id = events.patient_id)
              ELSE app_center_visible(health_center_id) END);
