import type { CenterDetail, ManageCenterCreate } from '@rpm/contracts';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { findTenantById } from '../tenants/store.js';
import { insertCenterWithAdmins } from './center-service.js';
import { findCenterByName, lockCenter, updateCenter } from './center-store.js';
import { inCallerTransaction, mappingDatabaseErrors, requireWholeTenant, type OrgEnvironment } from './environment.js';
import { withStoredLogo, type ReceivedFile } from './logo.js';
import { findScope } from './scope-store.js';
import { toCenterDetail } from './views.js';

/**
 * The manage calls address the tenant by name (spec §7). The name must be the tenant the caller
 * acts in: a super admin manages another tenant's centers by switching to it, so every change
 * still goes through that tenant's row level security and lands in its audit log. Any other name
 * answers "wrong tenant".
 */
async function requireActingTenant(environment: OrgEnvironment, tenantName: string): Promise<void> {
  requireWholeTenant(environment.auth);
  const tenant = await findTenantById(environment.database.system, environment.auth.tenantId);
  if (tenant?.name.trim().toLowerCase() !== tenantName.trim().toLowerCase()) throw new AppError('tenant.notFound');
}

async function requireCenterNamed(environment: OrgEnvironment, name: string) {
  return inCallerTransaction(environment, async (tx) => {
    const center = await findCenterByName(tx, name);
    if (center === undefined) throw new AppError('center.notFound');
    return center;
  });
}

/** POST /manage/sadmin/center. */
export async function manageCreateCenter(environment: OrgEnvironment, input: ManageCenterCreate): Promise<CenterDetail> {
  await requireActingTenant(environment, input.tenantName);
  const { tenantName: _tenantName, scope, ...form } = input;
  return mappingDatabaseErrors({ duplicate: 'center.nameExists' }, () =>
    inCallerTransaction(environment, (tx) => insertCenterWithAdmins(environment, tx, { ...form, scopeId: scope ?? undefined }, null, 'manage')),
  );
}

/** PUT /manage/sadmin/center: moves the center found by name to another scope (or none). */
export async function manageMoveCenter(environment: OrgEnvironment, input: { tenantName: string; name: string; scope: string | null }): Promise<CenterDetail> {
  await requireActingTenant(environment, input.tenantName);
  const { auth, clock } = environment;
  const found = await requireCenterNamed(environment, input.name);
  return inCallerTransaction(environment, async (tx) => {
    const before = await lockCenter(tx, found.id);
    if (before === undefined) throw new AppError('center.notFound');
    if (input.scope !== null && (await findScope(tx, input.scope)) === undefined) throw new AppError('scope.notFound');
    const now = clock.now();
    const center = await updateCenter(tx, before.id, { scopeId: input.scope, updatedAt: now });
    if (center === undefined) throw new AppError('center.notFound');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'CENTER_UPDATED',
      targetType: 'health_center',
      targetId: center.id,
      details: { before: { scopeId: before.scopeId }, after: { scopeId: center.scopeId }, source: 'manage' },
      at: now,
    });
    return toCenterDetail(tx, center);
  });
}

/** GET /manage/sadmin/center/detail. */
export async function manageCenterDetail(environment: OrgEnvironment, query: { tenantName: string; name: string }): Promise<CenterDetail> {
  await requireActingTenant(environment, query.tenantName);
  return inCallerTransaction(environment, async (tx) => {
    const center = await findCenterByName(tx, query.name);
    if (center === undefined) throw new AppError('center.notFound');
    return toCenterDetail(tx, center);
  });
}

/**
 * POST /manage/sadmin/center/upload-logo: the tenant and the center are checked before a byte of
 * the file is read; the file is then checked (size, real type) and replaces the previous logo.
 */
export async function manageUploadLogo(
  environment: OrgEnvironment,
  query: { tenantName: string; name: string },
  receive: () => Promise<ReceivedFile>,
): Promise<CenterDetail> {
  await requireActingTenant(environment, query.tenantName);
  const { auth, clock } = environment;
  const found = await requireCenterNamed(environment, query.name);
  return withStoredLogo(environment, auth.tenantId, await receive(), (stored) =>
    inCallerTransaction(environment, async (tx) => {
      const before = await lockCenter(tx, found.id);
      if (before === undefined) throw new AppError('center.notFound');
      const now = clock.now();
      const center = await updateCenter(tx, before.id, { logoFile: stored?.key ?? before.logoFile, updatedAt: now });
      if (center === undefined) throw new AppError('center.notFound');
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'CENTER_UPDATED',
        targetType: 'health_center',
        targetId: center.id,
        details: { logoReplaced: true, contentType: stored?.contentType, size: stored?.size, source: 'manage' },
        at: now,
      });
      return { result: await toCenterDetail(tx, center), replacedKey: before.logoFile };
    }),
  );
}
