import { Readable } from 'node:stream';
import {
  LICENSE_IMAGE_MAX_BYTES,
  LICENSE_IMAGE_TYPES,
  type DoctorLicenseFields,
  type DoctorProfile,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { AppError } from '../../http/app-error.js';
import {
  FileRejectedError,
  IMAGE_TYPES,
  type FileRejection,
  type FileStorage,
  type OpenedFile,
} from '../../lib/file-storage.js';
import { recordAudit } from '../audit/store.js';
import { ReceivedFile } from '../org/logo.js';
import { readDoctor, withDoctor, type DoctorEnvironment } from './doctor-service.js';
import * as store from './store.js';

export interface LicenseEnvironment extends DoctorEnvironment {
  storage: FileStorage;
  log: { warn(details: object, message: string): void };
}

/** The multipart limits of the license form: one image of at most 1 MB and two text fields. */
export const LICENSE_FORM_LIMITS = {
  fileSize: LICENSE_IMAGE_MAX_BYTES,
  files: 1,
  fields: 5,
  parts: 6,
  fieldSize: 1024,
  headerPairs: 100,
};
const ACCEPTED = IMAGE_TYPES.filter((type) => (LICENSE_IMAGE_TYPES as readonly string[]).includes(type));

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

async function readAll(stream: AsyncIterable<unknown>, keep: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    if (keep) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * preValidation hook of the license form: the text fields become the body the route's schema
 * validates, the `image` part a ReceivedFile (cut at 1 MB, reported rather than thrown so that an
 * oversized image gets its own answer). A malformed body is the caller's mistake (400).
 */
export async function readLicenseForm(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const content = await readAll(part.file, part.fieldname === 'image');
        if (part.fieldname === 'image') fields.image = new ReceivedFile(content, part.file.truncated);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw new AppError('common.invalidParameter', { cause: error });
  }
  request.body = fields;
}

/** Stores the image after checking its size and its real type (magic bytes), or refuses it. */
async function storeImage(environment: LicenseEnvironment, image: ReceivedFile): Promise<string> {
  try {
    const stored = await environment.storage.save(Readable.from([image.content]), {
      tenantId: environment.auth.tenantId,
      category: 'licenses',
      maxBytes: LICENSE_IMAGE_MAX_BYTES,
      accept: ACCEPTED,
      isTruncated: () => image.isTruncated,
    });
    return stored.key;
  } catch (error) {
    if (error instanceof FileRejectedError)
      throw new AppError(ERROR_OF_REJECTION[error.reason], { cause: error });
    throw error;
  }
}

/**
 * POST /account/doctors/:id/licenses: the license's image is checked (size while reading, type by
 * its first bytes) and stored first, then the row and its audit entry are written together; the
 * stored file is removed again when that fails.
 */
export async function addLicense(
  environment: LicenseEnvironment,
  doctorId: string,
  fields: DoctorLicenseFields,
  image: ReceivedFile | undefined,
): Promise<DoctorProfile> {
  // The doctor must be reachable before any byte is stored.
  await withDoctor(environment, doctorId, {}, () => Promise.resolve());
  if (image === undefined)
    throw new AppError('file.missing', {
      fieldErrors: [{ field: 'body.image', code: 'invalid_type', message: 'the license image is required' }],
    });
  const storedKey = await storeImage(environment, image);
  try {
    await withDoctor(environment, doctorId, { lock: true }, async (tx) => {
      const now = environment.clock.now();
      const id = uuidv7();
      await store.insertLicense(tx, {
        tenantId: environment.auth.tenantId,
        id,
        doctorId,
        name: fields.name,
        expiresOn: fields.expiresOn,
        imageFile: storedKey,
        createdAt: now,
      });
      await recordAudit(tx, environment.auth.tenantId, environment.audit, {
        action: 'DOCTOR_LICENSE_ADDED',
        subjectUserId: doctorId,
        targetType: 'doctor_license',
        targetId: id,
        details: { name: fields.name, expiresOn: fields.expiresOn, hasImage: true },
        at: now,
      });
    });
  } catch (error) {
    await environment.storage.remove(storedKey).catch((removeError: unknown) => {
      environment.log.warn(
        { err: removeError, key: storedKey },
        'could not remove a license image that was not saved',
      );
    });
    throw error;
  }
  return readDoctor(environment, doctorId);
}

/** DELETE /account/doctors/:id/licenses/:licenseId; the image goes once the row is gone. */
export async function removeLicense(
  environment: LicenseEnvironment,
  doctorId: string,
  licenseId: string,
): Promise<DoctorProfile> {
  const imageKey = await withDoctor(environment, doctorId, { lock: true }, async (tx) => {
    const license = await store.findLicense(tx, doctorId, licenseId);
    if (license === undefined) throw new AppError('doctor.licenseNotFound');
    const now = environment.clock.now();
    await store.deleteLicense(tx, licenseId);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'DOCTOR_LICENSE_DELETED',
      subjectUserId: doctorId,
      targetType: 'doctor_license',
      targetId: licenseId,
      details: { name: license.name, expiresOn: license.expiresOn },
      at: now,
    });
    return license.imageFile;
  });
  if (imageKey !== null) {
    await environment.storage.remove(imageKey).catch((error: unknown) => {
      environment.log.warn({ err: error, key: imageKey }, 'could not remove a deleted license image');
    });
  }
  return readDoctor(environment, doctorId);
}

/** GET /account/doctors/:id/licenses/:licenseId/image. */
export async function openLicenseImage(
  environment: LicenseEnvironment,
  doctorId: string,
  licenseId: string,
): Promise<OpenedFile> {
  const key = await withDoctor(environment, doctorId, {}, async (tx) => {
    const license = await store.findLicense(tx, doctorId, licenseId);
    if (license === undefined) throw new AppError('doctor.licenseNotFound');
    return license.imageFile;
  });
  const file = key === null ? undefined : await environment.storage.open(key);
  if (file === undefined) throw new AppError('common.notFound');
  return file;
}
