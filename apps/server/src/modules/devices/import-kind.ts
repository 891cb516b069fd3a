import type { ImportKind } from '../imports/kind.js';

/** Device import: account name, MAC, device type, serial (spec §5). */
export const deviceImportKind: ImportKind<unknown> = {
  kind: 'DEVICE',
  headers: [],
  exampleRows: [],
  parseRow: () => ({ ok: false, reasons: ['not implemented'] }),
  insertBatch: async () => [],
};
