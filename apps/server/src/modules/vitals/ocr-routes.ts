import fastifyMultipart from '@fastify/multipart';
import {
  OCR_IMAGE_MAX_BYTES,
  OCR_IMAGE_TYPES,
  ocrResultSchema,
  parseReadingText,
  successEnvelope,
  thresholdsViewSchema,
  type OcrResult,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { detectImageType } from '../../lib/file-storage.js';
import { requireFeature } from '../packages/subscriptions.js';
import { readTenantSettings } from '../tenants/store.js';
import { createLocalOcr, ocrAdapterFor } from './ocr-adapters.js';
import { withVitalsPatient, type VitalsEnvironment } from './patient-access.js';
import { readPatientThresholds } from './thresholds-service.js';

const DEFAULT_CLOUD_URL = 'https://vision.googleapis.com';

function environmentOf(request: FastifyRequest): VitalsEnvironment {
  return {
    database: request.server.database,
    clock: request.server.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  };
}

/** The patient app's own calls: a staff account holds no patient record of its own. */
function requirePatientSession(request: FastifyRequest): VitalsEnvironment {
  const environment = environmentOf(request);
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return environment;
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The photo of the multipart field `image`: at most OCR_IMAGE_MAX_BYTES (cut while reading:
 * file.tooLarge), a PNG, JPEG or WebP by its first bytes (file.unsupportedType), present and not
 * empty (file.missing).
 */
async function receivePhoto(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('file.missing');
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file();
  } catch (error) {
    throw new AppError('common.invalidParameter', { cause: error });
  }
  if (part === undefined) throw new AppError('file.missing');
  if (part.fieldname !== 'image') {
    part.file.resume();
    throw new AppError('file.missing');
  }
  const content = await readAll(part.file);
  if (part.file.truncated) throw new AppError('file.tooLarge');
  if (content.length === 0) throw new AppError('file.missing');
  const type = detectImageType(content.subarray(0, 12));
  if (type === undefined || !(OCR_IMAGE_TYPES as readonly string[]).includes(type))
    throw new AppError('file.unsupportedType');
  return content;
}

/**
 * Photo entry under /collector: a photo of a device's display read by the tenant's OCR adapter
 * (ocr-adapters.ts) into candidate values the patient confirms before saving them as PHOTO_OCR
 * readings (POST /collector/readings); and the patient's own thresholds, for the warning the
 * entry screens show before saving.
 */
export const vitalsOcrRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so only this plugin's routes accept multipart (the photo).
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: OCR_IMAGE_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 100 },
  });
  const local = createLocalOcr();
  app.addHook('onClose', async () => {
    await local.close();
  });
  const cloudUrl = app.config.ocrCloudUrl ?? DEFAULT_CLOUD_URL;
  const tags = ['vitals'];

  app.post(
    '/ocr',
    {
      config: { access: 'session' },
      bodyLimit: OCR_IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary:
          'Photo entry (patient sessions only; staff get 404 health.noPatientProfile): multipart field `image`, a photo of a device’s display (PNG, JPEG or WebP recognised by content, at most 5 MB: file.tooLarge 413, file.unsupportedType 415, file.missing). Read by the tenant’s OCR adapter — Google Cloud Vision when the tenant has OCR_HEALTH_DEVICE_API_KEY, else tesseract.js on the server — into candidate values, which are not stored: the app saves what the patient confirms as PHOTO_OCR readings. Needs PHOTO_ENTRY in the profile’s package (403 package.upgradeRequired, before the photo is read). No candidates: the spec’s “could not detect data”. A failing cloud service: common.unavailable',
        consumes: ['multipart/form-data'],
        response: { 200: successEnvelope(ocrResultSchema) },
      },
    },
    async (request) => {
      const environment = requirePatientSession(request);
      // The caller must have a patient record (and a live account) before any photo is read, and
      // photo entry in its package (a paid feature, spec §6; manual entry never is).
      await withVitalsPatient(
        environment,
        { patientId: undefined, permission: 'health.view', lock: false, write: true },
        (tx, patient) => requireFeature(tx, patient.id, 'PHOTO_ENTRY'),
      );
      const photo = await receivePhoto(request);
      const settings = await readTenantSettings(app.database.system, environment.auth.tenantId);
      const adapter = ocrAdapterFor(settings, local, cloudUrl);
      const text = await adapter.recognize(photo);
      const result: OcrResult = { adapter: adapter.name, text, candidates: parseReadingText(text) };
      return ok(result);
    },
  );

  app.get(
    '/me/thresholds',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The calling patient’s own effective thresholds (canonical units), for the entry screens’ warning (patient sessions only: a staff account gets 404 health.noPatientProfile). Audited',
        response: { 200: successEnvelope(thresholdsViewSchema) },
      },
    },
    async (request) => ok(await readPatientThresholds(requirePatientSession(request), undefined)),
  );
};
