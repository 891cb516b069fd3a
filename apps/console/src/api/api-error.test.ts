import { describe, expect, it } from 'vitest';
import { ApiError, classifyFailure, readEnvelope } from './api-error';

const request = { method: 'GET', path: '/auth/check-token' };

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function failureOf(response: Response): Promise<ApiError> {
  try {
    await readEnvelope(response, request);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected readEnvelope to throw');
}

describe('readEnvelope', () => {
  it('returns the data of a success envelope', async () => {
    const data = await readEnvelope(
      jsonResponse(200, { resultCode: 200, data: { permissions: ['dashboard.view'] } }),
      request,
    );
    expect(data).toEqual({ permissions: ['dashboard.view'] });
  });

  it('turns 401 into an unauthorized error carrying the code and the localised message', async () => {
    const error = await failureOf(
      jsonResponse(401, {
        resultCode: 500,
        code: 'auth.sessionExpired',
        message: 'Phiên đăng nhập của bạn đã hết hạn!',
        requestId: 'r-1',
      }),
    );
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.code).toBe('auth.sessionExpired');
    expect(error.serverMessage).toBe('Phiên đăng nhập của bạn đã hết hạn!');
    expect(error.requestId).toBe('r-1');
    expect(error.request).toEqual(request);
  });

  it('tells a login elsewhere from a missing permission, both 403', async () => {
    const elsewhere = await failureOf(
      jsonResponse(403, { resultCode: 500, code: 'auth.loggedInElsewhere', message: 'x', requestId: 'r' }),
    );
    const denied = await failureOf(
      jsonResponse(403, { resultCode: 500, code: 'auth.permissionDenied', message: 'y', requestId: 'r' }),
    );
    expect(elsewhere.kind).toBe('loggedInElsewhere');
    expect(denied.kind).toBe('permissionDenied');
    expect(denied.serverMessage).toBe('y');
  });

  it('reads a proxy 502 page that is not JSON as maintenance', async () => {
    const error = await failureOf(new Response('<html><body>Bad gateway</body></html>', { status: 502 }));
    expect(error.kind).toBe('maintenance');
    expect(error.code).toBeUndefined();
    expect(error.serverMessage).toBeUndefined();
  });

  it('keeps the field errors of a 400', async () => {
    const error = await failureOf(
      jsonResponse(400, {
        resultCode: 500,
        code: 'common.invalidParameter',
        message: 'Invalid request parameter',
        fieldErrors: [{ field: 'body.username', code: 'required', message: 'Required' }, { nonsense: true }],
        requestId: 'r',
      }),
    );
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual([{ field: 'body.username', code: 'required', message: 'Required' }]);
  });

  it('drops a code it does not know but keeps the message', async () => {
    const error = await failureOf(
      jsonResponse(409, { resultCode: 500, code: 'made.up', message: 'Conflict', requestId: 'r' }),
    );
    expect(error.code).toBeUndefined();
    expect(error.serverMessage).toBe('Conflict');
    expect(error.kind).toBe('validation');
  });

  it('treats a 200 without a success envelope as an invalid answer, not as data', async () => {
    const error = await failureOf(new Response('<!doctype html><div id="root"></div>', { status: 200 }));
    expect(error.kind).toBe('invalidResponse');
  });

  it('treats a 500 with an empty body as a server failure', async () => {
    const error = await failureOf(new Response('', { status: 500 }));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(500);
  });
});

describe('classifyFailure', () => {
  it('maps statuses to the reactions of spec §7', () => {
    expect(classifyFailure(401, 'auth.unauthorized')).toBe('unauthorized');
    expect(classifyFailure(403, undefined)).toBe('permissionDenied');
    expect(classifyFailure(403, 'auth.loggedInElsewhere')).toBe('loggedInElsewhere');
    expect(classifyFailure(502, undefined)).toBe('maintenance');
    expect(classifyFailure(404, 'common.notFound')).toBe('notFound');
    expect(classifyFailure(429, 'common.tooManyRequests')).toBe('validation');
    expect(classifyFailure(503, 'common.unavailable')).toBe('server');
  });
});
