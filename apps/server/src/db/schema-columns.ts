import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers shared by every schema file. */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
export const timestamps = (name?: string) =>
  name === undefined ? timestamp({ withTimezone: true, mode: 'date' }) : timestamp(name, { withTimezone: true, mode: 'date' });
