import {
  doctorAssistantSummarySchema,
  pageOf,
  staffCreateSchema,
  staffDetailSchema,
  staffDisableSchema,
  staffDoctorsSchema,
  staffListQuerySchema,
  staffSummarySchema,
  staffUpdateSchema,
  successEnvelope,
  systemAdminSummarySchema,
  systemAdminTenantsSchema,
  type Permission,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, type AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { listDoctorAssistants, listOwnAssistants, listPlatformStaff, listTenantStaff } from './list-service.js';
import { isPlatformRole, isSuperRole } from './placement.js';
import { installReenableJob } from './reenable-job.js';
import { createStaff, readStaff, type StaffEnvironment } from './service.js';
import { assignDoctors, assignTenants, disableStaff, enableStaff } from './status-service.js';
import { updateStaff } from './update-service.js';

const idParams = z.object({ id: z.uuid() });
const detailResponse = { 200: successEnvelope(staffDetailSchema) };
const LIST_NOTE = 'Paged (page from 0, size), searchable by name, email or phone, sortable (sortField name|created|status, sortType asc|desc), filterable by status, centerId, scopeId and role.';

/**
 * Routes for one kind of caller (doctors; platform staff) are role-gated, not only permission-gated:
 * their access is 'session' and this hook refuses everyone else before the body is read.
 */
const requireCaller = (isAllowed: (auth: AuthContext) => boolean) => async (request: FastifyRequest) => {
  if (!isAllowed(requireAuth(request))) throw new AppError('auth.permissionDenied');
};
const isPlatformStaffWith = (permission: Permission) => (auth: AuthContext) => isPlatformRole(auth.role) && auth.permissions.has(permission);
const isSuperAdminWith = (permission: Permission) => (auth: AuthContext) => isSuperRole(auth.role) && auth.permissions.has(permission);

/**
 * Staff management (spec §2: employee, system admin, super admin, scope admin, MHSC admin, MHSC
 * doctor and doctor assistant lists; admin detail, create and edit; temporary disable) and the
 * re-enable job that ends temporary disables.
 */
export const staffAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  installReenableJob(app);
  const environmentOf = (request: FastifyRequest): StaffEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['staff'];

  const tenantLists = [
    { url: '/admin/employee', list: 'employee', summary: 'Employee management: customer care (CSKH), operators, coaches and managers (ADMIN, MAIN_ADMIN, SUPPORT_ADMIN)' },
    { url: '/admin/scope-admin', list: 'scopeAdmin', summary: 'Scope admins' },
    { url: '/admin/mhsc-admin', list: 'mhscAdmin', summary: 'Health-center (MHSC) admins' },
    { url: '/admin/mhsc-doctor', list: 'mhscDoctor', summary: 'Doctors of the health centers' },
  ] as const;
  for (const { url, list, summary } of tenantLists) {
    app.get(
      url,
      {
        config: { access: 'staff.view' },
        schema: { tags, summary: `${summary}, as far as the caller sees. ${LIST_NOTE}`, querystring: staffListQuerySchema, response: { 200: successEnvelope(pageOf(staffSummarySchema)) } },
      },
      async (request) => ok(await listTenantStaff(environmentOf(request), list, request.query)),
    );
  }

  app.get(
    '/admin/doctor-assistant',
    {
      config: { access: 'staff.view' },
      schema: { tags, summary: `Doctor assistants with their doctors, as far as the caller sees. ${LIST_NOTE}`, querystring: staffListQuerySchema, response: { 200: successEnvelope(pageOf(doctorAssistantSummarySchema)) } },
    },
    async (request) => ok(await listDoctorAssistants(environmentOf(request), request.query)),
  );

  app.get(
    '/doctor/assistants',
    {
      config: { access: 'session' },
      onRequest: requireCaller((auth) => auth.role === 'DOCTOR'),
      schema: { tags, summary: `The calling doctor’s assistants (doctors only). ${LIST_NOTE}`, querystring: staffListQuerySchema, response: { 200: successEnvelope(pageOf(doctorAssistantSummarySchema)) } },
    },
    async (request) => ok(await listOwnAssistants(environmentOf(request), request.query)),
  );

  for (const { url, list, summary } of [
    { url: '/sadmin/system-admin', list: 'systemAdmin', summary: 'System admins with the tenants they serve' },
    { url: '/sadmin/super-admin', list: 'superAdmin', summary: 'Super admins' },
  ] as const) {
    app.get(
      url,
      {
        config: { access: 'session' },
        onRequest: requireCaller(isPlatformStaffWith('staff.view')),
        schema: { tags, summary: `${summary} (platform staff holding staff.view only). ${LIST_NOTE}`, querystring: staffListQuerySchema, response: { 200: successEnvelope(pageOf(systemAdminSummarySchema)) } },
      },
      async (request) => ok(await listPlatformStaff(environmentOf(request), list, request.query)),
    );
  }

  app.get(
    '/admin/staff/:id',
    {
      config: { access: 'staff.view' },
      schema: { tags, summary: 'Admin detail: profile, role and custom role, levels, center, scope, doctors (assistants), tenants (system admins), status and disabledUntil', params: idParams, response: detailResponse },
    },
    async (request) => ok(await readStaff(environmentOf(request), request.params.id)),
  );

  app.post(
    '/admin/staff',
    {
      config: { access: 'staff.create' },
      schema: {
        tags,
        summary:
          'Create a staff account, ACTIVE at once. Needs a role (role.required), email and/or phone (unique in the tenant), a center or scope as the role needs, doctors for an assistant, tenants for a system admin. With `password` the account can log in at once; without it the person sets one through forgot password. Platform roles (SUPER_ADMIN, SYSTEM_ADMIN) are created in the platform tenant by ROOT or SUPER_ADMIN',
        body: staffCreateSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await createStaff(environmentOf(request), request.body)),
  );

  app.put(
    '/admin/staff/:id',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary:
          'Edit a staff account (the whole record). Changing role, center or scope ends the account’s sessions. A health center’s main admin keeps their center and admin role (staff.mainAdminLocked: change it on the health-center detail)',
        params: idParams,
        body: staffUpdateSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await updateStaff(environmentOf(request), request.params.id, request.body)),
  );

  app.put(
    '/admin/staff/:id/doctors',
    {
      config: { access: 'staff.update' },
      schema: { tags, summary: 'Set a doctor assistant’s doctors (at least one: staff.assistantNeedsDoctor)', params: idParams, body: staffDoctorsSchema, response: detailResponse },
    },
    async (request) => ok(await assignDoctors(environmentOf(request), request.params.id, request.body.doctorIds)),
  );

  app.put(
    '/sadmin/system-admin/:id/tenants',
    {
      config: { access: 'session' },
      onRequest: requireCaller(isSuperAdminWith('staff.update')),
      schema: {
        tags,
        summary: 'Set the tenants a system admin serves (ROOT and SUPER_ADMIN holding staff.update; at least one active customer tenant). Taking one away ends their sessions',
        params: idParams,
        body: systemAdminTenantsSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await assignTenants(environmentOf(request), request.params.id, request.body.tenantIds)),
  );

  app.post(
    '/admin/staff/:id/disable',
    {
      config: { access: 'staff.disable' },
      schema: {
        tags,
        summary:
          'Disable an account for THREE_DAYS, TWO_WEEKS, ONE_MONTH or INDEFINITE; its sessions end and a temporary disable ends by itself. Not one’s own account, not a health center’s main admin',
        params: idParams,
        body: staffDisableSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await disableStaff(environmentOf(request), request.params.id, request.body)),
  );

  app.post(
    '/admin/staff/:id/enable',
    {
      config: { access: 'staff.disable' },
      schema: { tags, summary: 'Turn a disabled account back on; a deactivated doctor within 30 days of the deactivation only (doctor.restorePeriodOver after that)', params: idParams, response: detailResponse },
    },
    async (request) => ok(await enableStaff(environmentOf(request), request.params.id)),
  );
};

/**
 * The spec's /manage calls for staff: only PUT /manage/system-admin/change-password, which the
 * account module serves. Kept so that staff calls under /manage have their home here.
 */
export const staffManageRoutes: FastifyPluginAsyncZod = async () => {
  // No staff route under /manage yet.
};
