import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  careRequestCreateSchema,
  careRequestListQuerySchema,
  careRequestRejectSchema,
  careRequestSchema,
  careTeamAssignSchema,
  careTeamSchema,
  deactivatedDoctorListQuerySchema,
  deactivatedDoctorSchema,
  doctorLicenseFieldsSchema,
  doctorListQuerySchema,
  doctorProfileSchema,
  doctorProfileUpdateSchema,
  doctorRequestApproveSchema,
  doctorRequestListQuerySchema,
  doctorRequestRejectSchema,
  doctorRequestSchema,
  doctorSummarySchema,
  pageOf,
  pageQuerySchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { sendImage } from '../../http/send-image.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { ReceivedFile } from '../org/logo.js';
import { assignDoctor, readCareTeam, unassignDoctor } from './care-team-service.js';
import {
  listDoctors,
  readDoctor,
  readOwnQualification,
  saveOwnQualification,
  updateDoctorProfile,
  type DoctorEnvironment,
} from './doctor-service.js';
import { approveDoctorRequest, listDoctorRequests, rejectDoctorRequest } from './doctor-request-service.js';
import {
  LICENSE_FORM_LIMITS,
  addLicense,
  openLicenseImage,
  readLicenseForm,
  removeLicense,
  type LicenseEnvironment,
} from './license-service.js';
import { createRequest, decideRequest, listPatientRequests, listRequests } from './request-service.js';
import { listDeactivatedDoctors, restoreDoctor } from './restore-service.js';

const idParams = z.object({ id: z.uuid() });
const licenseParams = z.object({ id: z.uuid(), licenseId: z.uuid() });
const ownLicenseParams = z.object({ licenseId: z.uuid() });
const patientParams = z.object({ patientId: z.uuid() });
const linkParams = z.object({ patientId: z.uuid(), doctorId: z.uuid() });
const profileResponse = { 200: successEnvelope(doctorProfileSchema) };
const careTeamResponse = { 200: successEnvelope(careTeamSchema) };
const requestResponse = { 200: successEnvelope(careRequestSchema) };
const doctorRequestResponse = { 200: successEnvelope(doctorRequestSchema) };

/** The license image part; only the multipart reader creates a ReceivedFile. */
const imageField = z
  .instanceof(ReceivedFile)
  .meta({
    type: 'string',
    format: 'binary',
    description: 'The license image: PNG or JPEG (recognised by content), at most 1 MB',
  })
  .optional();

/** The calling doctor's own calls: the account must be a doctor's. */
const requireDoctor = async (request: FastifyRequest) => {
  if (requireAuth(request).role !== 'DOCTOR') throw new AppError('auth.permissionDenied');
};

/**
 * Doctors (list, profile, licenses, the doctor's own qualification), care teams and the requests
 * between patients and doctors, and the doctor requests admins decide (spec §2, §3, §4, §5, §7).
 */
export const doctorAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only the license form is multipart; readLicenseForm turns it into the body its schema checks.
  await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: LICENSE_FORM_LIMITS });
  app.addHook('preValidation', readLicenseForm);
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  const environmentOf = (request: FastifyRequest): LicenseEnvironment & DoctorEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });
  const tags = ['doctors'];

  // Doctors -----------------------------------------------------------------------------------------

  app.get(
    '/doctors',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary:
          'Doctors the caller’s level sees. Paged (page from 0, size), searchable by name, email or phone, filterable by specialty, centerId, kind and licenseState (VALID, EXPIRED, NONE by the server clock), sortable (sortField name|experience|rating|created, sortType asc|desc)',
        querystring: doctorListQuerySchema,
        response: { 200: successEnvelope(pageOf(doctorSummarySchema)) },
      },
    },
    async (request) => ok(await listDoctors(environmentOf(request), request.query)),
  );

  app.get(
    '/doctors/:id',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary:
          'A doctor’s profile: specialties, degree, licenses (each flagged expired), patients count, assistants. doctor.notFound for anyone else',
        params: idParams,
        response: profileResponse,
      },
    },
    async (request) => ok(await readDoctor(environmentOf(request), request.params.id)),
  );

  app.put(
    '/doctors/:id/profile',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Replace a doctor’s profile. Specialties: catalogue codes (doctor.unknownSpecialty), at most 5 (doctor.tooManySpecialties)',
        params: idParams,
        body: doctorProfileUpdateSchema,
        response: profileResponse,
      },
    },
    async (request) => ok(await updateDoctorProfile(environmentOf(request), request.params.id, request.body)),
  );

  app.post(
    '/doctor/v2/register/qualification',
    {
      config: { access: 'session' },
      onRequest: requireDoctor,
      schema: {
        tags,
        summary:
          'The calling doctor’s qualification (doctors only): the profile fields, same rules as the admin edit',
        body: doctorProfileUpdateSchema,
        response: profileResponse,
      },
    },
    async (request) => ok(await saveOwnQualification(environmentOf(request), request.body)),
  );

  app.get(
    '/doctor/me/qualification',
    {
      config: { access: 'session' },
      onRequest: requireDoctor,
      schema: { tags, summary: 'The calling doctor’s own profile (doctors only)', response: profileResponse },
    },
    async (request) => ok(await readOwnQualification(environmentOf(request))),
  );

  // Licenses ----------------------------------------------------------------------------------------

  app.post(
    '/doctors/:id/licenses',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary: 'Add a medical license',
        description:
          'multipart/form-data: fields `name`, `expiresOn` (YYYY-MM-DD) and the file part `image` (PNG or JPEG recognised by content, at most 1 MB: file.tooLarge 413, file.unsupportedType 415, file.missing).',
        consumes: ['multipart/form-data'],
        params: idParams,
        body: doctorLicenseFieldsSchema.safeExtend({ image: imageField }),
        response: profileResponse,
      },
    },
    async (request) => {
      const { image, ...fields } = request.body;
      return ok(await addLicense(environmentOf(request), request.params.id, fields, image));
    },
  );

  app.get(
    '/doctors/:id/licenses/:licenseId/image',
    {
      config: { access: 'user.view' },
      schema: { tags, summary: 'A license’s image (image bytes)', params: licenseParams },
    },
    async (request, reply) =>
      sendImage(
        reply,
        await openLicenseImage(environmentOf(request), request.params.id, request.params.licenseId),
      ),
  );

  app.delete(
    '/doctors/:id/licenses/:licenseId',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary: 'Remove a medical license and its image',
        params: licenseParams,
        response: profileResponse,
      },
    },
    async (request) =>
      ok(await removeLicense(environmentOf(request), request.params.id, request.params.licenseId)),
  );

  // The calling doctor's own licenses: the same form and file rules as the admin's calls.

  app.post(
    '/doctor/me/licenses',
    {
      config: { access: 'session' },
      onRequest: requireDoctor,
      schema: {
        tags,
        summary: 'Add a medical license of the calling doctor (doctors only)',
        description:
          'multipart/form-data: fields `name`, `expiresOn` (YYYY-MM-DD) and the file part `image` (PNG or JPEG recognised by content, at most 1 MB: file.tooLarge 413, file.unsupportedType 415, file.missing).',
        consumes: ['multipart/form-data'],
        body: doctorLicenseFieldsSchema.safeExtend({ image: imageField }),
        response: profileResponse,
      },
    },
    async (request) => {
      const { image, ...fields } = request.body;
      const environment = environmentOf(request);
      return ok(await addLicense(environment, environment.auth.userId, fields, image));
    },
  );

  app.get(
    '/doctor/me/licenses/:licenseId/image',
    {
      config: { access: 'session' },
      onRequest: requireDoctor,
      schema: {
        tags,
        summary: 'The image of a license of the calling doctor (image bytes)',
        params: ownLicenseParams,
      },
    },
    async (request, reply) => {
      const environment = environmentOf(request);
      return sendImage(
        reply,
        await openLicenseImage(environment, environment.auth.userId, request.params.licenseId),
      );
    },
  );

  app.delete(
    '/doctor/me/licenses/:licenseId',
    {
      config: { access: 'session' },
      onRequest: requireDoctor,
      schema: {
        tags,
        summary:
          'Remove a medical license of the calling doctor and its image (doctor.licenseNotFound for another’s)',
        params: ownLicenseParams,
        response: profileResponse,
      },
    },
    async (request) => {
      const environment = environmentOf(request);
      return ok(await removeLicense(environment, environment.auth.userId, request.params.licenseId));
    },
  );

  // Care teams --------------------------------------------------------------------------------------

  app.get(
    '/patients/:patientId/doctors',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary: 'A patient’s care team: the family doctor first, then the specialists',
        params: patientParams,
        response: careTeamResponse,
      },
    },
    async (request) => ok(await readCareTeam(environmentOf(request), request.params.patientId)),
  );

  app.post(
    '/patients/:patientId/doctors',
    {
      config: { access: 'user.assign' },
      schema: {
        tags,
        summary:
          'Assign a doctor to a patient. doctor.notFound (not an active doctor the caller sees), doctor.alreadyAssigned, doctor.licenseExpired (every license expired), careTeam.limitReached (a family doctor exists and replace is not set)',
        params: patientParams,
        body: careTeamAssignSchema,
        response: careTeamResponse,
      },
    },
    async (request) => ok(await assignDoctor(environmentOf(request), request.params.patientId, request.body)),
  );

  app.delete(
    '/patients/:patientId/doctors/:doctorId',
    {
      config: { access: 'user.assign' },
      schema: {
        tags,
        summary: 'Remove a doctor from a patient’s care team (doctor.noRelationship when not on it)',
        params: linkParams,
        response: careTeamResponse,
      },
    },
    async (request) =>
      ok(await unassignDoctor(environmentOf(request), request.params.patientId, request.params.doctorId)),
  );

  app.get(
    '/patients/:patientId/requests',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary: 'The requests between a patient and doctors, both directions, newest first (paged)',
        params: patientParams,
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(pageOf(careRequestSchema)) },
      },
    },
    async (request) =>
      ok(await listPatientRequests(environmentOf(request), request.params.patientId, request.query)),
  );

  // Requests ----------------------------------------------------------------------------------------

  app.post(
    '/requests',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary:
          'Send a request: DOCTOR_REQUEST by a doctor to a patient; PATIENT_REQUEST by the patient, or by staff holding user.assign for them, to a doctor. request.toSelf, request.duplicate (one waiting request per direction), doctor.alreadyAssigned',
        body: careRequestCreateSchema,
        response: requestResponse,
      },
    },
    async (request) => ok(await createRequest(environmentOf(request), request.body)),
  );

  app.get(
    '/requests',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary:
          'The caller’s requests, newest first: box=sent (filed by the caller) or received (a doctor: patients’ requests to them; a patient: doctors’ requests to their record; staff holding user.assign: doctors’ requests to the patients they see)',
        querystring: careRequestListQuerySchema,
        response: { 200: successEnvelope(pageOf(careRequestSchema)) },
      },
    },
    async (request) => ok(await listRequests(environmentOf(request), request.query)),
  );

  app.put(
    '/requests/:id/approve',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary:
          'Approve a received request: the doctor joins the care team (a new family doctor replaces the current one). request.alreadyDecided, doctor.licenseExpired',
        params: idParams,
        response: requestResponse,
      },
    },
    async (request) => ok(await decideRequest(environmentOf(request), request.params.id, 'approve')),
  );

  app.put(
    '/requests/:id/reject',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: 'Reject a received request with a reason. request.alreadyDecided',
        params: idParams,
        body: careRequestRejectSchema,
        response: requestResponse,
      },
    },
    async (request) =>
      ok(await decideRequest(environmentOf(request), request.params.id, 'reject', request.body.reason)),
  );

  app.put(
    '/requests/:id/cancel',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: 'Cancel a sent request (the requester only). request.alreadyDecided',
        params: idParams,
        response: requestResponse,
      },
    },
    async (request) => ok(await decideRequest(environmentOf(request), request.params.id, 'cancel')),
  );

  // Doctor requests (admins) ----------------------------------------------------------------------

  app.get(
    '/admin/doctor-requests',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Doctor registrations (email proven, waiting for approval) and doctors’ deactivation requests the caller sees, oldest first',
        querystring: doctorRequestListQuerySchema,
        response: { 200: successEnvelope(pageOf(doctorRequestSchema)) },
      },
    },
    async (request) => ok(await listDoctorRequests(environmentOf(request), request.query)),
  );

  app.put(
    '/admin/doctor-requests/:id/approve',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Approve: a registration activates the doctor in their health center (centerId required when they have none); a deactivation disables the account for the period asked',
        params: idParams,
        body: doctorRequestApproveSchema.optional(),
        response: doctorRequestResponse,
      },
    },
    async (request) =>
      ok(await approveDoctorRequest(environmentOf(request), request.params.id, request.body ?? {})),
  );

  app.put(
    '/admin/doctor-requests/:id/reject',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary: 'Reject with a reason: a registration is closed, a deactivation request dropped',
        params: idParams,
        body: doctorRequestRejectSchema,
        response: doctorRequestResponse,
      },
    },
    async (request) =>
      ok(await rejectDoctorRequest(environmentOf(request), request.params.id, request.body.reason)),
  );

  app.get(
    '/admin/deactivated-doctors',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Deactivated doctors the caller sees, the latest first, each with the days left to restore it (30 days from the deactivation)',
        querystring: deactivatedDoctorListQuerySchema,
        response: { 200: successEnvelope(pageOf(deactivatedDoctorSchema)) },
      },
    },
    async (request) => ok(await listDeactivatedDoctors(environmentOf(request), request.query)),
  );

  app.put(
    '/admin/deactivated-doctors/:id/restore',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Restore a deactivated doctor: active again, within 30 days of the deactivation. doctor.restorePeriodOver after that, doctor.notDeactivated for an active doctor',
        params: idParams,
        response: { 200: successEnvelope(deactivatedDoctorSchema) },
      },
    },
    async (request) => ok(await restoreDoctor(environmentOf(request), request.params.id)),
  );
};
