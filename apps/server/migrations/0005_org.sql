-- Organisation rules the database keeps for every writer, and the indexes the scope tree and the
-- health-center lists walk.

-- A health center with admins keeps exactly one MAIN admin (spec §5: at least one admin, at most
-- one main; spec §6: the main admin is changed on the health center detail, never simply removed
-- from an admin page). The unique index center_admins_one_main (0004) gives "at most one"; this
-- trigger gives "not zero": checked at commit, so replacing the MAIN admin inside one transaction
-- works, while deleting or demoting it without a successor fails, whichever module tries.
-- A center deleted with its admins (ON DELETE CASCADE) no longer exists and passes.
CREATE FUNCTION center_admins_require_main() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  checked record;
BEGIN
  FOR checked IN
    SELECT DISTINCT changed.tenant_id, changed.center_id
      FROM (VALUES
        (CASE WHEN TG_OP <> 'INSERT' THEN OLD.tenant_id END, CASE WHEN TG_OP <> 'INSERT' THEN OLD.center_id END),
        (CASE WHEN TG_OP <> 'DELETE' THEN NEW.tenant_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.center_id END)
      ) AS changed (tenant_id, center_id)
     WHERE changed.center_id IS NOT NULL
  LOOP
    IF EXISTS (SELECT 1 FROM health_centers WHERE tenant_id = checked.tenant_id AND id = checked.center_id)
       AND NOT EXISTS (SELECT 1 FROM center_admins
                        WHERE tenant_id = checked.tenant_id AND center_id = checked.center_id AND kind = 'MAIN') THEN
      RAISE EXCEPTION 'health center % must keep one MAIN admin', checked.center_id
        USING ERRCODE = 'check_violation', CONSTRAINT = 'center_admins_main_required';
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER center_admins_main_required
  AFTER INSERT OR UPDATE OR DELETE ON center_admins
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION center_admins_require_main();

CREATE INDEX scopes_by_parent ON scopes (tenant_id, parent_id);
CREATE INDEX health_centers_by_scope ON health_centers (tenant_id, scope_id);
CREATE INDEX center_admins_by_user ON center_admins (tenant_id, user_id);
CREATE INDEX scope_admins_by_user ON scope_admins (tenant_id, user_id);
