-- The patient app is for PATIENT accounts only (architecture "Access control", auth.patientOnly).
-- Logins refuse staff from now on; sessions staff opened on the patient app before are ended here,
-- as a permission change: the app asks to log in again, and that login is refused.
UPDATE sessions
   SET revoked_at = now(), revoked_reason = 'permission_changed'
 WHERE app = 'patient' AND role <> 'PATIENT' AND revoked_at IS NULL;
