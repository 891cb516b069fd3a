import type { PatientExportQuery } from '@rpm/contracts';
import { resources, type SupportedLanguage } from '@rpm/i18n';
import type { Readable } from 'node:stream';
import { readAsCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import { xlsxStream, type XlsxColumn, type XlsxValue } from '../../lib/xlsx.js';
import { recordPatientReads } from '../audit/reads.js';
import { PATIENT_IMPORT_HEADERS } from './import-kind.js';
import type { PatientEnvironment } from './service.js';
import * as store from './store.js';

const EXPORT_BATCH = 1000;

type PatientsCatalogue = (typeof resources)['en']['patients'];

function catalogueOf(language: SupportedLanguage): PatientsCatalogue {
  return resources[language].patients;
}

/** dd/MM/yyyy (spec §9) from an ISO date or a timestamp. */
export function formatDate(value: string | Date | null): string | null {
  if (value === null) return null;
  const iso = typeof value === 'string' ? value : value.toISOString();
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${day ?? ''}/${month ?? ''}/${year ?? ''}`;
}

/**
 * GET /account/patients/export: every live patient the caller sees, with the list's filters, as
 * an xlsx in the patient import template's columns and formats, so an exported file imports again
 * unchanged (into another center or tenant). Streamed in batches, each read in its own short
 * transaction, so a long download holds no transaction open. export.noData when nothing matches. Audited: a PHI read.
 */
export async function exportPatients(
  environment: PatientEnvironment,
  query: PatientExportQuery,
  language: SupportedLanguage,
): Promise<{ fileName: string; stream: Readable }> {
  const { auth, clock } = environment;
  // An export may be a few seconds old: the tenant's replica may serve its reads; the audit row
  // is written on the primary.
  const ids = await readAsCaller(
    environment.database,
    auth,
    // The ids of the file's rows, read with its filters and order: the audit row names them all.
    (tx) => store.patientIdsOf(tx, { ...query, callerId: auth.userId, visibility: auth.visibility }),
    async (tx, listed) => {
      if (listed.length === 0) return;
      await recordPatientReads(
        tx,
        auth.tenantId,
        environment.audit,
        { action: 'PATIENT_EXPORTED', patientIds: listed, details: { ...query, total: listed.length } },
        clock.now(),
      );
    },
  );
  const total = ids.length;
  if (total === 0) throw new AppError('export.noData');
  const texts = catalogueOf(language);
  const columns: XlsxColumn[] = PATIENT_IMPORT_HEADERS.map((header) => ({
    header,
    width: header === 'Address' ? 40 : header === 'Email' ? 28 : undefined,
  }));

  async function* rows(): AsyncGenerator<XlsxValue[]> {
    for (let offset = 0; offset < total; offset += EXPORT_BATCH) {
      const batch = await readAsCaller(environment.database, auth, (tx) =>
        store.patientBatch(
          tx,
          { ...query, callerId: auth.userId, visibility: auth.visibility },
          offset,
          EXPORT_BATCH,
        ),
      );
      for (const { patient, centerName } of batch) {
        yield [
          patient.patientCode,
          // The template has no middle name: it follows the first name, as in the full name.
          [patient.firstName, patient.middleName].filter((part) => part.trim() !== '').join(' '),
          patient.lastName,
          formatDate(patient.birthday),
          patient.gender === null
            ? null
            : ((texts.gender as Record<string, string>)[patient.gender] ?? patient.gender),
          patient.phone,
          patient.email,
          patient.heightCm,
          patient.weightKg,
          patient.bloodType,
          [
            patient.addressLine,
            patient.addressWard,
            patient.addressDistrict,
            patient.addressProvince,
            patient.addressCountry,
          ]
            .filter((part) => part !== '')
            .join(', '),
          centerName,
          patient.contractId,
        ];
      }
      if (batch.length < EXPORT_BATCH) return;
    }
  }

  const stamp = clock.now().toISOString().slice(0, 10);
  return { fileName: `patients-${stamp}.xlsx`, stream: xlsxStream(texts.export.sheet, columns, rows()) };
}
