import {
  TENANT_LOGO_MAX_BYTES,
  TENANT_REQUEST_TRANSITIONS,
  type TenantRequest,
  type TenantRequestStatus,
} from '@rpm/contracts';
import { pickLanguage } from '@rpm/i18n';
import { uuidv7 } from 'uuidv7';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { HOUR, type Clock } from '../../lib/clock.js';
import type { FileStorage, OpenedFile, StoredFile } from '../../lib/file-storage.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { countThrottleFailure } from '../auth/store.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { assertSendQuota } from '../send-quota/service.js';
import { assertIdentityFree, identityClashOf } from '../tenants/admin-service.js';
import { createFirstAdmin } from '../tenants/first-admin.js';
import { findPlatformTenant, insertTenant, writeTenantSettings } from '../tenants/store.js';
import type { ReceivedTrialRequest } from './receive-form.js';
import { renderRejection } from './messages.js';
import * as store from './store.js';

/** Trial requests per caller address and hour: enough for a person correcting mistakes, not for a flood. */
export const TRIAL_REQUEST_LIMIT = { requests: 10, windowMilliseconds: HOUR } as const;

export interface TrialRequestEnvironment {
  database: Database;
  clock: Clock;
  audit: AuditContext;
  storage: FileStorage;
  secretsKey: Buffer;
  kick: () => void;
  log: { warn(details: object, message: string): void };
}

const statusOf = (value: string): TenantRequestStatus => (value === 'APPROVED' || value === 'REJECTED' ? value : 'NEW');

export function toTenantRequest(row: store.TenantRequestRow): TenantRequest {
  const logo = (kind: string) => `/manage/sadmin/tenant-request/${row.id}/logo?kind=${kind}`;
  return {
    id: row.id,
    type: 'TRIAL',
    status: statusOf(row.status),
    organizationName: row.organizationName,
    officialName: row.officialName,
    requestedCode: row.requestedCode,
    requesterName: row.requesterName,
    email: row.email,
    phone: row.phone,
    primaryColor: row.primaryColor,
    message: row.message,
    language: row.language,
    rejectionReason: row.rejectionReason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy,
    createdTenantId: row.createdTenantId,
    logos: { square: logo('square'), horizontal: logo('horizontal') },
  };
}

const removeFiles = (environment: TrialRequestEnvironment, files: StoredFile[]) =>
  Promise.all(
    files.map((file) =>
      environment.storage.remove(file.key).catch((error: unknown) => {
        environment.log.warn({ err: error, key: file.key }, 'could not remove a file of a refused request');
      }),
    ),
  );

/**
 * Counts a submission from the caller's address in the shared throttle table (every server
 * process sees the same count); over the limit the caller waits.
 */
export async function assertSubmissionAllowed(environment: TrialRequestEnvironment): Promise<void> {
  const submissions = await countThrottleFailure(
    environment.database.system,
    `trial-request:ip:${environment.audit.ip ?? 'unknown'}`,
    environment.clock.now(),
    TRIAL_REQUEST_LIMIT.windowMilliseconds,
  );
  if (submissions > TRIAL_REQUEST_LIMIT.requests) throw new AppError('common.tooManyRequests');
}

/** The tenant whose files and outbox hold trial requests until a tenant exists: the platform. */
export const platformTenantOf = (environment: TrialRequestEnvironment) => findPlatformTenant(environment.database.system);

/**
 * POST /manage/tenant-request (public): stores the request as NEW with both logos. A name or code
 * already taken is said at once, so the requester can choose another.
 */
export async function submitTrialRequest(environment: TrialRequestEnvironment, platformId: string, received: ReceivedTrialRequest) {
  const { form, logos } = received;
  const now = environment.clock.now();
  try {
    // The requester's email is written to when the request is decided: it counts like any other send.
    await assertSendQuota(environment, { tenantId: platformId, channel: 'EMAIL', destination: form.email });
    await assertIdentityFree(environment.database.system, { name: form.organizationName, code: form.requestedCode });
    const created = await environment.database.withTenant(platformId, async (tx) => {
      const row = await store.insertTenantRequest(tx, {
        id: uuidv7(),
        ...form,
        logoSquareFile: logos.logoSquare.key,
        logoHorizontalFile: logos.logoHorizontal.key,
        createdAt: now,
      });
      await recordAudit(tx, platformId, environment.audit, {
        action: 'TENANT_REQUEST_SUBMITTED',
        targetType: 'tenant_request',
        targetId: row.id,
        details: { organizationName: row.organizationName, requestedCode: row.requestedCode, email: row.email },
        at: now,
      });
      return row;
    });
    return { id: created.id, status: 'NEW' as const };
  } catch (error) {
    await removeFiles(environment, [logos.logoSquare, logos.logoHorizontal]);
    throw error;
  }
}

export async function listTrialRequests(
  environment: TrialRequestEnvironment,
  query: { page: number; size: number; status?: TenantRequestStatus | undefined; search?: string | undefined },
) {
  const { items, total } = await store.listTenantRequests(environment.database.system, query);
  return { items: items.map(toTenantRequest), page: query.page, size: query.size, total };
}

async function findRequest(environment: TrialRequestEnvironment, id: string): Promise<store.TenantRequestRow> {
  const row = await store.findTenantRequest(environment.database.system, id);
  if (row === undefined) throw new AppError('common.notFound');
  return row;
}

export async function readTrialRequest(environment: TrialRequestEnvironment, id: string): Promise<TenantRequest> {
  return toTenantRequest(await findRequest(environment, id));
}

export async function openTrialRequestLogo(environment: TrialRequestEnvironment, id: string, kind: 'square' | 'horizontal'): Promise<OpenedFile> {
  const row = await findRequest(environment, id);
  const opened = await environment.storage.open(kind === 'square' ? row.logoSquareFile : row.logoHorizontalFile);
  if (opened === undefined) throw new AppError('common.notFound');
  return opened;
}

/** A request is decided once (spec §4: NEW -> APPROVED | REJECTED); anything else is 409. */
function assertDecidable(row: store.TenantRequestRow | undefined, next: TenantRequestStatus): store.TenantRequestRow {
  if (row === undefined) throw new AppError('common.notFound');
  if (!(TENANT_REQUEST_TRANSITIONS[statusOf(row.status)] as readonly string[]).includes(next)) throw new AppError('tenantRequest.alreadyDecided');
  return row;
}

/** Copies a request's logo into the new tenant's files (the request keeps its own). */
async function copyLogo(environment: TrialRequestEnvironment, key: string, tenantId: string): Promise<StoredFile> {
  const source = await environment.storage.open(key);
  if (source === undefined) throw new Error(`logo ${key} of a trial request is missing`);
  return environment.storage.save(source.stream, { tenantId, category: 'logos', maxBytes: TENANT_LOGO_MAX_BYTES, accept: ['image/png'] });
}

/**
 * POST /manage/sadmin/tenant-request/{id}/approve: creates the tenant (the requested name and code,
 * or the ones given), with the request's logos, color and language, and its first ADMIN (the
 * requester) who is emailed a set-password code; the request becomes APPROVED. One transaction
 * of the platform database holds it all (a new tenant is SHARED), so a refusal changes nothing.
 */
export async function approveTrialRequest(
  environment: TrialRequestEnvironment & { auth: AuthContext },
  id: string,
  overrides: { name?: string | undefined; code?: string | undefined },
  consoleOrigin: string,
): Promise<TenantRequest> {
  const { database, clock } = environment;
  const request = assertDecidable(await store.findTenantRequest(database.system, id), 'APPROVED');
  const identity = { name: overrides.name ?? request.organizationName, code: overrides.code ?? request.requestedCode };
  await assertIdentityFree(database.system, identity);
  const tenantId = uuidv7();
  const copies: StoredFile[] = [];
  try {
    copies.push(await copyLogo(environment, request.logoSquareFile, tenantId), await copyLogo(environment, request.logoHorizontalFile, tenantId));
    const [square, horizontal] = copies;
    const now = clock.now();
    const decided = await database.withTenant(tenantId, async (tx) => {
      const locked = assertDecidable(await store.lockTenantRequest(tx, id), 'APPROVED');
      const tenant = await insertTenant(tx, {
        id: tenantId,
        ...identity,
        officialName: locked.officialName,
        logoSquareFile: square?.key ?? null,
        logoHorizontalFile: horizontal?.key ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const language = pickLanguage(locked.language);
      await writeTenantSettings(tx, tenantId, { LANGUAGE: language, ORGANIZATION_NAME: locked.officialName || identity.name, ...(locked.primaryColor ? { COLOR: locked.primaryColor } : {}) }, now);
      await recordAudit(tx, tenantId, environment.audit, { action: 'TENANT_CREATED', targetType: 'tenant', targetId: tenantId, details: { code: tenant.code, name: tenant.name, fromRequest: id }, at: now });
      await createFirstAdmin(tx, { now, secretsKey: environment.secretsKey, audit: environment.audit }, {
        tenant,
        admin: { email: locked.email, firstName: locked.requesterName.slice(0, 60), lastName: '', language },
        consoleUrl: consoleOrigin,
      });
      const row = await store.decideTenantRequest(tx, id, { status: 'APPROVED', decidedAt: now, decidedBy: environment.auth.userId, createdTenantId: tenantId });
      await recordAudit(tx, tenantId, environment.audit, { action: 'TENANT_REQUEST_APPROVED', targetType: 'tenant_request', targetId: id, details: { tenantId }, at: now });
      return row;
    });
    environment.kick();
    return toTenantRequest(decided);
  } catch (error) {
    await removeFiles(environment, copies);
    const clash = identityClashOf(error);
    if (clash !== undefined) throw new AppError(clash, { cause: error });
    throw error;
  }
}

/**
 * POST /manage/sadmin/tenant-request/{id}/reject: REJECTED with its reason, which is emailed to the
 * requester. There is no tenant, so the email goes through the platform tenant's outbox and the
 * audit row into the platform's log.
 */
export async function rejectTrialRequest(environment: TrialRequestEnvironment & { auth: AuthContext }, id: string, reason: string): Promise<TenantRequest> {
  const platform = await platformTenantOf(environment);
  const now = environment.clock.now();
  const decided = await environment.database.withTenant(platform.id, async (tx) => {
    const locked = assertDecidable(await store.lockTenantRequest(tx, id), 'REJECTED');
    const row = await store.decideTenantRequest(tx, id, { status: 'REJECTED', rejectionReason: reason, decidedAt: now, decidedBy: environment.auth.userId });
    const message = renderRejection({ language: locked.language, name: locked.requesterName, organization: locked.organizationName, reason });
    await enqueueMessage(tx, platform.id, { channel: 'EMAIL', recipient: locked.email, subject: message.subject, body: message.body, purpose: 'TENANT_REQUEST_REJECTED' });
    await recordAudit(tx, platform.id, environment.audit, { action: 'TENANT_REQUEST_REJECTED', targetType: 'tenant_request', targetId: id, details: { reason }, at: now });
    return row;
  });
  environment.kick();
  return toTenantRequest(decided);
}
