import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkTokenResponseSchema } from '@rpm/contracts';
import { changeLanguage, initI18n } from '../i18n';
import { ApiError } from './api-error';
import { api } from './client';

beforeAll(async () => {
  await initI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
  changeLanguage('en');
});

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
    response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const session = {
  userId: '01a1ff9c-0109-7f6f-bfa8-8576c8bfad21',
  tenantId: '01a1ff9c-00f4-70f9-9a27-489a5f0bfe47',
  role: 'DOCTOR',
  fullName: 'Linh Nguyen',
  expiresAt: '2026-11-22T07:36:36.332Z',
};

describe('api client', () => {
  it('sends the UI language, the same-origin cookie and a JSON body', async () => {
    changeLanguage('vi');
    const fetchMock = stubFetch(
      new Response(JSON.stringify({ resultCode: 200, data: { permissions: [] } }), { status: 200 }),
    );
    await api.post('/auth/permission', {});
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/auth/permission');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{}');
    expect(init?.headers).toMatchObject({ 'Accept-Language': 'vi', 'Content-Type': 'application/json' });
  });

  it('sends an upload as multipart, leaving the Content-Type (with its boundary) to the browser', async () => {
    const fetchMock = stubFetch(
      new Response(JSON.stringify({ resultCode: 200, data: null }), { status: 200 }),
    );
    const body = new FormData();
    body.append('file', new Blob(['x'], { type: 'image/png' }), 'me.png');
    await api.post('/account/me/profile/upload-avatar', body);
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.body).toBe(body);
    expect(init?.headers).not.toHaveProperty('Content-Type');
  });

  it('has PUT and DELETE for updates and removals', async () => {
    const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
      Promise.resolve(new Response(JSON.stringify({ resultCode: 200, data: null }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await api.put('/account/role/1', { name: 'x' });
    await api.delete('/account/role/1');
    expect(fetchMock.mock.calls.map(([, init]) => init?.method)).toEqual(['PUT', 'DELETE']);
  });

  it('validates the data with the contract schema', async () => {
    stubFetch(new Response(JSON.stringify({ resultCode: 200, data: session }), { status: 200 }));
    await expect(api.get('/auth/check-token', { schema: checkTokenResponseSchema })).resolves.toEqual(
      session,
    );
  });

  it('reports data that breaks the contract as an invalid answer', async () => {
    stubFetch(
      new Response(JSON.stringify({ resultCode: 200, data: { ...session, role: 'WIZARD' } }), {
        status: 200,
      }),
    );
    const error: unknown = await api
      .get('/auth/check-token', { schema: checkTokenResponseSchema })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalidResponse');
  });

  it('validates with a schema loaded alongside the request', async () => {
    stubFetch(
      new Response(JSON.stringify({ resultCode: 200, data: { ...session, role: 'WIZARD' } }), {
        status: 200,
      }),
    );
    const load = vi.fn(() => Promise.resolve(checkTokenResponseSchema));
    const error: unknown = await api
      .get('/auth/check-token', { schema: load })
      .catch((caught: unknown) => caught);
    expect(load).toHaveBeenCalledOnce();
    expect((error as ApiError).kind).toBe('invalidResponse');
  });

  it('reports a schema whose code could not be fetched as a network error', async () => {
    stubFetch(new Response(JSON.stringify({ resultCode: 200, data: session }), { status: 200 }));
    const error: unknown = await api
      .get('/auth/check-token', { schema: () => Promise.reject(new TypeError('Failed to fetch')) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
  });

  it('turns a fetch that throws into a network error with status 0', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error: unknown = await api.get('/auth/check-token').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).request).toEqual({ method: 'GET', path: '/auth/check-token' });
  });

  it('lets a cancelled request stay a cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('aborted', 'AbortError');
    stubFetch(abort);
    const error: unknown = await api
      .get('/auth/check-token', { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toBe(abort);
  });
});

describe('renewing the access token', () => {
  const expired = () =>
    new Response(
      JSON.stringify({
        resultCode: 500,
        code: 'auth.sessionExpired',
        message: 'Your session is expired!',
        requestId: 'r1',
      }),
      { status: 401 },
    );
  const okEnvelope = (data: unknown) =>
    new Response(JSON.stringify({ resultCode: 200, data }), { status: 200 });

  /** Answers by path: a queue of responses per path, taken in order. */
  function routeFetch(routes: Record<string, (() => Response)[]>) {
    const fetchMock = vi.fn((input: RequestInfo | URL) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      const next = routes[path]?.shift();
      return next ? Promise.resolve(next()) : Promise.reject(new Error(`unexpected call to ${path}`));
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('refreshes once and repeats the call when the access token has expired', async () => {
    const fetchMock = routeFetch({
      '/auth/check-token': [expired, () => okEnvelope(session)],
      '/auth/refresh-token': [() => okEnvelope(session)],
    });
    await expect(api.get('/auth/check-token', { schema: checkTokenResponseSchema })).resolves.toMatchObject({
      userId: session.userId,
    });
    expect(fetchMock.mock.calls.map(([input]) => input)).toEqual([
      '/auth/check-token',
      '/auth/refresh-token',
      '/auth/check-token',
    ]);
  });

  it('uses one refresh for calls that expire at the same moment', async () => {
    const fetchMock = routeFetch({
      '/auth/permission': [expired, () => okEnvelope({ permissions: [] })],
      '/account/tenant/setting/getAll': [expired, () => okEnvelope({ tenant: null, settings: [] })],
      '/auth/refresh-token': [() => okEnvelope(session)],
    });
    await Promise.all([api.post('/auth/permission', {}), api.get('/account/tenant/setting/getAll')]);
    expect(fetchMock.mock.calls.filter(([input]) => input === '/auth/refresh-token')).toHaveLength(1);
  });

  it('gives up with the original 401 when the refresh is refused', async () => {
    routeFetch({
      '/auth/check-token': [expired],
      '/auth/refresh-token': [
        () =>
          new Response(
            JSON.stringify({ resultCode: 500, code: 'auth.refreshInvalid', message: 'x', requestId: 'r' }),
            { status: 401 },
          ),
      ],
    });
    const error = await api.get('/auth/check-token').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('auth.sessionExpired');
  });
});
