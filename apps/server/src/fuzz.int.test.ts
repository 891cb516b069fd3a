import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../test/app.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { createTenant, createTenantUser } from '../test/factories.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let token: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
  token = await logIn(app, tenant.code, user.email ?? '');
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

type Method = NonNullable<InjectOptions['method']>;

interface Operation {
  method: Method;
  url: string;
}

/** Every operation of the OpenAPI document, which is generated from the registered routes. */
async function operations(): Promise<Operation[]> {
  const document = (await app.inject('/docs/json')).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  return Object.entries(document.paths).flatMap(([url, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase() as Method, url })),
  );
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  jsonValue,
  fc.dictionary(
    fc.constantFrom('tenant', 'username', 'password', 'grant_type', 'remember_me', 'page', 'size', 'id'),
    jsonValue,
  ),
  fc.string(),
);

/** A successful download: a spreadsheet, an image, a PDF or raw bytes. */
const DOWNLOAD =
  /^200 (application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet|image\/(png|jpeg|gif|webp)|application\/pdf|application\/octet-stream)/;

it('no route answers 5xx to arbitrary bodies, query strings and tokens', async () => {
  const all = await operations();
  expect(all.length).toBeGreaterThanOrEqual(8);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...all),
      body,
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
      fc.constantFrom('none', 'valid', 'garbage'),
      fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      async (operation, payload, query, auth, contentType) => {
        const response = await app.inject({
          method: operation.method,
          url: operation.url.replace(/\{[^}]+\}/g, 'x'),
          query,
          ...(operation.method === 'GET'
            ? {}
            : {
                payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
                headers: { 'content-type': contentType },
              }),
          ...(auth === 'valid'
            ? withSession(token)
            : auth === 'garbage'
              ? withSession('\u0000not-a-token')
              : {}),
        });
        if (response.statusCode >= 500 && response.statusCode !== 503) {
          throw new Error(
            `${operation.method} ${operation.url} answered ${response.statusCode}: ${response.body}`,
          );
        }
        // Every API answer, even a refusal, is an envelope (health endpoints excepted); the only
        // other answers are successful downloads (templates, exports, files, images).
        if (!operation.url.startsWith('/healthz') && !operation.url.startsWith('/readyz')) {
          const contentType = String(response.headers['content-type'] ?? '');
          if (contentType.startsWith('application/json')) {
            expect(response.json<{ resultCode: number }>().resultCode).toBeOneOf([200, 500]);
          } else {
            expect(`${String(response.statusCode)} ${contentType}`).toMatch(DOWNLOAD);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});
