import {
  TENANT_LOGO_MAX_BYTES,
  type EmailTemplate,
  type EmailTemplateKey,
  type Language,
  type TenantDetail,
  type TenantLogoKind,
} from '@rpm/contracts';
import type { Readable } from 'node:stream';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { FileRejectedError, type FileRejection, type FileStorage, type ImageType, type OpenedFile, type StoredFile } from '../../lib/file-storage.js';
import { changeTenant, findManageableTenant, readTenantDetail, type TenantAdminEnvironment } from './admin-service.js';
import { loadEmailTemplate, renderEmail } from './email-templates.js';
import { enterTenantLookup, logoFileOf } from './service.js';
import * as store from './store.js';

/** Spec §3: logos are PNG; the registration QR code may also be a JPEG (what phones and tools export). */
export const ACCEPTED_LOGO_TYPES: Record<TenantLogoKind, readonly ImageType[]> = {
  square: ['image/png'],
  horizontal: ['image/png'],
  qr: ['image/png', 'image/jpeg'],
};

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

/** An upload that the storage refused, as the API error naming the field. */
export function uploadError(error: FileRejectedError, field: string): AppError {
  const code = ERROR_OF_REJECTION[error.reason];
  return new AppError(code, { cause: error, fieldErrors: [{ field, code: error.reason, message: code }] });
}

export interface Upload {
  stream: Readable;
  isTruncated: () => boolean;
}

/** Stores an image (size counted while streaming, type from its first bytes) or throws the API error. */
export async function storeImage(
  storage: FileStorage,
  upload: Upload,
  options: { tenantId: string; category: string; accept: readonly ImageType[]; field: string },
): Promise<StoredFile> {
  try {
    return await storage.save(upload.stream, {
      tenantId: options.tenantId,
      category: options.category,
      maxBytes: TENANT_LOGO_MAX_BYTES,
      accept: options.accept,
      isTruncated: upload.isTruncated,
    });
  } catch (error) {
    if (error instanceof FileRejectedError) throw uploadError(error, options.field);
    throw error;
  }
}

const COLUMN_OF_KIND = { square: 'logoSquareFile', horizontal: 'logoHorizontalFile', qr: 'registrationQrFile' } as const;

/**
 * POST /manage/sadmin/tenant/{id}/logo?kind=…: the file is received only once the tenant is known
 * to be manageable; the row changes after the file is stored, and the previous file goes only
 * after that commit, so a failure at any step leaves a working logo.
 */
export async function uploadTenantLogo(
  environment: TenantAdminEnvironment & { storage: FileStorage },
  tenantId: string,
  kind: TenantLogoKind,
  receive: () => Promise<Upload>,
): Promise<TenantDetail> {
  const tenant = await findManageableTenant(environment, tenantId);
  const stored = await storeImage(environment.storage, await receive(), { tenantId: tenant.id, category: 'logos', accept: ACCEPTED_LOGO_TYPES[kind], field: 'body.file' });
  const now = environment.clock.now();
  let previous: string | null;
  try {
    previous = await changeTenant(
      environment,
      tenant,
      async (controlPlane, locked) => {
        await store.updateTenant(controlPlane, tenant.id, { [COLUMN_OF_KIND[kind]]: stored.key, updatedAt: now });
        return logoFileOf(locked, kind);
      },
      () => ({ action: 'TENANT_BRANDING_UPDATED', targetType: 'tenant', targetId: tenant.id, details: { kind, contentType: stored.contentType, size: stored.size }, at: now }),
    );
  } catch (error) {
    await environment.storage.remove(stored.key).catch((removeError: unknown) => {
      environment.log.warn({ err: removeError, key: stored.key }, 'could not remove a logo that was not saved');
    });
    throw error;
  }
  if (previous !== null) {
    await environment.storage.remove(previous).catch((error: unknown) => {
      environment.log.warn({ err: error, key: previous }, 'could not remove the previous logo');
    });
  }
  return readTenantDetail(environment, tenant.id);
}

/**
 * GET /manage/tenant/{code}/logo?kind=…: public (login page, branding, registration QR). Only
 * active customer tenants have images here; the platform tenant has none. An answer per code is
 * a way to learn which codes exist, so every miss (unknown, inactive or platform code, or a
 * tenant without that image: the same 404, and counting them all leaves no difference to probe)
 * spends the caller's address budget shared with the lookup by code; images found cost nothing.
 */
export async function openPublicLogo(
  environment: { database: TenantAdminEnvironment['database']; storage: FileStorage; clock: Clock; ip: string | undefined },
  code: string,
  kind: TenantLogoKind,
): Promise<OpenedFile> {
  const { system } = environment.database;
  const lookup = await enterTenantLookup({ system, clock: environment.clock, ip: environment.ip });
  const tenant = await store.findActiveTenantByCode(system, code);
  const file = tenant === undefined || tenant.isPlatform ? null : logoFileOf(tenant, kind);
  const opened = file === null ? undefined : await environment.storage.open(file);
  if (opened === undefined) {
    await lookup.countMiss();
    throw new AppError('common.notFound');
  }
  return opened;
}

// Email templates ---------------------------------------------------------------------------------

export async function readEmailTemplate(environment: TenantAdminEnvironment, tenantId: string, key: EmailTemplateKey, language: Language): Promise<EmailTemplate> {
  const tenant = await findManageableTenant(environment, tenantId);
  return loadEmailTemplate(environment.database.system, tenant.id, key, language);
}

export async function saveEmailTemplate(
  environment: TenantAdminEnvironment,
  tenantId: string,
  key: EmailTemplateKey,
  language: Language,
  input: { subject: string; body: string },
): Promise<EmailTemplate> {
  const tenant = await findManageableTenant(environment, tenantId);
  const now = environment.clock.now();
  await changeTenant(
    environment,
    tenant,
    (controlPlane) => store.upsertEmailTemplate(controlPlane, { tenantId: tenant.id, key, language, subject: input.subject, body: input.body, updatedAt: now }),
    () => ({ action: 'TENANT_EMAIL_TEMPLATE_UPDATED', targetType: 'tenant', targetId: tenant.id, details: { key, language }, at: now }),
  );
  return loadEmailTemplate(environment.database.system, tenant.id, key, language);
}

/** Sample values for previews: the tenant's own name, code and address, made-up person and code. */
export async function previewEmailTemplate(
  environment: TenantAdminEnvironment,
  tenantId: string,
  key: EmailTemplateKey,
  language: Language,
  input: { subject?: string | undefined; body?: string | undefined },
) {
  const tenant = await findManageableTenant(environment, tenantId);
  const current = await loadEmailTemplate(environment.database.system, tenant.id, key, language);
  return renderEmail(
    { subject: input.subject ?? current.subject, body: input.body ?? current.body },
    {
      name: language === 'vi' ? 'Nguyễn Văn An' : 'Jane Doe',
      email: 'jane.doe@example.com',
      tenant: tenant.name,
      tenantCode: tenant.code,
      link: `${tenant.publicUrl || 'https://console.example.com'}/forgot-password`,
      code: '123456',
      minutes: '5',
    },
  );
}
