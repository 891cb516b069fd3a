import {
  MEDICAL_RECORD_EARLIEST_DATE,
  MEDICAL_RECORD_MAX_FILES,
  PATIENT_FILE_MAX_BYTES,
  PATIENT_FILE_TYPES,
  type MedicalRecord,
  type MedicalRecordType,
} from '@rpm/contracts';
import type { FieldMessage } from '../../lib/form-errors';
import { displayDateForSchema, toDisplayDate } from '../../lib/format';

/** What the medical record form holds: text as typed, the date as dd/MM/yyyy, no type chosen yet. */
export interface RecordValues {
  title: string;
  type: MedicalRecordType | null;
  examinationDate: string;
  place: string;
  doctor: string;
  note: string;
}

export const emptyRecordValues = (): RecordValues => ({
  title: '',
  type: null,
  examinationDate: '',
  place: '',
  doctor: '',
  note: '',
});

export function recordValuesOf(record: MedicalRecord): RecordValues {
  return {
    title: record.title,
    type: record.type,
    examinationDate: toDisplayDate(record.examinationDate),
    place: record.place ?? '',
    doctor: record.doctor ?? '',
    note: record.note ?? '',
  };
}

/** An optional text left blank is not sent (the record has none). */
const optional = (text: string) => (text.trim() === '' ? undefined : text);

/**
 * What the form hands to the contract's schema (medicalRecordInputSchema): no type chosen is
 * missing (so "required"), the date as ISO when it is a real one (else as typed, "not a date").
 */
export function recordCandidate(values: RecordValues) {
  return {
    title: values.title,
    type: values.type ?? undefined,
    examinationDate: displayDateForSchema(values.examinationDate),
    place: optional(values.place),
    doctor: optional(values.doctor),
    note: optional(values.note),
  };
}

/**
 * The examination date's range (spec §3): from MEDICAL_RECORD_EARLIEST_DATE to `today` (the
 * patient's calendar day as the console knows it; the server, knowing the patient's zone, decides).
 * `isoDay` is a real day already checked by the schema.
 */
export function examinationDateMessage(isoDay: string, today: string): FieldMessage | null {
  // The server's own words for the range (the errors catalogue is always loaded).
  if (isoDay < MEDICAL_RECORD_EARLIEST_DATE) return { key: 'errors:medicalRecord.invalidDate' };
  if (isoDay > today) return { key: 'form.dateFuture' };
  return null;
}

/** The accepted types by name too: a browser may not know a file's type (an empty `type`). */
const EXTENSIONS = /\.(jpe?g|png|pdf)$/i;

function isAcceptedType(file: { name: string; type: string }): boolean {
  if (file.type === '') return EXTENSIONS.test(file.name);
  return (PATIENT_FILE_TYPES as readonly string[]).includes(file.type);
}

/** Why a picked file was not taken: the file's name (none when over the count) and the message. */
export interface RefusedFile {
  name: string | null;
  message: FieldMessage;
}

/**
 * Files picked to attach, checked before anything is sent: a jpg, png or pdf of at most 10 MB
 * each, and at most MEDICAL_RECORD_MAX_FILES on the record (those it has and those waiting).
 * Answers the files taken and why the others were not, in the order picked, in the server's own
 * words (`errors` catalogue).
 */
export function checkPickedFiles<F extends { name: string; type: string; size: number }>(
  picked: readonly F[],
  alreadyOnRecord: number,
): { accepted: F[]; refused: RefusedFile[] } {
  const accepted: F[] = [];
  const refused: RefusedFile[] = [];
  let room = MEDICAL_RECORD_MAX_FILES - alreadyOnRecord;
  let isOverCount = false;
  for (const file of picked) {
    if (!isAcceptedType(file))
      refused.push({ name: file.name, message: { key: 'errors:file.unsupportedType' } });
    else if (file.size > PATIENT_FILE_MAX_BYTES)
      refused.push({ name: file.name, message: { key: 'errors:file.tooLarge' } });
    else if (room <= 0) isOverCount = true;
    else {
      accepted.push(file);
      room--;
    }
  }
  if (isOverCount) refused.push({ name: null, message: { key: 'errors:medicalRecord.tooManyFiles' } });
  return { accepted, refused };
}

/** "PDF", "PNG", "JPG": a file's kind as people name it. */
export function fileKindOf(contentType: string): string {
  if (contentType === 'application/pdf') return 'PDF';
  if (contentType === 'image/png') return 'PNG';
  return 'JPG';
}
