import path from 'node:path';
import type { Config } from '../config.js';
import { connectDatabase, type Database } from './database.js';
import { startEmbeddedPostgres } from './embedded.js';
import { deriveAppUrl, ensureDatabase, migrate } from './migrator.js';

export interface PreparedDatabase {
  database: Database;
  /** The owner connection (migrations, the job runner); never used for requests. */
  ownerUrl: string;
  /** Where the database lives, for the start banner (no password). */
  description: string;
  shutdown: () => Promise<void>;
}

const EMBEDDED_DATABASE = 'rpm';

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? '***' : '';
  return parsed.toString();
}

/**
 * Resolves the database the product runs on (embedded PostgreSQL under DATA_DIR/pg, or
 * DATABASE_URL), applies migrations as the owner, then connects as the app role.
 */
export async function prepareDatabase(config: Config, log: (message: string) => void): Promise<PreparedDatabase> {
  let ownerUrl = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (ownerUrl === undefined) {
    const directory = path.join(config.dataDir, 'pg');
    log(`starting embedded PostgreSQL in ${directory} on port ${config.embeddedPostgresPort}`);
    const embedded = await startEmbeddedPostgres({ directory, port: config.embeddedPostgresPort });
    stopEmbedded = embedded.stop;
    await ensureDatabase(embedded.adminUrl, EMBEDDED_DATABASE);
    const url = new URL(embedded.adminUrl);
    url.pathname = `/${EMBEDDED_DATABASE}`;
    ownerUrl = url.toString();
  }
  try {
    const appUser = config.databaseAppUrl === undefined ? undefined : decodeURIComponent(new URL(config.databaseAppUrl).username);
    await migrate({ ownerUrl, secretsKey: config.secretsKey, ...(appUser ? { appUser } : {}), log });
    const database = connectDatabase(config.databaseAppUrl ?? deriveAppUrl(ownerUrl, config.secretsKey), {
      secretsKey: config.secretsKey,
      replicaMaxLagMilliseconds: config.replicaMaxLagMilliseconds,
    });
    return {
      database,
      ownerUrl,
      description: stopEmbedded ? `embedded PostgreSQL (${withoutPassword(ownerUrl)})` : withoutPassword(ownerUrl),
      shutdown: async () => {
        await database.close();
        await stopEmbedded?.();
      },
    };
  } catch (error) {
    await stopEmbedded?.();
    throw error;
  }
}
