import type pg from 'pg';

/** The default of REPLICA_MAX_LAG_MS: how far behind its primary a replica may be and still serve reads. */
export const DEFAULT_REPLICA_MAX_LAG_MILLISECONDS = 5_000;
/** How long one look at a replica's lag is trusted (at most this, and at most the allowed lag). */
export const REPLICA_CHECK_INTERVAL_MILLISECONDS = 1_000;

/** What one look at a replica says (see `replicaLagOf`). */
export interface ReplicaReading {
  /** pg_is_in_recovery(): a standby. A server that is not one is not a replica of anything. */
  isRecovering: boolean;
  /** It has replayed the primary's WAL up to where the primary had flushed it just before. */
  isCaughtUp: boolean;
  /** now() − pg_last_xact_replay_timestamp(), in milliseconds; null when it replayed no commit yet. */
  sinceLastReplayedCommitMilliseconds: number | null;
}

/**
 * How stale a replica's data may be, in milliseconds, or null when it must not serve reads.
 *
 * Caught up with the primary's flushed WAL read just before: nothing committed before that read
 * is missing, so it is current (0) — also when the primary has been idle and the last replayed
 * commit is old, which a plain `now() − pg_last_xact_replay_timestamp()` would count as lag.
 * Behind it: everything up to the last replayed commit is there, so the data is at most that old
 * (an over-estimate when the primary was idle before the write now on its way; the read then goes
 * to the primary, which is the safe side). Not a standby (promoted, or a server that never was
 * one): null, its data may have parted from the primary's.
 */
export function replicaLagOf(reading: ReplicaReading): number | null {
  if (!reading.isRecovering) return null;
  if (reading.isCaughtUp) return 0;
  return reading.sinceLastReplayedCommitMilliseconds === null ? null : Math.max(0, reading.sinceLastReplayedCommitMilliseconds);
}

/** Reads the primary's flushed WAL position, then the replica's replay state against it. */
export async function readReplica(primary: Pick<pg.Pool, 'query'>, replica: Pick<pg.Pool, 'query'>): Promise<ReplicaReading> {
  const flushed = await primary.query<{ lsn: string }>('SELECT pg_catalog.pg_current_wal_flush_lsn()::text AS lsn');
  const lsn = flushed.rows[0]?.lsn;
  if (lsn === undefined) throw new Error('the primary did not say where its WAL is');
  const result = await replica.query<{ isRecovering: boolean; isCaughtUp: boolean; since: number | null }>(
    `SELECT pg_catalog.pg_is_in_recovery() AS "isRecovering",
            coalesce(pg_catalog.pg_last_wal_replay_lsn() OPERATOR(pg_catalog.>=) $1::pg_catalog.pg_lsn, false) AS "isCaughtUp",
            (extract(epoch FROM pg_catalog.now() OPERATOR(pg_catalog.-) pg_catalog.pg_last_xact_replay_timestamp()) * 1000)::float8 AS since`,
    [lsn],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('the replica did not answer');
  return { isRecovering: row.isRecovering, isCaughtUp: row.isCaughtUp, sinceLastReplayedCommitMilliseconds: row.since };
}

/**
 * Per tenant, whether its replica may serve reads now, looked at most once per check interval
 * (concurrent requests share one look): a read through the replica shows data at most
 * `maxLagMilliseconds` plus that interval old. A replica that cannot be reached is not fresh.
 */
export function createReplicaFreshness(options: { maxLagMilliseconds: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const interval = Math.min(REPLICA_CHECK_INTERVAL_MILLISECONDS, options.maxLagMilliseconds);
  const looks = new Map<string, { isFresh: Promise<boolean>; at: number }>();

  async function look(primary: pg.Pool, replica: pg.Pool): Promise<boolean> {
    try {
      const lag = replicaLagOf(await readReplica(primary, replica));
      return lag !== null && lag <= options.maxLagMilliseconds;
    } catch {
      return false;
    }
  }

  return {
    isFresh(tenantId: string, primary: pg.Pool, replica: pg.Pool): Promise<boolean> {
      const at = now();
      const last = looks.get(tenantId);
      if (last !== undefined && at - last.at < interval) return last.isFresh;
      const isFresh = look(primary, replica);
      looks.set(tenantId, { isFresh, at });
      return isFresh;
    },
    forget(tenantId: string) {
      looks.delete(tenantId);
    },
  };
}
