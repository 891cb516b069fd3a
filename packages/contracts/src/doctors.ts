import { z } from 'zod';
import { ACCOUNT_STATUSES } from './account.js';
import { emailSchema, phoneSchema } from './auth.js';
import { pageQuerySchema } from './envelope.js';
import { LIMITS } from './limits.js';
import { safeName } from './text.js';

// Doctors (spec §3 Doctor), care teams (spec §3 contact types Family Doctor and Specialist) and
// the requests between patients and doctors (spec §4). Labels are `doctors:` keys in @rpm/i18n.

/** The specialty catalogue (spec §3: about 60 kinds). Label: `specialty.<CODE>`. */
export const SPECIALTY_CODES = [
  'ALLERGY_IMMUNOLOGY',
  'ANESTHESIOLOGY',
  'ANDROLOGY',
  'CARDIOLOGY',
  'CARDIOTHORACIC_SURGERY',
  'CLINICAL_NUTRITION',
  'DERMATOLOGY',
  'EMERGENCY_MEDICINE',
  'ENDOCRINOLOGY',
  'ENT',
  'FAMILY_MEDICINE',
  'GASTROENTEROLOGY',
  'GENERAL_SURGERY',
  'GENETICS',
  'GERIATRICS',
  'GYNECOLOGY',
  'HEMATOLOGY',
  'HEPATOLOGY',
  'INFECTIOUS_DISEASES',
  'INTERNAL_MEDICINE',
  'INTENSIVE_CARE',
  'NEPHROLOGY',
  'NEUROLOGY',
  'NEUROSURGERY',
  'NUCLEAR_MEDICINE',
  'OBSTETRICS',
  'OCCUPATIONAL_MEDICINE',
  'ONCOLOGY',
  'OPHTHALMOLOGY',
  'ORTHOPEDICS',
  'PAIN_MEDICINE',
  'PALLIATIVE_CARE',
  'PATHOLOGY',
  'PEDIATRICS',
  'PEDIATRIC_CARDIOLOGY',
  'PHYSICAL_REHABILITATION',
  'PLASTIC_SURGERY',
  'PSYCHIATRY',
  'PSYCHOLOGY',
  'PULMONOLOGY',
  'RADIOLOGY',
  'RHEUMATOLOGY',
  'SLEEP_MEDICINE',
  'SPORTS_MEDICINE',
  'TRADITIONAL_MEDICINE',
  'TROPICAL_MEDICINE',
  'UROLOGY',
  'VASCULAR_SURGERY',
  'DENTISTRY',
  'ORAL_SURGERY',
  'DIABETOLOGY',
  'HYPERTENSION',
  'ELECTROPHYSIOLOGY',
  'INTERVENTIONAL_CARDIOLOGY',
  'CLINICAL_PHARMACOLOGY',
  'TOXICOLOGY',
  'PREVENTIVE_MEDICINE',
  'GENERAL_PRACTICE',
  'NURSING',
  'LABORATORY_MEDICINE',
] as const;
export type SpecialtyCode = (typeof SPECIALTY_CODES)[number];
export const isSpecialtyCode = (code: string): code is SpecialtyCode =>
  (SPECIALTY_CODES as readonly string[]).includes(code);

/** Spec §3 degree codes. Label: `degree.<code>`. */
export const DEGREE_CODES = {
  1: 'MEDICAL_DOCTOR',
  2: 'MASTER_OF_SCIENCE',
  3: 'DOCTOR_OF_PHILOSOPHY',
  4: 'LEVEL_1_DOCTOR',
  5: 'LEVEL_2_DOCTOR',
  6: 'ASSOCIATE_PROFESSOR',
  7: 'PROFESSOR',
} as const;
export type DegreeCode = keyof typeof DEGREE_CODES;
export const DEGREE_CODE_VALUES = [1, 2, 3, 4, 5, 6, 7] as const satisfies readonly DegreeCode[];

/** A doctor's role on care teams (spec §3 "family doctor or specialist"). */
export const DOCTOR_KINDS = ['FAMILY_DOCTOR', 'SPECIALIST'] as const;
export type DoctorKind = (typeof DOCTOR_KINDS)[number];
/** How a doctor is related to a patient (spec §3 contact types Family Doctor, Specialist). */
export const CARE_RELATIONS = ['FAMILY', 'SPECIALIST'] as const;
export type CareRelation = (typeof CARE_RELATIONS)[number];
/** Whether a doctor holds a license that has not expired (server clock), only expired ones, or none. */
export const LICENSE_STATES = ['VALID', 'EXPIRED', 'NONE'] as const;
export type LicenseState = (typeof LICENSE_STATES)[number];

// Requests ----------------------------------------------------------------------------------------

/** PATIENT_REQUEST: patient (or staff for them) to a doctor; DOCTOR_REQUEST: doctor to a patient. */
export const CARE_REQUEST_KINDS = ['PATIENT_REQUEST', 'DOCTOR_REQUEST'] as const;
export type CareRequestKind = (typeof CARE_REQUEST_KINDS)[number];
/** Spec §4 contact request codes, plus CANCELED by the requester. */
export const CARE_REQUEST_STATUSES = ['WAITING', 'APPROVED', 'REJECTED', 'CANCELED'] as const;
export type CareRequestStatus = (typeof CARE_REQUEST_STATUSES)[number];

/**
 * The request state machine (spec §4): only a WAITING request changes; the recipient approves
 * or rejects (a reason required), the requester cancels. Nothing leaves a final state
 * (request.alreadyDecided).
 */
export const CARE_REQUEST_TRANSITIONS = {
  approve: { from: ['WAITING'], to: 'APPROVED', by: 'recipient', reasonRequired: false },
  reject: { from: ['WAITING'], to: 'REJECTED', by: 'recipient', reasonRequired: true },
  cancel: { from: ['WAITING'], to: 'CANCELED', by: 'requester', reasonRequired: false },
} as const satisfies Record<
  string,
  {
    from: readonly CareRequestStatus[];
    to: CareRequestStatus;
    by: 'recipient' | 'requester';
    reasonRequired: boolean;
  }
>;
export type CareRequestAction = keyof typeof CARE_REQUEST_TRANSITIONS;

export function canTransition(action: CareRequestAction, from: CareRequestStatus): boolean {
  return (CARE_REQUEST_TRANSITIONS[action].from as readonly CareRequestStatus[]).includes(from);
}

// Shared pieces -----------------------------------------------------------------------------------

function hasNoControlCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 32 || code === 127) return false;
  }
  return true;
}
/** Text without control characters (PostgreSQL text cannot hold NUL); line breaks allowed when asked. */
const plainText = (max: number, options: { multiline?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(
      (value) => hasNoControlCharacters(options.multiline === true ? value.replace(/[\r\n\t]/g, ' ') : value),
      { error: 'must not contain control characters' },
    );

const namedRefSchema = z.object({ id: z.uuid(), name: z.string() });
const personRefSchema = z.object({ id: z.uuid(), fullName: z.string() });
const isoDateSchema = z.iso.date();

// Doctors -----------------------------------------------------------------------------------------

export const DOCTOR_SORT_FIELDS = ['name', 'experience', 'rating', 'created'] as const;
export const doctorListQuerySchema = pageQuerySchema.extend({
  search: plainText(80).optional().describe('Part of the name, email or phone number'),
  specialty: z.enum(SPECIALTY_CODES).optional(),
  centerId: z.uuid().optional().describe('Only doctors of this health center'),
  kind: z.enum(DOCTOR_KINDS).optional(),
  licenseState: z.enum(LICENSE_STATES).optional(),
  sortField: z.enum(DOCTOR_SORT_FIELDS).default('name'),
  sortType: z.enum(['asc', 'desc']).default('asc'),
});
export type DoctorListQuery = z.infer<typeof doctorListQuerySchema>;

export const doctorSummarySchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  center: namedRefSchema.nullable(),
  /** False until the doctor or an admin fills the profile (spec §8 "has no profile"). */
  hasProfile: z.boolean(),
  specialties: z.array(z.enum(SPECIALTY_CODES)),
  degreeCode: z.number().int().min(1).max(7).nullable(),
  kind: z.enum(DOCTOR_KINDS),
  yearsOfExperience: z.number().int().nullable(),
  ratingAverage: z.number(),
  ratingCount: z.number().int(),
  licenseState: z.enum(LICENSE_STATES),
  createdAt: z.iso.datetime(),
});
export type DoctorSummary = z.infer<typeof doctorSummarySchema>;

export const doctorLicenseSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  expiresOn: isoDateSchema,
  /** Flagged by the server's clock: the license's last day is before today (UTC). */
  expired: z.boolean(),
  hasImage: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type DoctorLicense = z.infer<typeof doctorLicenseSchema>;

export const doctorProfileSchema = doctorSummarySchema.extend({
  placeOfEducation: z.string(),
  examinationCost: z.number().nullable(),
  officeAddress: z.string(),
  officeEmail: z.string(),
  officePhone: z.string(),
  introduction: z.string(),
  licenses: z.array(doctorLicenseSchema),
  /** Patients on whose care team the doctor is. */
  patientsCount: z.number().int(),
  assistants: z.array(personRefSchema),
  updatedAt: z.iso.datetime().nullable(),
});
export type DoctorProfile = z.infer<typeof doctorProfileSchema>;

/**
 * A doctor's profile (admins: PUT /account/doctors/:id/profile; the doctor: POST
 * /account/doctor/v2/register/qualification). Specialties are checked by the server so that an
 * unknown code and a sixth one have their own answers (doctor.unknownSpecialty,
 * doctor.tooManySpecialties).
 */
export const doctorProfileUpdateSchema = z.object({
  specialties: z
    .array(z.string().trim().max(60))
    .max(60)
    .default([])
    .describe(`Specialty codes, at most ${String(LIMITS.maxSpecialtiesPerDoctor)}`),
  degreeCode: z.number().int().min(1).max(7).nullable().default(null),
  placeOfEducation: plainText(200).default(''),
  yearsOfExperience: z.number().int().min(0).max(80).nullable().default(null),
  examinationCost: z.number().min(0).max(1_000_000_000).nullable().default(null),
  officeAddress: plainText(300).default(''),
  officeEmail: z.union([z.literal(''), emailSchema]).default(''),
  officePhone: z.union([z.literal(''), phoneSchema]).default(''),
  introduction: plainText(2000, { multiline: true }).default(''),
  kind: z.enum(DOCTOR_KINDS).default('SPECIALIST'),
});
export type DoctorProfileUpdate = z.infer<typeof doctorProfileUpdateSchema>;
export type DoctorProfileInput = z.input<typeof doctorProfileUpdateSchema>;

/** The text fields of the license form (multipart: these plus the image part `image`). */
export const doctorLicenseFieldsSchema = z.object({
  name: safeName(120).describe('The license’s name as printed on it'),
  expiresOn: isoDateSchema.describe('The last day the license is valid (YYYY-MM-DD)'),
});
export type DoctorLicenseFields = z.infer<typeof doctorLicenseFieldsSchema>;
/** The license image: PNG or JPEG, at most 1 MB (spec §9 profile photo size), recognised by content. */
export const LICENSE_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export const LICENSE_IMAGE_MAX_BYTES = LIMITS.profilePhotoMaxBytes;

// Care teams --------------------------------------------------------------------------------------

export const careTeamDoctorSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  center: namedRefSchema.nullable(),
  specialties: z.array(z.enum(SPECIALTY_CODES)),
  kind: z.enum(DOCTOR_KINDS),
  licenseState: z.enum(LICENSE_STATES),
});
export const careTeamEntrySchema = z.object({
  doctor: careTeamDoctorSchema,
  relation: z.enum(CARE_RELATIONS),
  assignedAt: z.iso.datetime(),
  assignedBy: personRefSchema.nullable(),
});
export type CareTeamEntry = z.infer<typeof careTeamEntrySchema>;
/** The family doctor first, then the specialists by name. */
export const careTeamSchema = z.array(careTeamEntrySchema);

export const careTeamAssignSchema = z.object({
  doctorId: z.uuid(),
  relation: z.enum(CARE_RELATIONS),
  /** With a family doctor already on the team: true replaces them, otherwise careTeam.limitReached. */
  replace: z.boolean().default(false),
});
export type CareTeamAssign = z.infer<typeof careTeamAssignSchema>;

// Requests ----------------------------------------------------------------------------------------

export const careRequestCreateSchema = z.object({
  kind: z.enum(CARE_REQUEST_KINDS),
  patientId: z.uuid(),
  /** PATIENT_REQUEST: the doctor asked. DOCTOR_REQUEST: the calling doctor (may be left out). */
  doctorId: z.uuid().optional(),
  relation: z.enum(CARE_RELATIONS),
  message: plainText(500, { multiline: true }).default(''),
});
export type CareRequestCreate = z.infer<typeof careRequestCreateSchema>;

export const careRequestRejectSchema = z.object({
  reason: plainText(500, { multiline: true }).pipe(z.string().min(1, { error: 'a reason is required' })),
});

export const CARE_REQUEST_BOXES = ['sent', 'received'] as const;
export const careRequestListQuerySchema = pageQuerySchema.extend({
  box: z.enum(CARE_REQUEST_BOXES).default('received'),
  status: z.enum(CARE_REQUEST_STATUSES).optional(),
  kind: z.enum(CARE_REQUEST_KINDS).optional(),
});
export type CareRequestListQuery = z.infer<typeof careRequestListQuerySchema>;

export const careRequestSchema = z.object({
  id: z.uuid(),
  kind: z.enum(CARE_REQUEST_KINDS),
  status: z.enum(CARE_REQUEST_STATUSES),
  relation: z.enum(CARE_RELATIONS),
  message: z.string(),
  rejectReason: z.string().nullable(),
  patient: z.object({ id: z.uuid(), patientCode: z.string(), fullName: z.string() }),
  doctor: personRefSchema,
  requester: personRefSchema,
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  decidedBy: personRefSchema.nullable(),
});
export type CareRequest = z.infer<typeof careRequestSchema>;

// Doctor requests for admins (spec §2 "doctor requests"; §4 a doctor's deactivation and §5 a
// doctor's registration need an admin's approval) ----------------------------------------------------

export const DOCTOR_REQUEST_KINDS = ['REGISTRATION', 'DEACTIVATION'] as const;
export type DoctorRequestKind = (typeof DOCTOR_REQUEST_KINDS)[number];
export const doctorRequestListQuerySchema = pageQuerySchema.extend({
  kind: z.enum(DOCTOR_REQUEST_KINDS).optional(),
  search: plainText(80).optional().describe('Part of the name, email or phone number'),
});
export type DoctorRequestListQuery = z.infer<typeof doctorRequestListQuerySchema>;
export const doctorRequestSchema = z.object({
  /** The doctor's account id: a doctor has at most one pending request. */
  id: z.uuid(),
  kind: z.enum(DOCTOR_REQUEST_KINDS),
  doctor: z.object({
    id: z.uuid(),
    fullName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    center: namedRefSchema.nullable(),
  }),
  requestedAt: z.iso.datetime(),
  /** DEACTIVATION: the end asked for (null: indefinitely). */
  until: z.iso.datetime().nullable(),
});
export type DoctorRequest = z.infer<typeof doctorRequestSchema>;
export const doctorRequestApproveSchema = z.object({
  /** REGISTRATION of a doctor without a health center: the center they join (required then). */
  centerId: z.uuid().optional(),
});
export const doctorRequestRejectSchema = careRequestRejectSchema;
