import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { testConfig } from '../../test/test-config.js';
import { buildApp } from '../app.js';
import { connectDatabase } from '../db/database.js';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

interface LogLine {
  level: number;
  msg: string;
  summary?: unknown;
  res?: { statusCode: number };
}

/** The server as `npm start` runs it (info level), its log lines captured. */
async function appWithLog(level: string, database = testDb.database) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const app = await buildApp({ config: testConfig(), database, logger: pino({ level }, stream) });
  return { app, lines };
}

const INFO = 30;
const DEBUG = 20;

describe('server log', () => {
  it('at info, writes no line per request, then one summary of the requests', async () => {
    const { app, lines } = await appWithLog('info');
    await app.ready();
    const before = lines.length;
    for (let index = 0; index < 3; index++) expect((await app.inject('/healthz')).statusCode).toBe(200);
    expect((await app.inject('/account/no-such-route')).statusCode).toBeGreaterThanOrEqual(400);
    expect(lines.slice(before)).toEqual([]);
    // The summary of the current interval is written when the server closes (and once a minute).
    await app.close();
    const summaries = lines.filter((line) => line.msg === 'requests in the last minute');
    expect(summaries).toEqual([
      expect.objectContaining({
        level: INFO,
        summary: expect.objectContaining({
          requests: 4,
          errors: 0,
          byStatusClass: { '2xx': 3, '4xx': 1 },
        }) as unknown,
      }),
    ]);
  });

  it('at debug, writes each request and its answer', async () => {
    const { app, lines } = await appWithLog('debug');
    await app.inject('/account/no-such-route');
    await app.close();
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toEqual([expect.objectContaining({ level: DEBUG, res: { statusCode: 404 } })]);
    expect(lines.some((line) => line.msg === 'incoming request' && line.level === DEBUG)).toBe(true);
  });

  it('at info, still writes an answer with a 5xx status, at error', async () => {
    const unreachable = connectDatabase('postgres://rpm_app:x@127.0.0.1:1/none');
    const { app, lines } = await appWithLog('info', unreachable);
    try {
      expect((await app.inject('/readyz')).statusCode).toBe(503);
    } finally {
      await app.close();
      await unreachable.close();
    }
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'request answered with a server error',
        res: { statusCode: 503 },
      }),
    );
  });
});
