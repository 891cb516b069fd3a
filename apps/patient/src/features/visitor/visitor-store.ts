import type { EntryMeasure } from '@rpm/contracts';
import { deleteDB, openDB, type DBSchema } from 'idb';

/**
 * Visitor mode's readings, kept only in this phone's IndexedDB (database rpm-visitor): nothing of
 * it is ever sent. Values are kept as typed, in metric units.
 */
export interface VisitorEntry {
  id?: number;
  measure: EntryMeasure;
  value?: number | undefined;
  systolic?: number | undefined;
  diastolic?: number | undefined;
  /** Epoch milliseconds. */
  measuredAt: number;
}

interface VisitorSchema extends DBSchema {
  entries: { key: number; value: VisitorEntry; indexes: { measuredAt: number } };
}

export const VISITOR_DATABASE = 'rpm-visitor';

function open() {
  return openDB<VisitorSchema>(VISITOR_DATABASE, 1, {
    upgrade(database) {
      const store = database.createObjectStore('entries', { keyPath: 'id', autoIncrement: true });
      store.createIndex('measuredAt', 'measuredAt');
    },
  });
}

export async function addVisitorEntry(entry: VisitorEntry): Promise<void> {
  const database = await open();
  try {
    await database.add('entries', entry);
  } finally {
    database.close();
  }
}

/** Every reading, newest first. */
export async function listVisitorEntries(): Promise<VisitorEntry[]> {
  const database = await open();
  try {
    return (await database.getAllFromIndex('entries', 'measuredAt')).reverse();
  } finally {
    database.close();
  }
}

/** Deletes the whole database: nothing of visitor mode stays on the phone. */
export function deleteVisitorData(): Promise<void> {
  return deleteDB(VISITOR_DATABASE);
}
