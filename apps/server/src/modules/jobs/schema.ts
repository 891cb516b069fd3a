import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import type { Queryable } from '../../db/connection-guard.js';

/** graphile-worker speaks through this; its debug chatter is not wanted at start. */
const IS_ERROR: Record<string, boolean> = { error: true };
export const quietGraphileLogger = new Logger(() => (level, message) => {
  if (IS_ERROR[level] === true) console.error(`graphile-worker: ${message}`);
});

/**
 * Installs or upgrades graphile-worker's own schema (`graphile_worker`) with the owner
 * connection. Runs after the checked-in migrations, on the platform database and on every
 * DEDICATED tenant's database (both go through migrate()). Idempotent; concurrent starts are
 * handled by graphile-worker's migration table. With `checkConnection` (a DEDICATED tenant's
 * target checks), its connection is checked before graphile-worker uses it.
 */
export async function installJobQueueSchema(
  ownerUrl: string,
  options: { checkConnection?: ((connection: Queryable) => Promise<void>) | undefined } = {},
): Promise<void> {
  const { checkConnection } = options;
  if (checkConnection === undefined) {
    await runMigrations({ connectionString: ownerUrl, maxPoolSize: 1, logger: quietGraphileLogger });
    return;
  }
  const pool = new pg.Pool({
    connectionString: ownerUrl,
    max: 1,
    // pg-pool awaits onConnect and fails the checkout when it rejects; its types say void.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onConnect: (client) => checkConnection(client),
  });
  const ignore = () => undefined;
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  try {
    await runMigrations({ pgPool: pool, logger: quietGraphileLogger });
  } finally {
    await pool.end();
  }
}
