/**
 * The patient app's family doctor and specialists (spec §2 patient app: doctor search and detail,
 * requests; §3 contact types Family Doctor and Specialist; §4 requests): the shapes of the calls
 * under /health/me shared by the server and the app. A patient sees what helps choose a doctor
 * (no staff e-mail or phone, no license images); the requests are the console's care requests.
 */
import { z } from 'zod';
import {
  CARE_RELATIONS,
  DOCTOR_KINDS,
  LICENSE_STATES,
  SPECIALTY_CODES,
  careRequestCreateSchema,
  careRequestListQuerySchema,
  doctorListQuerySchema,
} from './doctors.js';
import { pageQuerySchema } from './envelope.js';

/** GET /health/me/doctors: the tenant's active doctors, by name, specialty and kind, paged. */
export const appDoctorListQuerySchema = pageQuerySchema.extend({
  search: doctorListQuerySchema.shape.search.describe('Part of the doctor’s name'),
  specialty: z.enum(SPECIALTY_CODES).optional(),
  kind: z.enum(DOCTOR_KINDS).optional(),
});
export type AppDoctorListQuery = z.infer<typeof appDoctorListQuerySchema>;

/** One doctor in the search: what a patient compares doctors by. */
export const appDoctorSummarySchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  specialties: z.array(z.enum(SPECIALTY_CODES)),
  degreeCode: z.number().int().min(1).max(7).nullable(),
  kind: z.enum(DOCTOR_KINDS),
  yearsOfExperience: z.number().int().nullable(),
  ratingAverage: z.number(),
  ratingCount: z.number().int(),
  centerName: z.string().nullable(),
});
export type AppDoctorSummary = z.infer<typeof appDoctorSummarySchema>;

/** A license as a patient sees it: its name, last day and whether that day has passed. */
export const appDoctorLicenseSchema = z.object({
  name: z.string(),
  expiresOn: z.iso.date(),
  expired: z.boolean(),
});

/** A request for the caller's record to this doctor still waiting for the doctor's answer. */
export const appWaitingRequestSchema = z.object({
  id: z.uuid(),
  relation: z.enum(CARE_RELATIONS),
  createdAt: z.iso.datetime(),
  /** The caller sent it (staff may have filed it for the patient): only the sender cancels. */
  canCancel: z.boolean(),
});

/** GET /health/me/doctors/:id. */
export const appDoctorDetailSchema = appDoctorSummarySchema.extend({
  placeOfEducation: z.string(),
  examinationCost: z.number().nullable(),
  officeAddress: z.string(),
  officeEmail: z.string(),
  officePhone: z.string(),
  introduction: z.string(),
  licenses: z.array(appDoctorLicenseSchema),
  licenseState: z.enum(LICENSE_STATES),
  /** The doctor's place on the caller's care team, or null when not on it. */
  careTeamRelation: z.enum(CARE_RELATIONS).nullable(),
  /** The caller's request to this doctor still waiting for the doctor's answer, if any. */
  waitingRequest: appWaitingRequestSchema.nullable(),
});
export type AppDoctorDetail = z.infer<typeof appDoctorDetailSchema>;

/** GET /health/me/care-team: the family doctor first, then the specialists by name. */
export const appCareTeamEntrySchema = z.object({
  doctor: appDoctorSummarySchema,
  relation: z.enum(CARE_RELATIONS),
  assignedAt: z.iso.datetime(),
});
export type AppCareTeamEntry = z.infer<typeof appCareTeamEntrySchema>;
export const appCareTeamSchema = z.array(appCareTeamEntrySchema);

/** POST /health/me/requests: the caller asks a doctor to be their family doctor or a specialist. */
export const appCareRequestCreateSchema = careRequestCreateSchema
  .pick({ relation: true, message: true })
  .extend({ doctorId: z.uuid() });
export type AppCareRequestCreate = z.infer<typeof appCareRequestCreateSchema>;
export type AppCareRequestInput = z.input<typeof appCareRequestCreateSchema>;

/** GET /health/me/requests: sent (by the caller) or received (doctors' requests to the caller). */
export const appCareRequestListQuerySchema = careRequestListQuerySchema.pick({
  page: true,
  size: true,
  box: true,
  status: true,
});
export type AppCareRequestListQuery = z.infer<typeof appCareRequestListQuerySchema>;
