import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createReplicaFreshness, replicaLagOf } from './replica-freshness.js';

describe('replicaLagOf', () => {
  it('counts a replica caught up with the primary’s flushed WAL as current, however old its last replayed commit (an idle primary)', () => {
    expect(replicaLagOf({ isRecovering: true, isCaughtUp: true, sinceLastReplayedCommitMilliseconds: 3_600_000 })).toBe(0);
    expect(replicaLagOf({ isRecovering: true, isCaughtUp: true, sinceLastReplayedCommitMilliseconds: null })).toBe(0);
  });

  it('counts a replica behind the primary as stale since its last replayed commit', () => {
    expect(replicaLagOf({ isRecovering: true, isCaughtUp: false, sinceLastReplayedCommitMilliseconds: 7_500 })).toBe(7_500);
    // Clocks a little apart never make a negative lag.
    expect(replicaLagOf({ isRecovering: true, isCaughtUp: false, sinceLastReplayedCommitMilliseconds: -20 })).toBe(0);
    expect(replicaLagOf({ isRecovering: true, isCaughtUp: false, sinceLastReplayedCommitMilliseconds: null })).toBeNull();
  });

  it('never uses a server that is not a standby (promoted, or never one)', () => {
    expect(replicaLagOf({ isRecovering: false, isCaughtUp: true, sinceLastReplayedCommitMilliseconds: 0 })).toBeNull();
  });
});

/** A pool answering the two look-up queries with the given replica state, counting its calls. */
function fakePools(replica: { isRecovering: boolean; isCaughtUp: boolean; since: number | null } | Error) {
  let calls = 0;
  const primary = { query: () => Promise.resolve({ rows: [{ lsn: '0/3000000' }] }) } as unknown as pg.Pool;
  const standby = {
    query: () => {
      calls += 1;
      return replica instanceof Error ? Promise.reject(replica) : Promise.resolve({ rows: [replica] });
    },
  } as unknown as pg.Pool;
  return { primary, standby, calls: () => calls };
}

describe('createReplicaFreshness', () => {
  it('looks at most once per interval per tenant, and again after forget', async () => {
    let now = 0;
    const freshness = createReplicaFreshness({ maxLagMilliseconds: 5_000, now: () => now });
    const pools = fakePools({ isRecovering: true, isCaughtUp: false, since: 4_000 });
    expect(await freshness.isFresh('t', pools.primary, pools.standby)).toBe(true);
    now = 999;
    expect(await freshness.isFresh('t', pools.primary, pools.standby)).toBe(true);
    expect(pools.calls()).toBe(1);
    now = 1_000;
    await freshness.isFresh('t', pools.primary, pools.standby);
    expect(pools.calls()).toBe(2);
    freshness.forget('t');
    await freshness.isFresh('t', pools.primary, pools.standby);
    expect(pools.calls()).toBe(3);
  });

  it('refuses a replica past the allowed lag, or one that cannot be reached', async () => {
    const freshness = createReplicaFreshness({ maxLagMilliseconds: 5_000 });
    const behind = fakePools({ isRecovering: true, isCaughtUp: false, since: 5_001 });
    expect(await freshness.isFresh('a', behind.primary, behind.standby)).toBe(false);
    const down = fakePools(new Error('connection refused'));
    expect(await freshness.isFresh('b', down.primary, down.standby)).toBe(false);
  });
});
