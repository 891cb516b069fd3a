import type { Permission } from './permissions.js';

/** The import kinds and the permission each needs, without any schema (imports.ts re-exports them). */

/** What a bulk import creates (spec §2: patient bulk import, device import). */
export const IMPORT_KINDS = ['PATIENT', 'DEVICE'] as const;
export type ImportKindCode = (typeof IMPORT_KINDS)[number];

/** The permission needed to import (and to see the imports of) each kind. */
export const IMPORT_PERMISSION: Record<ImportKindCode, Permission> = {
  PATIENT: 'user.import',
  DEVICE: 'device.import',
};

/** The kinds a holder of these permissions may import. */
export function importKindsAllowed(permissions: ReadonlySet<string>): ImportKindCode[] {
  return IMPORT_KINDS.filter((kind) => permissions.has(IMPORT_PERMISSION[kind]));
}
