import { Logger, runMigrations } from 'graphile-worker';

/** graphile-worker speaks through this; its debug chatter is not wanted at start. */
const IS_ERROR: Record<string, boolean> = { error: true };
export const quietGraphileLogger = new Logger(() => (level, message) => {
  if (IS_ERROR[level] === true) console.error(`graphile-worker: ${message}`);
});

/**
 * Installs or upgrades graphile-worker's own schema (`graphile_worker`) with the owner
 * connection. Runs after the checked-in migrations, on the platform database and on every
 * DEDICATED tenant's database (both go through migrate()). Idempotent; concurrent starts are
 * handled by graphile-worker's migration table.
 */
export async function installJobQueueSchema(ownerUrl: string): Promise<void> {
  await runMigrations({ connectionString: ownerUrl, maxPoolSize: 1, logger: quietGraphileLogger });
}
