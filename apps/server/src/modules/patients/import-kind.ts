import type { ImportKind } from '../imports/kind.js';

/** Bulk patient import: the template's columns and the §5 rules for one row. */
export const patientImportKind: ImportKind<unknown> = {
  kind: 'PATIENT',
  headers: [],
  exampleRows: [],
  parseRow: () => ({ ok: false, reasons: ['not implemented'] }),
  insertBatch: async () => [],
};
