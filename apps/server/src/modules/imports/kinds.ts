import { deviceImportKind } from '../devices/import-kind.js';
import { patientImportKind } from '../patients/import-kind.js';
import type { ImportKindRegistry } from './service.js';

/** The kinds of bulk import the product offers, by the code stored on their jobs. */
export const IMPORT_KIND_REGISTRY: ImportKindRegistry = {
  PATIENT: patientImportKind,
  DEVICE: deviceImportKind,
};
