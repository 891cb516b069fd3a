import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  IMPORT_KINDS,
  IMPORT_LIMITS,
  IMPORT_PERMISSION,
  importCurrentQuerySchema,
  importJobSchema,
  importKindsAllowed,
  importListQuerySchema,
  importUploadQuerySchema,
  pageOf,
  successEnvelope,
  type ImportKindCode,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { attachmentHeader, XLSX_CONTENT_TYPE } from '../../lib/xlsx.js';
import { ImportFiles } from './files.js';
import { IMPORT_KIND_REGISTRY } from './kinds.js';
import { ImportRecoveryJob, recoverStaleImports } from './recovery.js';
import { ImportRunner } from './runner.js';
import { templateStream } from './template.js';
import {
  currentImport,
  listImports,
  openErrorFile,
  readImport,
  startImport,
  type ImportCaller,
  type ImportEnvironment,
  type ReceiveUpload,
} from './service.js';

const idParams = z.object({ id: z.uuid() });
const jobResponse = { 200: successEnvelope(importJobSchema) };
const TEMPLATE_NAMES: Record<ImportKindCode, string> = {
  PATIENT: 'patient-import-template.xlsx',
  DEVICE: 'device-import-template.xlsx',
};

/** Reads the multipart field `file`; the transport cuts it at the import limit (one byte more is "too large"). */
function receiveFrom(request: FastifyRequest): ReceiveUpload {
  return async () => {
    if (!request.isMultipart()) throw new AppError('file.missing');
    let part: Awaited<ReturnType<FastifyRequest['file']>>;
    try {
      part = await request.file();
    } catch (error) {
      throw new AppError('common.invalidParameter', { cause: error });
    }
    if (part === undefined) throw new AppError('file.missing');
    const { file } = part;
    if (part.fieldname !== 'file') {
      file.resume();
      throw new AppError('file.missing');
    }
    return { fileName: part.filename, stream: file, isTruncated: () => file.truncated };
  };
}

/** The import history and job routes serve callers who may import at least one kind. */
async function requireSomeImportPermission(request: FastifyRequest) {
  if (importKindsAllowed(requireAuth(request).permissions).length === 0)
    throw new AppError('auth.permissionDenied');
}

/**
 * Bulk xlsx imports of patients and devices (spec §2, §5, §8, §9) under /account: the template,
 * the upload (answers 202 with the job once the file passed its checks), the job's progress and
 * result, its error file, and the history. The jobs run in this process; a recovery pass ends
 * jobs a crashed process left behind.
 */
export const importAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so only this plugin's routes accept multipart bodies, with the import limit.
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: IMPORT_LIMITS.maxBytes,
      files: 1,
      fields: 5,
      parts: 6,
      fieldSize: 1024,
      headerPairs: 100,
    },
  });
  const files = new ImportFiles(path.join(app.config.dataDir, 'imports'));
  const runner = new ImportRunner({ database: app.database, clock: app.clock, files, log: app.log });
  const recovery = new ImportRecoveryJob(
    () => recoverStaleImports(app.database, app.clock, files, app.log),
    app.log,
  );
  app.addHook('onReady', async () => {
    recovery.start();
  });
  app.addHook('onClose', async () => {
    await recovery.stop();
    await runner.stop();
  });

  const environment: ImportEnvironment = {
    database: app.database,
    clock: app.clock,
    files,
    kinds: IMPORT_KIND_REGISTRY,
    runner,
  };
  const callerOf = (request: FastifyRequest): ImportCaller => ({
    auth: requireAuth(request),
    audit: auditContextOf(request),
    language: request.language,
  });
  const tags = ['imports'];

  for (const kind of IMPORT_KINDS) {
    app.get(
      `/imports/templates/${kind}`,
      {
        config: { access: IMPORT_PERMISSION[kind] },
        schema: {
          tags,
          summary: `The ${kind.toLowerCase()} import template (.xlsx): a first sheet with the header row every upload must keep unchanged, and an instructions sheet (in the caller's language) with example rows, which are never imported`,
        },
      },
      async (request, reply) => {
        const stream = templateStream(kind, IMPORT_KIND_REGISTRY[kind], request.language);
        return reply
          .header('content-disposition', attachmentHeader(TEMPLATE_NAMES[kind]))
          .header('cache-control', 'no-store')
          .type(XLSX_CONTENT_TYPE)
          .send(stream);
      },
    );

    app.post(
      `/imports/${kind}`,
      {
        config: { access: IMPORT_PERMISSION[kind] },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          querystring: importUploadQuerySchema,
          summary: `Start a ${kind.toLowerCase()} import`,
          description:
            'Multipart field `file`: an .xlsx of at most 500 MB (file.tooLarge, file.unsupportedType). Checked before it is accepted: a zip (by content) within the entry, size and compression-ratio limits with a workbook in it (import.invalidFile), the template headers unchanged (import.wrongHeaders), at least one data row (import.empty); one import per tenant at a time (import.inProgress). `defaultHealthCenterId` (patients): the health center of rows whose Health center cell is empty, one the caller sees (center.notFound); without it such rows are refused. Answers 202 with the QUEUED job; rows are then read in the background (poll GET /account/imports/current).',
          response: { 202: successEnvelope(importJobSchema) },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(
            ok(await startImport(environment, callerOf(request), kind, receiveFrom(request), request.query)),
          ),
    );
  }

  app.get(
    '/imports',
    {
      config: { access: 'session' },
      onRequest: requireSomeImportPermission,
      schema: {
        tags,
        summary:
          'Import history, newest first: the kinds the caller may import; every user’s when the caller sees the whole tenant, else their own. Paged, searchable by file name, sortable (created|fileName|status)',
        querystring: importListQuerySchema,
        response: { 200: successEnvelope(pageOf(importJobSchema)) },
      },
    },
    async (request) => ok(await listImports(environment, requireAuth(request), request.query)),
  );

  app.get(
    '/imports/current',
    {
      config: { access: 'session' },
      onRequest: requireSomeImportPermission,
      schema: {
        tags,
        summary:
          'The running import of a kind, else the caller’s latest one (null when none): what the console shows after a reload',
        querystring: importCurrentQuerySchema,
        response: { 200: successEnvelope(importJobSchema.nullable()) },
      },
    },
    async (request) => ok(await currentImport(environment, requireAuth(request), request.query.kind)),
  );

  app.get(
    '/imports/:id',
    {
      config: { access: 'session' },
      onRequest: requireSomeImportPermission,
      schema: {
        tags,
        summary: 'One import job: status, progress (bytesRead / fileSize), counts, failure code',
        params: idParams,
        response: jobResponse,
      },
    },
    async (request) => ok(await readImport(environment, requireAuth(request), request.params.id)),
  );

  app.get(
    '/imports/:id/error-file',
    {
      config: { access: 'session' },
      onRequest: requireSomeImportPermission,
      schema: {
        tags,
        summary:
          'The error file of an import (.xlsx): every refused row as uploaded, with its row number and reasons (import.noErrorFile when no row was refused)',
        params: idParams,
      },
    },
    async (request, reply) => {
      const file = await openErrorFile(environment, requireAuth(request), request.params.id);
      return reply
        .header('content-disposition', attachmentHeader(file.fileName))
        .header('cache-control', 'no-store')
        .header('content-length', file.size)
        .type(XLSX_CONTENT_TYPE)
        .send(file.stream);
    },
  );
};
