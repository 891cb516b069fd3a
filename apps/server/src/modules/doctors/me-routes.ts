import {
  appCareRequestCreateSchema,
  appCareRequestListQuerySchema,
  appCareTeamSchema,
  appDoctorDetailSchema,
  appDoctorListQuerySchema,
  appDoctorSummarySchema,
  careRequestRejectSchema,
  careRequestSchema,
  pageOf,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import type { DoctorEnvironment } from './doctor-service.js';
import {
  decideAppRequest,
  listAppRequests,
  readAppCareTeam,
  readAppDoctor,
  searchDoctors,
  sendAppRequest,
} from './me-service.js';

const SELF_NOTE =
  'Patient sessions only (a staff account gets 404 health.noPatientProfile); about the record the app shows.';
const idParams = z.object({ id: z.uuid() });
const requestResponse = { 200: successEnvelope(careRequestSchema) };

/** The patient app's doctor search, doctor detail, care team and care requests under /health. */
export const doctorMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest): DoctorEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['doctors'];

  app.get(
    '/me/doctors',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} The tenant’s active doctors by name: search (part of the name), specialty, kind (FAMILY_DOCTOR|SPECIALIST), paged (page from 0, size)`,
        querystring: appDoctorListQuerySchema,
        response: { 200: successEnvelope(pageOf(appDoctorSummarySchema)) },
      },
    },
    async (request) => ok(await searchDoctors(environmentOf(request), request.query)),
  );

  app.get(
    '/me/doctors/:id',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} An active doctor’s profile: specialties, degree, experience, licenses flagged expired, rating, introduction, office, health center; the doctor’s place on the care team and the waiting request to them. doctor.notFound otherwise. Audited`,
        params: idParams,
        response: { 200: successEnvelope(appDoctorDetailSchema) },
      },
    },
    async (request) => ok(await readAppDoctor(environmentOf(request), request.params.id)),
  );

  app.get(
    '/me/care-team',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} The care team: the family doctor first, then the specialists by name. Audited`,
        response: { 200: successEnvelope(appCareTeamSchema) },
      },
    },
    async (request) => ok(await readAppCareTeam(environmentOf(request))),
  );

  app.get(
    '/me/requests',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Care requests, newest first: box=sent (the caller’s requests to doctors) or received (doctors’ requests to the caller’s record), status filter, paged. Audited`,
        querystring: appCareRequestListQuerySchema,
        response: { 200: successEnvelope(pageOf(careRequestSchema)) },
      },
    },
    async (request) => ok(await listAppRequests(environmentOf(request), request.query)),
  );

  app.post(
    '/me/requests',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Ask a doctor to be the family doctor (relation FAMILY) or a specialist, with an optional message. request.toSelf, request.duplicate (one waiting request to a doctor until it is canceled), doctor.alreadyAssigned, doctor.notFound, profile.readOnly`,
        body: appCareRequestCreateSchema,
        response: requestResponse,
      },
    },
    async (request) => ok(await sendAppRequest(environmentOf(request), request.body)),
  );

  app.put(
    '/me/requests/:id/cancel',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Cancel a sent request (its sender only). request.notFound, request.alreadyDecided`,
        params: idParams,
        response: requestResponse,
      },
    },
    async (request) => ok(await decideAppRequest(environmentOf(request), request.params.id, 'cancel')),
  );

  app.put(
    '/me/requests/:id/approve',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Approve a doctor’s request: the doctor joins the care team (a new family doctor replaces the current one). request.notFound, request.alreadyDecided, doctor.licenseExpired`,
        params: idParams,
        response: requestResponse,
      },
    },
    async (request) => ok(await decideAppRequest(environmentOf(request), request.params.id, 'approve')),
  );

  app.put(
    '/me/requests/:id/reject',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Reject a doctor’s request with a reason. request.notFound, request.alreadyDecided`,
        params: idParams,
        body: careRequestRejectSchema,
        response: requestResponse,
      },
    },
    async (request) =>
      ok(await decideAppRequest(environmentOf(request), request.params.id, 'reject', request.body.reason)),
  );
};
