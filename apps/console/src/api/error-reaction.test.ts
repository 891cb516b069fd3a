import { describe, expect, it } from 'vitest';
import { ApiError, readEnvelope, type ApiErrorKind } from './api-error';
import { decideReaction, errorMessageFor } from './error-reaction';
import type { ErrorCode } from '@rpm/contracts';

function apiError(kind: ApiErrorKind, status: number, code?: ErrorCode, serverMessage?: string): ApiError {
  return new ApiError({ kind, status, code, serverMessage, request: { method: 'GET', path: '/x' } });
}

describe('decideReaction', () => {
  it('ends the session on 401, with the expired reason when the server says so', () => {
    expect(decideReaction(apiError('unauthorized', 401, 'auth.unauthorized'), undefined)).toEqual({
      type: 'endSession',
      reason: 'auth.unauthorized',
    });
    expect(decideReaction(apiError('unauthorized', 401, 'auth.sessionExpired'), undefined)).toEqual({
      type: 'endSession',
      reason: 'auth.sessionExpired',
    });
  });

  it('ends the session when logged in elsewhere, even for screens that show their own errors', () => {
    expect(
      decideReaction(apiError('loggedInElsewhere', 403, 'auth.loggedInElsewhere'), {
        errorDisplay: 'inline',
      }),
    ).toEqual({
      type: 'endSession',
      reason: 'auth.loggedInElsewhere',
    });
  });

  it('keeps the session on a missing permission and shows it', () => {
    expect(decideReaction(apiError('permissionDenied', 403, 'auth.permissionDenied'), undefined)).toEqual({
      type: 'notify',
    });
  });

  it('leaves a sign-in attempt’s 401 to the sign-in form', () => {
    expect(
      decideReaction(apiError('unauthorized', 401, 'auth.unauthorized'), {
        handlesAuthErrors: true,
        errorDisplay: 'inline',
      }),
    ).toEqual({ type: 'none' });
  });

  it('does not toast what the screen shows inline', () => {
    expect(decideReaction(apiError('server', 500), { errorDisplay: 'inline' })).toEqual({ type: 'none' });
    expect(decideReaction(new Error('boom'), undefined)).toEqual({ type: 'notify' });
  });
});

describe('errorMessageFor', () => {
  it('uses the fixed HTTP-level messages of spec §8', () => {
    expect(errorMessageFor(apiError('network', 0))).toEqual({ key: 'errors:common.network' });
    expect(errorMessageFor(apiError('maintenance', 502, undefined, 'Bad gateway'))).toEqual({
      key: 'errors:common.maintenance',
    });
    expect(errorMessageFor(apiError('loggedInElsewhere', 403, 'auth.loggedInElsewhere'))).toEqual({
      key: 'errors:auth.loggedInElsewhere',
    });
    expect(errorMessageFor(apiError('unauthorized', 401, 'auth.sessionExpired'))).toEqual({
      key: 'errors:auth.sessionExpired',
    });
    expect(errorMessageFor(apiError('unauthorized', 401))).toEqual({ key: 'errors:auth.unauthorized' });
  });

  it('prefers the action’s own message, then the server’s, then the code, then the default', () => {
    const withMessage = apiError('validation', 400, 'auth.wrongCredentials', 'Wrong login information');
    expect(errorMessageFor(withMessage, 'header.signOutFailed')).toEqual({ key: 'header.signOutFailed' });
    expect(errorMessageFor(withMessage)).toEqual({ text: 'Wrong login information' });
    expect(errorMessageFor(apiError('notFound', 404, 'common.notFound'))).toEqual({
      key: 'errors:common.notFound',
    });
    expect(errorMessageFor(apiError('server', 500))).toEqual({ key: 'errors:common.default' });
    expect(errorMessageFor(new Error('boom'))).toEqual({ key: 'errors:common.default' });
  });

  it('shows a 429 in the server’s words, even where the action has its own message', async () => {
    const answer = new Response(
      JSON.stringify({
        resultCode: 500,
        code: 'common.sendQuota',
        message: 'Đã yêu cầu gửi quá nhiều email hoặc tin nhắn. Vui lòng thử lại sau (tối đa một giờ)',
        requestId: 'r-1',
      }),
      { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1800' } },
    );
    const error: unknown = await readEnvelope(answer, { method: 'POST', path: '/account/register' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ kind: 'validation', status: 429, code: 'common.sendQuota' });
    const shown = {
      text: 'Đã yêu cầu gửi quá nhiều email hoặc tin nhắn. Vui lòng thử lại sau (tối đa một giờ)',
    };
    expect(errorMessageFor(error)).toEqual(shown);
    expect(errorMessageFor(error, 'register.failedTitle')).toEqual(shown);
    expect(errorMessageFor(apiError('validation', 429, 'common.sendQuota'), 'register.failedTitle')).toEqual({
      key: 'errors:common.sendQuota',
    });
  });

  it('shows the server’s wording of a permission refusal', () => {
    expect(
      errorMessageFor(
        apiError('permissionDenied', 403, 'auth.permissionDenied', 'Bạn không có quyền truy cập'),
      ),
    ).toEqual({
      text: 'Bạn không có quyền truy cập',
    });
    expect(errorMessageFor(apiError('permissionDenied', 403))).toEqual({
      key: 'errors:auth.permissionDenied',
    });
  });
});
