import { sql } from 'drizzle-orm';
import type { SystemStore } from '../../db/database.js';

/** The counters of one call, in the order they are checked. */
export interface SendKeys {
  address: Buffer;
  destination: Buffer;
  tenant: Buffer;
}

/**
 * The counts after this call. A counter is counted only when the ones before it still allowed the
 * call (null otherwise), so a flood refused by its address quota cannot use up the quota of the
 * destination it names, nor a destination's flood the tenant's.
 */
export interface SendCounts {
  address: number;
  destination: number | null;
  tenant: number | null;
}

/**
 * Counts one call in the window starting at `windowStart`, in one statement: each counter is one
 * atomic upsert (INSERT … ON CONFLICT DO UPDATE … RETURNING), so parallel calls from any number
 * of processes each see a distinct count and none slips past a limit. Rows are always taken in
 * the same order (address, destination, tenant), so two calls cannot deadlock.
 */
export async function countSend(
  system: SystemStore,
  options: { windowStart: Date; keys: SendKeys; limits: { address: number; destination: number } },
): Promise<SendCounts> {
  const { windowStart, keys, limits } = options;
  const result = await system.execute<{
    address: number;
    destination: number | null;
    tenant: number | null;
  }>(sql`
    WITH by_address AS (
      INSERT INTO send_quota_counters AS counter (kind, key_hash, window_start, sends)
      VALUES ('ADDRESS', ${keys.address}, ${windowStart}, 1)
      ON CONFLICT (kind, key_hash, window_start) DO UPDATE SET sends = counter.sends + 1
      RETURNING counter.sends
    ), by_destination AS (
      INSERT INTO send_quota_counters AS counter (kind, key_hash, window_start, sends)
      SELECT 'DESTINATION', ${keys.destination}::bytea, ${windowStart}::timestamptz, 1 FROM by_address WHERE by_address.sends <= ${limits.address}
      ON CONFLICT (kind, key_hash, window_start) DO UPDATE SET sends = counter.sends + 1
      RETURNING counter.sends
    ), by_tenant AS (
      INSERT INTO send_quota_counters AS counter (kind, key_hash, window_start, sends)
      SELECT 'TENANT', ${keys.tenant}::bytea, ${windowStart}::timestamptz, 1 FROM by_destination WHERE by_destination.sends <= ${limits.destination}
      ON CONFLICT (kind, key_hash, window_start) DO UPDATE SET sends = counter.sends + 1
      RETURNING counter.sends
    )
    SELECT (SELECT sends FROM by_address) AS address,
           (SELECT sends FROM by_destination) AS destination,
           (SELECT sends FROM by_tenant) AS tenant`);
  const [row] = result.rows;
  if (row === undefined) throw new Error('send quota count returned no row');
  return row;
}

/**
 * Deletes counters of windows that have ended, at most `batch` rows. Rows another call holds are
 * skipped (SKIP LOCKED), so purges never wait on or deadlock with each other or with counting.
 */
export async function purgeEndedWindows(system: SystemStore, before: Date, batch = 1000): Promise<number> {
  const result = await system.execute(sql`
    DELETE FROM send_quota_counters WHERE ctid IN (
      SELECT ctid FROM send_quota_counters WHERE window_start < ${before}
       ORDER BY window_start LIMIT ${batch} FOR UPDATE SKIP LOCKED)`);
  return result.rowCount ?? 0;
}
