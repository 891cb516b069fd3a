import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { bytea, timestamps } from './schema-columns.js';

/** Control plane (migration 0020): hourly counters of the messages public calls cause. */
export const sendQuotaCounters = pgTable(
  'send_quota_counters',
  {
    kind: text().notNull(),
    keyHash: bytea('key_hash').notNull(),
    windowStart: timestamps('window_start').notNull(),
    sends: integer().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.keyHash, table.windowStart] }),
    index('send_quota_counters_window').on(table.windowStart),
  ],
);
