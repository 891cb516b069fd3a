-- Durable jobs and the commit order of live events (architecture "Jobs" and "Real time").
--
-- Jobs: the queue is graphile-worker's schema `graphile_worker`, installed by its own migrations
-- right after these files (src/modules/jobs/schema.ts), as the owner. Its tables have no row level
-- security and hold every tenant's jobs, so the app role gets NO right on that schema. It schedules
-- and cancels through the two SECURITY DEFINER functions below, which act only for the tenant of
-- the calling transaction (app.tenant_id): the payload always carries that tenant, and job keys are
-- prefixed with it, so one tenant can neither schedule for, nor cancel, another's jobs. add_job runs
-- inside the caller's transaction: a rolled-back change schedules nothing. The job runner connects
-- as the owner.

CREATE FUNCTION app_schedule_job(for_tenant uuid, task text, payload jsonb, run_at timestamptz, job_key text, max_attempts integer)
  RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, public
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
BEGIN
  -- The job belongs to the transaction's tenant; naming another one is refused.
  IF tenant IS NULL OR for_tenant IS DISTINCT FROM tenant THEN
    RAISE EXCEPTION 'app_schedule_job: not a transaction of tenant %', for_tenant USING ERRCODE = '42501';
  END IF;
  PERFORM graphile_worker.add_job(
    identifier => task,
    payload => json_build_object('tenantId', tenant, 'payload', coalesce(payload, '{}'::jsonb)),
    run_at => run_at,
    max_attempts => max_attempts,
    job_key => CASE WHEN job_key IS NULL THEN NULL ELSE tenant::text || ':' || job_key END
  );
END $$;

CREATE FUNCTION app_cancel_job(job_key text)
  RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, public
  AS $$
DECLARE
  tenant uuid := app_current_tenant();
BEGIN
  IF tenant IS NULL THEN
    RAISE EXCEPTION 'app_cancel_job needs a tenant transaction' USING ERRCODE = '42501';
  END IF;
  PERFORM graphile_worker.remove_job(tenant::text || ':' || job_key);
END $$;

REVOKE ALL ON FUNCTION app_schedule_job(uuid, text, jsonb, timestamptz, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION app_cancel_job(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_schedule_job(uuid, text, jsonb, timestamptz, text, integer) TO rpm_app;
GRANT EXECUTE ON FUNCTION app_cancel_job(text) TO rpm_app;

-- Live events in commit order. An identity value is taken at INSERT, so two transactions can
-- commit their events in the opposite order of their ids; a client resuming "after id N" would
-- then miss the event with the smaller id that committed later. The event's final id is therefore
-- given at commit time: a deferred constraint trigger, under a per-tenant advisory lock held only
-- from that moment to the end of the commit, renumbers the row and only then notifies. Within a
-- tenant, an id is visible only once every smaller id of that tenant has committed (or never will).
-- The id publishEvent returns is provisional.
DROP TRIGGER events_notify ON events;
DROP FUNCTION events_notify();

CREATE FUNCTION events_commit_order() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, public
  AS $$
DECLARE
  final_id bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(727002, hashtext(NEW.tenant_id::text));
  UPDATE events SET id = DEFAULT WHERE tenant_id = NEW.tenant_id AND id = NEW.id RETURNING id INTO final_id;
  PERFORM pg_notify('rpm_events', NEW.tenant_id::text || ':' || final_id::text);
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER events_commit_order AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_commit_order();
