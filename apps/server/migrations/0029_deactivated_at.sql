-- When an account was deactivated (spec §4: a deactivated doctor can be restored within 30 days).
-- users.deactivated_at is set when the status becomes DISABLED and cleared when it leaves DISABLED,
-- by a trigger, so every way of deactivating (an approved doctor's request, an admin's disable, the
-- own deactivation) records it. The time is the row's updated_at: the application's clock.

ALTER TABLE users ADD COLUMN deactivated_at timestamptz;

-- Accounts already disabled: their last change is the best known deactivation time.
UPDATE users SET deactivated_at = updated_at WHERE status = 'DISABLED';

CREATE FUNCTION users_deactivated_at() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, public
  AS $$
BEGIN
  IF NEW.status = 'DISABLED' AND OLD.status IS DISTINCT FROM 'DISABLED' THEN
    NEW.deactivated_at := NEW.updated_at;
  ELSIF NEW.status <> 'DISABLED' THEN
    NEW.deactivated_at := NULL;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER users_deactivated_at BEFORE UPDATE OF status ON users
  FOR EACH ROW EXECUTE FUNCTION users_deactivated_at();
