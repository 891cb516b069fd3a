-- Every request reads its session (control plane) and the account it acts for (users: data plane,
-- row level security by tenant). The account took a transaction of its own: BEGIN, the tenant
-- setting, the row, COMMIT — four round trips on every request. This function reads it in the
-- session's own statement: as the caller (no owner's rights), it sets the session's account
-- tenant for itself exactly as a transaction of that tenant starts (every center, no patient
-- subject), reads the account's row under row level security, and puts the four settings back as
-- they were, so it changes nothing for whatever runs after it in the same transaction.
-- It returns only what the request's context is built from, or null (no such session or account).
-- The server uses the answer only for tenants whose data lives in this database (a DEDICATED
-- tenant's accounts are in its own database, where the server reads them as before).
CREATE FUNCTION app_session_account(session_id uuid) RETURNS json
  LANGUAGE plpgsql VOLATILE SECURITY INVOKER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  saved_tenant text := current_setting('app.tenant_id', true);
  saved_centers text := current_setting('app.center_ids', true);
  saved_subject text := current_setting('app.subject', true);
  saved_user text := current_setting('app.user_id', true);
  account_tenant uuid;
  account_user uuid;
  account json;
BEGIN
  SELECT s.account_tenant_id, s.user_id INTO account_tenant, account_user FROM sessions s WHERE s.id = session_id;
  IF account_tenant IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('app.tenant_id', account_tenant::text, true), set_config('app.center_ids', '*', true),
          set_config('app.subject', '', true), set_config('app.user_id', '', true);
  SELECT json_build_object(
           'id', u.id, 'tenantId', u.tenant_id, 'role', u.role, 'status', u.status, 'deletedAt', u.deleted_at,
           'firstName', u.first_name, 'lastName', u.last_name, 'customRoleId', u.custom_role_id,
           'scopeId', u.scope_id, 'healthCenterId', u.health_center_id,
           'unitSystem', u.unit_system, 'thermalUnit', u.thermal_unit,
           'bloodGlucoseUnit', u.blood_glucose_unit, 'uricAcidUnit', u.uric_acid_unit)
    INTO account
    FROM users u
   WHERE u.tenant_id = account_tenant AND u.id = account_user;
  PERFORM set_config('app.tenant_id', coalesce(saved_tenant, ''), true), set_config('app.center_ids', coalesce(saved_centers, ''), true),
          set_config('app.subject', coalesce(saved_subject, ''), true), set_config('app.user_id', coalesce(saved_user, ''), true);
  RETURN account;
END $$;
REVOKE ALL ON FUNCTION app_session_account(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_session_account(uuid) TO rpm_app;
