import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { patientFileSchema } from './patients.js';
import { safeName, safeNote, safeText } from './text.js';

/**
 * Medical records (spec §3 Medical record; §2 medical records: add, edit, detail): a patient's
 * examination card, test result, paper prescription, bill or other document, with when and where
 * the examination was and who examined, and its attachments (jpg, png or pdf, checked by their
 * first bytes, up to 10 MB each). The care team writes them; the patient reads them in the app.
 */
export const MEDICAL_RECORD_TYPES = [
  'EXAMINATION_CARD',
  'RESULT_CARD',
  'PRESCRIPTION',
  'BILL',
  'OTHER',
] as const;
export type MedicalRecordType = (typeof MEDICAL_RECORD_TYPES)[number];

/** Attachments one record holds at most: a multi-page result scanned page by page fits. */
export const MEDICAL_RECORD_MAX_FILES = 10;
/** The earliest examination date taken: older is a typing slip. */
export const MEDICAL_RECORD_EARLIEST_DATE = '1900-01-01';

export const medicalRecordInputSchema = z.object({
  title: safeName(200),
  type: z.enum(MEDICAL_RECORD_TYPES),
  /**
   * The day of the examination, in the patient's calendar: from MEDICAL_RECORD_EARLIEST_DATE to
   * today by the patient's time zone (otherwise `medicalRecord.invalidDate`).
   */
  examinationDate: z.iso.date(),
  place: safeText().max(200).optional(),
  doctor: safeText().max(120).optional(),
  note: safeNote(1000).optional(),
});
export type MedicalRecordInput = z.input<typeof medicalRecordInputSchema>;

export const medicalRecordSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  title: z.string(),
  type: z.enum(MEDICAL_RECORD_TYPES),
  examinationDate: z.string(),
  place: z.string().nullable(),
  doctor: z.string().nullable(),
  note: z.string().nullable(),
  /** Oldest first: the order they were added in. */
  files: z.array(patientFileSchema),
  createdBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MedicalRecord = z.infer<typeof medicalRecordSchema>;

export const MEDICAL_RECORD_SORT_FIELDS = ['examinationDate', 'title', 'created'] as const;
export const medicalRecordListQuerySchema = pageQuerySchema.extend({
  search: safeText().max(80).optional().describe('Part of the title, the place or the doctor'),
  type: z.enum(MEDICAL_RECORD_TYPES).optional(),
  sortField: z.enum(MEDICAL_RECORD_SORT_FIELDS).default('examinationDate'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type MedicalRecordListQuery = z.infer<typeof medicalRecordListQuerySchema>;
