ALTER FUNCTION ingest_readings(uuid, uuid, uuid, uuid, timestamptz, text[], timestamptz[], float8[], text[], boolean[],
                               text[], timestamptz[], integer[], float8[], float8[], float8[], float8[], timestamptz[])
  SET plan_cache_mode = force_generic_plan;
