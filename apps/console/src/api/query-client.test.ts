import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiErrorKind } from './api-error';
import { createQueryClient, handleRequestError, MAX_QUERY_RETRIES, shouldRetryQuery } from './query-client';
import { onSessionEnded } from './session-events';

function apiError(
  kind: ApiErrorKind,
  status: number,
  method = 'GET',
  code?: 'auth.loggedInElsewhere',
): ApiError {
  return new ApiError({ kind, status, code, request: { method, path: '/x' } });
}

describe('shouldRetryQuery', () => {
  it('retries network failures, 5xx and 502 twice, then stops', () => {
    for (const error of [
      apiError('network', 0),
      apiError('server', 500),
      apiError('maintenance', 502),
      apiError('server', 503),
    ]) {
      expect(shouldRetryQuery(0, error)).toBe(true);
      expect(shouldRetryQuery(1, error)).toBe(true);
      expect(shouldRetryQuery(MAX_QUERY_RETRIES, error)).toBe(false);
    }
  });

  it('never retries a 4xx answer', () => {
    for (const error of [
      apiError('unauthorized', 401),
      apiError('permissionDenied', 403),
      apiError('notFound', 404),
      apiError('validation', 400),
    ]) {
      expect(shouldRetryQuery(0, error)).toBe(false);
    }
  });

  it('does not repeat a POST, nor anything that is not an API error', () => {
    expect(shouldRetryQuery(0, apiError('network', 0, 'POST'))).toBe(false);
    expect(shouldRetryQuery(0, new Error('bug'))).toBe(false);
  });
});

describe('handleRequestError', () => {
  const unsubscribers: (() => void)[] = [];
  afterEach(() => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
  });

  it('announces the end of the session instead of showing a toast', () => {
    const ended = vi.fn();
    unsubscribers.push(onSessionEnded(ended));
    const notify = vi.fn();
    handleRequestError(apiError('loggedInElsewhere', 403, 'GET', 'auth.loggedInElsewhere'), undefined, {
      notify,
    });
    expect(ended).toHaveBeenCalledWith('auth.loggedInElsewhere');
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows other failures with the caller’s meta', () => {
    const notify = vi.fn();
    const error = apiError('server', 500);
    handleRequestError(error, { errorMessageKey: 'header.signOutFailed' }, { notify });
    expect(notify).toHaveBeenCalledWith(error, { errorMessageKey: 'header.signOutFailed' });
  });
});

describe('createQueryClient', () => {
  it('routes query failures through the shared handler and never retries mutations', async () => {
    const notify = vi.fn();
    const client = createQueryClient({ notify });
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
    const error = apiError('validation', 400);
    await client
      .query({ queryKey: ['x'], queryFn: () => Promise.reject(error), retry: false })
      .catch(() => undefined);
    expect(notify).toHaveBeenCalledWith(error, undefined);
    client.clear();
  });
});
