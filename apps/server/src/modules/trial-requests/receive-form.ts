import { TENANT_REQUEST_LOGO_FIELDS, tenantRequestFormSchema, type FieldError, type TenantRequestForm } from '@rpm/contracts';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import type { FileStorage, StoredFile } from '../../lib/file-storage.js';
import { storeImage } from '../tenants/branding.js';

type LogoField = (typeof TENANT_REQUEST_LOGO_FIELDS)[number];
export interface ReceivedTrialRequest {
  form: TenantRequestForm;
  logos: Record<LogoField, StoredFile>;
}

const TEXT_FIELDS = new Set(Object.keys(tenantRequestFormSchema.shape));
const isLogoField = (name: string): name is LogoField => (TENANT_REQUEST_LOGO_FIELDS as readonly string[]).includes(name);

function toFieldErrors(issues: { path: PropertyKey[]; code: string; message: string }[]): FieldError[] {
  return issues.map((issue) => ({
    field: ['body', ...issue.path.map(String)].join('.'),
    code: issue.code,
    message: issue.code === 'invalid_type' ? 'validation.required' : 'validation.invalidValue',
  }));
}

/**
 * Reads the public trial request form (multipart): its text fields and both logos, `logoSquare`
 * and `logoHorizontal`, each PNG (recognised by content) of at most 1 MB, counted while
 * streaming. Logos are stored as they arrive (the fields may come before or after them) and
 * removed again when anything about the request is refused, so a refusal leaves nothing behind.
 */
export async function receiveTrialRequestForm(request: FastifyRequest, storage: FileStorage, tenantId: string): Promise<ReceivedTrialRequest> {
  if (!request.isMultipart()) throw new AppError('common.unsupportedMediaType');
  const fields: Record<string, string> = {};
  const stored: Partial<Record<LogoField, StoredFile>> = {};
  const removeStored = () =>
    Promise.all(Object.values(stored).map((file) => storage.remove(file.key).catch(() => undefined)));
  try {
    let parts: AsyncIterableIterator<Multipart>;
    try {
      parts = request.parts();
    } catch (error) {
      throw new AppError('common.invalidParameter', { cause: error });
    }
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (error) {
        if (error instanceof AppError) throw error;
        // Malformed bodies, too many parts or fields: the caller's mistake.
        throw new AppError('common.invalidParameter', { cause: error });
      }
      if (next.done === true) break;
      const part = next.value;
      if (part.type === 'file') {
        const { file } = part;
        if (!isLogoField(part.fieldname) || stored[part.fieldname] !== undefined) {
          file.resume();
          throw new AppError('common.invalidParameter', { fieldErrors: [{ field: `body.${part.fieldname}`, code: 'unrecognized_keys', message: 'validation.unknownField' }] });
        }
        stored[part.fieldname] = await storeImage(storage, { stream: file, isTruncated: () => file.truncated }, {
          tenantId,
          category: 'trialrequests',
          accept: ['image/png'],
          field: `body.${part.fieldname}`,
        });
      } else if (TEXT_FIELDS.has(part.fieldname) && typeof part.value === 'string') {
        if (part.valueTruncated) {
          throw new AppError('common.invalidParameter', { fieldErrors: [{ field: `body.${part.fieldname}`, code: 'too_big', message: 'validation.tooBig' }] });
        }
        fields[part.fieldname] = part.value;
      }
    }
    const parsed = tenantRequestFormSchema.safeParse(fields);
    const missingLogos: FieldError[] = TENANT_REQUEST_LOGO_FIELDS.filter((field) => stored[field] === undefined).map((field) => ({
      field: `body.${field}`,
      code: 'required',
      message: 'file.missing',
    }));
    if (!parsed.success) throw new AppError('common.invalidParameter', { fieldErrors: [...toFieldErrors(parsed.error.issues), ...missingLogos] });
    if (missingLogos.length > 0 || stored.logoSquare === undefined || stored.logoHorizontal === undefined) {
      throw new AppError('file.missing', { fieldErrors: missingLogos });
    }
    return { form: parsed.data, logos: { logoSquare: stored.logoSquare, logoHorizontal: stored.logoHorizontal } };
  } catch (error) {
    await removeStored();
    throw error;
  }
}
