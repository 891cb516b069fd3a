import {
  CENTER_ADMIN_ROLES,
  type CenterAdminsInput,
  type CenterDetail,
  type CenterDetailsInput,
  type CenterForm,
  type CenterSummary,
  type CenterUpdateForm,
  type MhscAndScopeCheck,
  type MyCenter,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import type { OpenedFile } from '../../lib/file-storage.js';
import { recordAudit } from '../audit/store.js';
import * as store from './center-store.js';
import { distinct, inCallerTransaction, mappingDatabaseErrors, requireWholeTenant, type OrgEnvironment } from './environment.js';
import { withStoredLogo, type ReceivedFile } from './logo.js';
import { findScope, scopeIdsAdministeredBy, subtreeIds } from './scope-store.js';
import { toCenterDetail, toCenterSummaries } from './views.js';

/** Health-center rules (spec §3, §4, §5): unique name, one MAIN admin, in-use refusals, logo. */

export async function requireCenter(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}) {
  const center = options.lock === true ? await store.lockCenter(tx, id) : await store.findCenter(tx, id);
  if (center === undefined) throw new AppError('center.notFound');
  return center;
}

async function requireScopeReference(tx: TenantTransaction, scopeId: string | null): Promise<void> {
  if (scopeId !== null && (await findScope(tx, scopeId)) === undefined) throw new AppError('scope.notFound');
}

/** Admins must be active accounts of the acting tenant holding an admin role (spec §6). */
async function requireCenterAdmins(tx: TenantTransaction, mainAdminId: string, supportAdminIds: readonly string[]): Promise<string[]> {
  const supports = distinct(supportAdminIds).filter((id) => id !== mainAdminId);
  const wanted = [mainAdminId, ...supports];
  const found = await store.findActiveUsers(tx, wanted);
  if (found.length !== wanted.length || found.some((user) => !(CENTER_ADMIN_ROLES as readonly string[]).includes(user.role))) {
    throw new AppError('center.invalidAdmin');
  }
  return supports;
}

const detailsOf = (input: CenterDetailsInput) => ({
  name: input.name,
  type: input.type,
  representative: input.representative,
  phonePrefix: input.phonePrefix,
  phoneNumber: input.phoneNumber,
  hotline: input.hotline,
  email: input.email,
  website: input.website,
  address: input.address,
  lat: input.lat ?? null,
  lng: input.lng ?? null,
});

export interface CenterListQuery {
  page: number;
  size: number;
  searchValue?: string | undefined;
  scopeId?: string | undefined;
}

/** GET /sadmin/mhsc: the acting tenant's centers; a scope filter takes the scopes below it too. */
export async function listCenters(environment: OrgEnvironment, query: CenterListQuery) {
  requireWholeTenant(environment.auth);
  return inCallerTransaction(environment, async (tx) => {
    const scopeIds = query.scopeId === undefined ? undefined : await subtreeIds(tx, [query.scopeId]);
    const { items, total } = await store.listCenters(tx, { ...query, scopeIds });
    return { items: await toCenterSummaries(tx, items), page: query.page, size: query.size, total };
  });
}

/** GET /sadmin/mhsc/{id} (whole tenant) and GET /smadmin/mhsc/{id} (what the caller sees). */
export async function getCenter(environment: OrgEnvironment, id: string, options: { isTenantWide: boolean }): Promise<CenterDetail> {
  if (options.isTenantWide) requireWholeTenant(environment.auth);
  return inCallerTransaction(environment, async (tx) => toCenterDetail(tx, await requireCenter(tx, id)));
}

/** A new center with its admins, in one transaction; name, scope and admins checked. */
export async function insertCenterWithAdmins(
  environment: OrgEnvironment,
  tx: TenantTransaction,
  form: CenterForm,
  logoKey: string | null,
  source: 'account' | 'manage',
): Promise<CenterDetail> {
  const { auth, clock } = environment;
  const scopeId = form.scopeId ?? null;
  await requireScopeReference(tx, scopeId);
  const supportAdminIds = await requireCenterAdmins(tx, form.mainAdminId, form.supportAdminIds);
  const now = clock.now();
  const center = await store.insertCenter(tx, {
    tenantId: auth.tenantId,
    id: uuidv7(),
    ...detailsOf(form),
    scopeId,
    logoFile: logoKey,
    createdAt: now,
    updatedAt: now,
  });
  await store.replaceCenterAdmins(tx, auth.tenantId, center.id, form.mainAdminId, supportAdminIds);
  await recordAudit(tx, auth.tenantId, environment.audit, {
    action: 'CENTER_CREATED',
    targetType: 'health_center',
    targetId: center.id,
    details: { name: center.name, scopeId, mainAdminId: form.mainAdminId, supportAdminIds, hasLogo: logoKey !== null, source },
    at: now,
  });
  return toCenterDetail(tx, center);
}

/** POST /sadmin/mhsc. */
export async function createCenter(environment: OrgEnvironment, form: CenterForm, logo: ReceivedFile | undefined): Promise<CenterDetail> {
  requireWholeTenant(environment.auth);
  return withStoredLogo(environment, environment.auth.tenantId, logo, async (stored) => ({
    result: await mappingDatabaseErrors({ duplicate: 'center.nameExists' }, () =>
      inCallerTransaction(environment, (tx) => insertCenterWithAdmins(environment, tx, form, stored?.key ?? null, 'account')),
    ),
    replacedKey: null,
  }));
}

/** PUT /sadmin/mhsc/{id}: every field; the admins too when mainAdminId is sent; a new logo when one is sent. */
export async function updateCenter(environment: OrgEnvironment, id: string, form: CenterUpdateForm, logo: ReceivedFile | undefined): Promise<CenterDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return withStoredLogo(environment, auth.tenantId, logo, (stored) =>
    mappingDatabaseErrors({ duplicate: 'center.nameExists' }, () =>
      inCallerTransaction(environment, async (tx) => {
        const before = await requireCenter(tx, id, { lock: true });
        const scopeId = form.scopeId ?? null;
        await requireScopeReference(tx, scopeId);
        let admins: { mainAdminId: string; supportAdminIds: string[] } | undefined;
        if (form.mainAdminId !== undefined) {
          admins = { mainAdminId: form.mainAdminId, supportAdminIds: await requireCenterAdmins(tx, form.mainAdminId, form.supportAdminIds ?? []) };
          await store.replaceCenterAdmins(tx, auth.tenantId, id, admins.mainAdminId, admins.supportAdminIds);
        }
        const now = clock.now();
        const center = await store.updateCenter(tx, id, { ...detailsOf(form), scopeId, logoFile: stored?.key ?? before.logoFile, updatedAt: now });
        if (center === undefined) throw new AppError('center.notFound');
        await recordAudit(tx, auth.tenantId, environment.audit, {
          action: 'CENTER_UPDATED',
          targetType: 'health_center',
          targetId: id,
          details: { before: { name: before.name, scopeId: before.scopeId }, after: { name: center.name, scopeId }, admins, logoReplaced: stored !== undefined },
          at: now,
        });
        return { result: await toCenterDetail(tx, center), replacedKey: before.logoFile };
      }),
    ),
  );
}

/**
 * PUT /smadmin/mhsc/{id}: a center's own admin edits its details. Its scope, its enabled state
 * and its admins (in particular the MAIN admin) stay with the tenant-wide calls.
 */
export async function updateCenterDetails(environment: OrgEnvironment, id: string, input: CenterDetailsInput): Promise<CenterDetail> {
  const { auth, clock } = environment;
  return mappingDatabaseErrors({ duplicate: 'center.nameExists' }, () =>
    inCallerTransaction(environment, async (tx) => {
      const before = await requireCenter(tx, id, { lock: true });
      const now = clock.now();
      const center = await store.updateCenter(tx, id, { ...detailsOf(input), updatedAt: now });
      if (center === undefined) throw new AppError('center.notFound');
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'CENTER_UPDATED',
        targetType: 'health_center',
        targetId: id,
        details: { before: { name: before.name }, after: { name: center.name }, by: 'center-admin' },
        at: now,
      });
      return toCenterDetail(tx, center);
    }),
  );
}

/** PUT /sadmin/mhsc/deactivate/{id}: deactivation is refused while staff or patients use it. */
export async function setCenterEnabled(environment: OrgEnvironment, id: string, enabled: boolean): Promise<CenterDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return inCallerTransaction(environment, async (tx) => {
    const before = await requireCenter(tx, id, { lock: true });
    if (!enabled && before.enabled) {
      const usage = await store.centerUsage(tx, id);
      if (usage.staff > 0 || usage.patients > 0) throw new AppError('center.inUse');
    }
    const now = clock.now();
    const center = await store.updateCenter(tx, id, { enabled, updatedAt: now });
    if (center === undefined) throw new AppError('center.notFound');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: enabled ? 'CENTER_ACTIVATED' : 'CENTER_DEACTIVATED',
      targetType: 'health_center',
      targetId: id,
      details: { name: center.name, wasEnabled: before.enabled },
      at: now,
    });
    return toCenterDetail(tx, center);
  });
}

/** PUT /sadmin/mhsc/{id}/admins: the only call that changes a center's MAIN admin. */
export async function setCenterAdmins(environment: OrgEnvironment, id: string, input: CenterAdminsInput): Promise<CenterDetail> {
  const { auth, clock } = environment;
  requireWholeTenant(auth);
  return mappingDatabaseErrors({ duplicate: 'center.invalidAdmin' }, () =>
    inCallerTransaction(environment, async (tx) => {
      const center = await requireCenter(tx, id, { lock: true });
      const supportAdminIds = await requireCenterAdmins(tx, input.mainAdminId, input.supportAdminIds);
      const before = await store.centerAdminRowsOf(tx, id);
      await store.replaceCenterAdmins(tx, auth.tenantId, id, input.mainAdminId, supportAdminIds);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'CENTER_ADMINS_UPDATED',
        targetType: 'health_center',
        targetId: id,
        details: { before, mainAdminId: input.mainAdminId, supportAdminIds },
        at: clock.now(),
      });
      return toCenterDetail(tx, center);
    }),
  );
}

/** GET /sadmin/mhsc/{id}/logo: for anyone who may see the center. */
export async function openCenterLogo(environment: OrgEnvironment, id: string): Promise<OpenedFile> {
  const center = await inCallerTransaction(environment, (tx) => requireCenter(tx, id));
  const file = center.logoFile === null ? undefined : await environment.storage.open(center.logoFile);
  if (file === undefined) throw new AppError('common.notFound');
  return file;
}

/** GET /smadmin/mhsc/me: the centers the caller administers, and their level's center. */
export async function listMyCenters(environment: OrgEnvironment): Promise<MyCenter[]> {
  const { auth } = environment;
  return inCallerTransaction(environment, async (tx) => {
    const administered = await store.centersAdministeredBy(tx, auth.userId);
    const ids = distinct([...administered.map((row) => row.centerId), ...(auth.centerId === null ? [] : [auth.centerId])]);
    const summaries = await toCenterSummaries(tx, await store.findCentersByIds(tx, ids));
    return summaries.map((summary) => ({ ...summary, adminKind: administered.find((row) => row.centerId === summary.id)?.kind ?? null }));
  });
}

/** GET /user/mhsc: the caller's own centers (level, extra levels, administered, as a patient). */
export async function listUserCenters(environment: OrgEnvironment): Promise<CenterSummary[]> {
  const { auth } = environment;
  // Platform staff have no rows in the tenant they act in: they belong to no center of it.
  if (auth.accountTenantId !== auth.tenantId) return [];
  return inCallerTransaction(environment, async (tx) => toCenterSummaries(tx, await store.findCentersByIds(tx, await store.centerIdsOfUser(tx, auth.userId))));
}

/** GET /smadmin/check-mhsc-and-scope: whether the caller has any scope and any center. */
export async function checkMhscAndScope(environment: OrgEnvironment): Promise<MhscAndScopeCheck> {
  const { auth } = environment;
  return inCallerTransaction(environment, async (tx) => {
    const scopes = await scopeIdsAdministeredBy(tx, auth.userId);
    const centers = await store.centersAdministeredBy(tx, auth.userId);
    const scopeIds = distinct([...(auth.scopeId === null ? [] : [auth.scopeId]), ...scopes]);
    const centerIds = distinct([...(auth.centerId === null ? [] : [auth.centerId]), ...centers.map((row) => row.centerId)]);
    return { hasScope: scopeIds.length > 0, hasCenter: centerIds.length > 0, scopeIds, centerIds };
  });
}
