import { z } from 'zod';
import { adultBirthdaySchema, BLOOD_TYPES, GENDERS, personNameSchema } from './account.js';
import { emailSchema, phoneSchema } from './auth.js';
import { ALERT_TYPES } from './cases.js';
import { pageOf, pageQuerySchema } from './envelope.js';
import { STATUS_REASON_CODES } from './status-lifecycle.js';
import { safeText } from './text.js';
import { ALERT_LEVELS } from './thresholds.js';

// Patients (spec §2 patient management and profile, §3 Patient and User profile, §4 patient status
// and account deletion, §5 profile and contact data) and the dashboard counts (§7).

export const PATIENT_STATUSES = ['NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS'] as const;
export type PatientStatus = (typeof PATIENT_STATUSES)[number];

/** Worst last: the order of tiles, badges and sorts by severity. */
export const PATIENT_STATUS_SEVERITY: Record<PatientStatus, number> = {
  NORMAL: 0,
  AT_RISK: 1,
  HIGH_RISK: 2,
  SOS: 3,
};

/**
 * The manual status changes staff may make (spec §4: from one status to another, with a reason).
 * SOS is entered by the alert flow (the SOS button, automatic detection), never by hand; a patient
 * leaves SOS by hand once the case is handled. A change to the same status is refused
 * (patient.cannotChangeStatus), as is any change of a deleted (DISABLED) account.
 */
export const PATIENT_STATUS_TRANSITIONS: Record<PatientStatus, readonly PatientStatus[]> = {
  NORMAL: ['AT_RISK', 'HIGH_RISK'],
  AT_RISK: ['NORMAL', 'HIGH_RISK'],
  HIGH_RISK: ['NORMAL', 'AT_RISK'],
  SOS: ['NORMAL', 'AT_RISK', 'HIGH_RISK'],
};

export function isPatientStatus(value: string): value is PatientStatus {
  return (PATIENT_STATUSES as readonly string[]).includes(value);
}

export function canChangePatientStatus(from: PatientStatus, to: PatientStatus): boolean {
  return PATIENT_STATUS_TRANSITIONS[from].includes(to);
}

/** ACTIVE, or DISABLED once deletion was asked for (data removed after LIMITS.accountDeletionDays). */
export const PATIENT_ACCOUNT_STATES = ['ACTIVE', 'DISABLED'] as const;
/** patients.account_kind: a main account, or a sub-user profile held by another account. */
export const PATIENT_ACCOUNT_KINDS = ['MAIN', 'SUB_USER'] as const;
export type PatientAccountState = (typeof PATIENT_ACCOUNT_STATES)[number];

export const PATIENT_CODE_PREFIX = 'BNCS';

// Shared field rules ------------------------------------------------------------------------

/** PostgreSQL text cannot hold NUL, and no field of a patient needs control characters. */
function hasNoControlCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 32 || code === 127) return false;
  }
  return true;
}
const controlCharacterIssue = { error: 'must not contain control characters' };
const plainText = (max: number) =>
  z.string().trim().max(max).refine(hasNoControlCharacters, controlCharacterIssue);
/** Multi-line text (notes): line breaks and tabs are fine, other control characters are not. */
const noteText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => hasNoControlCharacters(value.replace(/[\n\r\t]/g, ' ')), controlCharacterIssue);

const nameSchema = personNameSchema.refine(hasNoControlCharacters, controlCharacterIssue);
const optionalNameSchema = safeText()
  .max(60)
  .regex(/^[^\d]*$/, { error: 'must not contain digits' });

/** Patient id: letters, digits and dashes (for example BNCS10001), unique in the tenant. */
export const patientCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(30)
  .regex(/^[A-Za-z0-9-]+$/, { error: 'letters, digits and dashes only' })
  .describe('Patient id, for example BNCS10001 (unique in the tenant)');

/** Contract id: unique in the tenant when set; cannot be changed once set (spec §4). */
export const contractIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9/_.-]+$/, { error: 'letters, digits and - _ . / only' });

/** Height in centimetres and weight in kilograms, within what a person can measure. */
export const PATIENT_BODY_LIMITS = {
  heightCm: { above: 0, below: 300 },
  weightKg: { above: 1, below: 700 },
} as const;
export const heightSchema = z
  .number()
  .gt(PATIENT_BODY_LIMITS.heightCm.above)
  .lt(PATIENT_BODY_LIMITS.heightCm.below);
export const weightSchema = z
  .number()
  .gt(PATIENT_BODY_LIMITS.weightKg.above)
  .lt(PATIENT_BODY_LIMITS.weightKg.below);

export const patientAddressSchema = z.object({
  line: plainText(200).default(''),
  ward: plainText(80).default(''),
  district: plainText(80).default(''),
  province: plainText(80).default(''),
  country: plainText(80).default(''),
});
export type PatientAddress = z.infer<typeof patientAddressSchema>;

/** The identifier rule's message (also the console's key for it). */
export const IDENTIFIER_REQUIRED_MESSAGE = 'enter a patient id, a phone number or an email';

const patientFieldsSchema = z.object({
  patientCode: patientCodeSchema
    .nullish()
    .describe('Patient id; left out on create, the next one of the tenant sequence (BNCS10001…) is given'),
  firstName: nameSchema,
  middleName: optionalNameSchema.default(''),
  lastName: nameSchema,
  birthday: adultBirthdaySchema.describe(
    'yyyy-MM-dd, not in the future, at least 18 years ago (patient.underage)',
  ),
  gender: z.enum(GENDERS),
  phone: phoneSchema.nullish().describe('3 to 16 digits, unique in the tenant'),
  email: emailSchema.nullish().describe('Unique in the tenant'),
  heightCm: heightSchema.nullish(),
  weightKg: weightSchema.nullish(),
  bloodType: z.enum(BLOOD_TYPES).nullish(),
  address: patientAddressSchema.default({ line: '', ward: '', district: '', province: '', country: '' }),
  medicalNotes: noteText(4000).default(''),
  healthCenterId: z
    .uuid()
    .nullish()
    .describe('A health center the caller sees; callers of one center may leave it out'),
  contractId: contractIdSchema
    .nullish()
    .describe('Unique in the tenant; cannot be changed once set (patient.contractIdLocked)'),
  packageCode: plainText(40).nullish(),
  packageExpiresAt: z.iso.date().nullish(),
});

/** At least one of patient id, phone, email (spec §5; patient.identifierRequired). */
export function hasPatientIdentifier(value: {
  patientCode?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
}): boolean {
  return Boolean(value.patientCode) || Boolean(value.phone) || Boolean(value.email);
}
const identifierIssue = { error: IDENTIFIER_REQUIRED_MESSAGE, path: ['phone'] };

/**
 * POST /account/patients. The input names the patient by at least one of patient id, phone or
 * email; without a patient id the tenant's sequence gives the next one (BNCS10001…).
 */
export const patientCreateSchema = patientFieldsSchema.refine(hasPatientIdentifier, identifierIssue);
export type PatientCreate = z.infer<typeof patientCreateSchema>;
export type PatientCreateInput = z.input<typeof patientCreateSchema>;

/** PUT /account/patients/:id: the whole record again. The patient id stays unless given. */
export const patientUpdateSchema = patientFieldsSchema.refine(hasPatientIdentifier, identifierIssue);
export type PatientUpdate = z.infer<typeof patientUpdateSchema>;

// Lists -------------------------------------------------------------------------------------

export const PATIENT_SORT_FIELDS = ['name', 'code', 'status', 'created', 'birthday', 'severity'] as const;
export type PatientSortField = (typeof PATIENT_SORT_FIELDS)[number];

/**
 * Triage: how much a patient needs attention now, worst first. An open SOS case comes before the
 * SOS status alone; NO_DATA is a NORMAL patient whose bound watch stopped syncing (device NO_SYNC).
 * Sorting by `severity` (desc) follows this order, then the most recent reading first.
 */
export const PATIENT_ATTENTION_LEVELS = [
  'OPEN_SOS_CASE',
  'SOS',
  'HIGH_RISK',
  'AT_RISK',
  'NO_DATA',
  'NORMAL',
] as const;
export type PatientAttention = (typeof PATIENT_ATTENTION_LEVELS)[number];

export function attentionOf(patient: {
  status: PatientStatus;
  openSosCaseId: string | null;
  noData: boolean;
}): PatientAttention {
  if (patient.openSosCaseId !== null) return 'OPEN_SOS_CASE';
  if (patient.status !== 'NORMAL') return patient.status;
  return patient.noData ? 'NO_DATA' : 'NORMAL';
}

/**
 * Whose patients: `mine` is the caller's care team (a doctor's patients in patient_doctors, an
 * assistant's those of the doctors they assist in doctor_assistants); `center` is every patient the
 * caller's level sees. Both stay within what the caller sees.
 */
export const PATIENT_LIST_SCOPES = ['mine', 'center'] as const;
export type PatientListScope = (typeof PATIENT_LIST_SCOPES)[number];

export const patientListQuerySchema = pageQuerySchema.extend({
  search: plainText(80)
    .optional()
    .describe(
      'Words, each the start of a word of the name or patient id (diacritics and case aside), the first or last digits of the phone, or the email from its start',
    ),
  status: z.enum(PATIENT_STATUSES).optional(),
  centerId: z.uuid().optional().describe('Only patients of this health center'),
  doctorId: z.uuid().optional().describe('Only patients with this doctor in their care team'),
  packageCode: plainText(40).optional().describe('Only patients on this package'),
  scope: z
    .enum(PATIENT_LIST_SCOPES)
    .default('center')
    .describe(
      'mine: the caller’s care team (doctor, or the doctors an assistant assists); center: all the caller sees',
    ),
  sortField: z
    .enum(PATIENT_SORT_FIELDS)
    .default('created')
    .describe(
      'severity: open SOS case, SOS, HIGH_RISK, AT_RISK, no data, NORMAL (desc: worst first), then latest reading',
    ),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type PatientListQuery = z.infer<typeof patientListQuerySchema>;
/** The export takes the list's filters, without paging. */
export const patientExportQuerySchema = patientListQuerySchema.omit({ page: true, size: true });
export type PatientExportQuery = z.infer<typeof patientExportQuerySchema>;

const centerRefSchema = z.object({ id: z.uuid(), name: z.string() });

/** What every view of a patient record says (the list adds triage, the profile the rest). */
const patientRecordSchema = z.object({
  id: z.uuid(),
  patientCode: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(PATIENT_STATUSES),
  birthday: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  healthCenter: centerRefSchema.nullable(),
  packageCode: z.string().nullable(),
  createdAt: z.iso.datetime(),
  accountState: z.enum(PATIENT_ACCOUNT_STATES),
  /** MAIN: an account of its own; SUB_USER: a profile held by another account (spec §3 Sub-user). */
  accountKind: z.enum(PATIENT_ACCOUNT_KINDS),
  /** A sub-user's holder: the account's name and its own patient record if the caller sees it. */
  holder: z.object({ name: z.string(), patientId: z.uuid().nullable() }).nullable(),
});

/** A row of the patient list: the record and its triage columns. */
export const patientSummarySchema = patientRecordSchema.extend({
  /** Triage (PATIENT_ATTENTION_LEVELS). */
  attention: z.enum(PATIENT_ATTENTION_LEVELS),
  /** A bound watch of the patient stopped syncing (device NO_SYNC). */
  noData: z.boolean(),
  lastReadingAt: z.iso.datetime().nullable(),
  /** Seconds from the last reading to the server's now (null without a reading). */
  lastReadingAgeSeconds: z.number().int().nullable(),
  /**
   * What crossed: the latest alert not yet resolved (OPEN or ACKNOWLEDGED), with the readings that
   * reached its level (canonical units; two for blood pressure, none for a fall or a call).
   */
  crossed: z
    .object({
      alertId: z.uuid(),
      type: z.enum(ALERT_TYPES),
      level: z.enum(ALERT_LEVELS),
      readings: z.array(z.object({ measure: z.string(), value: z.number(), measuredAt: z.iso.datetime() })),
      raisedAt: z.iso.datetime(),
    })
    .nullable(),
  openSosCaseId: z.uuid().nullable(),
  /** The most recent ticket neither closed (SUCCESS) nor canceled. */
  openTicketId: z.uuid().nullable(),
  /** Doses of the care plan left unanswered (unconfirmed) in the last 24 hours. */
  missedDoses: z.number().int(),
});
export type PatientSummary = z.infer<typeof patientSummarySchema>;

/**
 * A page of the patient list. A search over many patients stops counting its matches once there
 * are more than the page needs: `total` is then a lower bound ("more than 2,000"), and
 * `isTotalExact` false.
 */
export const patientPageSchema = pageOf(patientSummarySchema).extend({
  isTotalExact: z
    .boolean()
    .describe('False when a search stopped counting: there are more matches than `total`'),
});
export type PatientPageResponse = z.infer<typeof patientPageSchema>;

export const patientDetailSchema = patientRecordSchema.extend({
  middleName: z.string(),
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  bloodType: z.enum(BLOOD_TYPES).nullable(),
  address: z.object({
    line: z.string(),
    ward: z.string(),
    district: z.string(),
    province: z.string(),
    country: z.string(),
  }),
  medicalNotes: z.string(),
  contractId: z.string().nullable(),
  packageExpiresAt: z.string().nullable(),
  hasAvatar: z.boolean(),
  /** The patient's own login, when they have one. */
  userId: z.uuid().nullable(),
  updatedAt: z.iso.datetime(),
  /** Which statuses a manual change may go to now (none for a deleted account). */
  allowedStatuses: z.array(z.enum(PATIENT_STATUSES)),
});
export type PatientDetail = z.infer<typeof patientDetailSchema>;

// Status, deletion, files ---------------------------------------------------------------------

/** The status is checked by the service, so an unknown one answers patient.invalidStatus. */
export const patientStatusChangeSchema = z.object({
  status: z
    .string()
    .trim()
    .max(40)
    .describe(
      'NORMAL, AT_RISK, HIGH_RISK or SOS, as PATIENT_STATUS_TRANSITIONS allows (patient.invalidStatus, patient.cannotChangeStatus)',
    ),
  reason: noteText(1000).optional().describe('Required (patient.reasonRequired)'),
});
export type PatientStatusChange = z.infer<typeof patientStatusChangeSchema>;

const personRefSchema = z.object({ id: z.uuid(), fullName: z.string() });

export const patientStatusHistoryEntrySchema = z.object({
  id: z.uuid(),
  fromStatus: z.enum(PATIENT_STATUSES),
  toStatus: z.enum(PATIENT_STATUSES),
  reason: z.string(),
  reasonCode: z
    .enum(STATUS_REASON_CODES)
    .nullable()
    .describe(
      'Why, as data: the console renders patients:statusReasons.<code> with reasonParams (null: manual or older rows, show reason)',
    ),
  reasonParams: z.record(z.string(), z.union([z.string(), z.number()])),
  changedBy: personRefSchema.nullable(),
  changedAt: z.iso.datetime(),
});
export type PatientStatusHistoryEntry = z.infer<typeof patientStatusHistoryEntrySchema>;

/** DELETE /account/patients/:id: the patient id typed again, to confirm an irreversible step. */
export const patientDeleteSchema = z.object({
  confirmPatientCode: z.string().trim().min(1).max(30).describe('The patient id, typed again to confirm'),
  reason: noteText(500).optional(),
});
export type PatientDelete = z.infer<typeof patientDeleteSchema>;

export const patientDeletionSchema = z.object({
  id: z.uuid(),
  accountState: z.enum(PATIENT_ACCOUNT_STATES),
  deletionRequestedAt: z.iso.datetime(),
  purgeAfter: z.iso.datetime(),
});

/** Attached files: jpg, png, pdf (checked by their first bytes), up to 10 MB. */
export const PATIENT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const PATIENT_FILE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

export const patientFileSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  contentType: z.enum(PATIENT_FILE_TYPES),
  size: z.number().int(),
  uploadedBy: personRefSchema.nullable(),
  uploadedAt: z.iso.datetime(),
});
export type PatientFile = z.infer<typeof patientFileSchema>;

// Dashboard (spec §7) -----------------------------------------------------------------------------

export const patientStatusCountsSchema = z.object({
  NORMAL: z.number().int(),
  AT_RISK: z.number().int(),
  HIGH_RISK: z.number().int(),
  SOS: z.number().int(),
  total: z.number().int(),
});
export type PatientStatusCounts = z.infer<typeof patientStatusCountsSchema>;

const countScopeSchema = z
  .enum(PATIENT_LIST_SCOPES)
  .describe('Same as the patient list’s scope: its totals by status equal these counts');
export const operatorCountQuerySchema = z.object({
  mhscId: z.uuid().optional().describe('Only this health center (within what the caller sees)'),
  scope: countScopeSchema.default('center'),
});
/** The doctor's and the assistant's counts: their care team unless asked for the whole center. */
export const clinicalCountQuerySchema = z.object({
  mhscId: z.uuid().optional().describe('Only this health center (within what the caller sees)'),
  scope: countScopeSchema.default('mine'),
});
export const centerCountQuerySchema = z.object({ mhscId: z.uuid().describe('The health center') });
