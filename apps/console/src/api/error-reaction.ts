import { isApiError, type ApiError } from './api-error';

/**
 * What a caller tells the shared error handler about one query or mutation.
 * Kept small on purpose: most calls need none of it.
 */
export interface RequestMeta extends Record<string, unknown> {
  /**
   * `inline`: the screen shows the error itself (an error state with Retry, a form alert),
   * so no toast. Session-ending answers are still handled centrally.
   */
  errorDisplay?: 'toast' | 'inline';
  /** i18n key of the action's own failure message ("Could not save the prescription"). */
  errorMessageKey?: string;
  /**
   * The call is itself a sign-in or sign-out: its 401/403 are answers to show, not a sign that
   * the current session ended.
   */
  handlesAuthErrors?: boolean;
}

export type SessionEndReason = 'auth.unauthorized' | 'auth.sessionExpired' | 'auth.loggedInElsewhere';

export type ErrorReaction =
  { type: 'endSession'; reason: SessionEndReason } | { type: 'notify' } | { type: 'none' };

/** Spec §7: 401 asks to log in again; 403 logged-in-elsewhere ends the session; the rest are shown. */
export function decideReaction(error: unknown, meta: RequestMeta | undefined): ErrorReaction {
  if (isApiError(error) && !meta?.handlesAuthErrors) {
    if (error.kind === 'unauthorized') {
      return {
        type: 'endSession',
        reason: error.code === 'auth.sessionExpired' ? 'auth.sessionExpired' : 'auth.unauthorized',
      };
    }
    if (error.kind === 'loggedInElsewhere') return { type: 'endSession', reason: 'auth.loggedInElsewhere' };
  }
  return meta?.errorDisplay === 'inline' ? { type: 'none' } : { type: 'notify' };
}

export function endsSession(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'unauthorized' || error.kind === 'loggedInElsewhere');
}

/** A message either as an i18n key to translate or as text the server already localised. */
export type ErrorMessage = { key: string } | { text: string };

/**
 * The message to show for a failure. Fixed messages for the HTTP-level answers of spec §8; a 429
 * in the server's words (it says why the user must wait: a quota, too many failed logins); for
 * everything else the action's own message if it gave one, else the server's, else the default.
 */
export function errorMessageFor(error: unknown, actionMessageKey?: string): ErrorMessage {
  if (!isApiError(error))
    return actionMessageKey ? { key: actionMessageKey } : { key: 'errors:common.default' };
  return messageForApiError(error, actionMessageKey);
}

function messageForApiError(error: ApiError, actionMessageKey: string | undefined): ErrorMessage {
  switch (error.kind) {
    case 'network':
      return { key: 'errors:common.network' };
    case 'maintenance':
      return { key: 'errors:common.maintenance' };
    case 'loggedInElsewhere':
      return { key: 'errors:auth.loggedInElsewhere' };
    case 'unauthorized':
      return {
        key: error.code === 'auth.sessionExpired' ? 'errors:auth.sessionExpired' : 'errors:auth.unauthorized',
      };
    case 'permissionDenied':
      return error.serverMessage ? { text: error.serverMessage } : { key: 'errors:auth.permissionDenied' };
    case 'validation':
    case 'notFound':
    case 'server':
    case 'invalidResponse':
      if (error.status === 429 && error.serverMessage) return { text: error.serverMessage };
      if (error.status === 429 && error.code) return { key: `errors:${error.code}` };
      if (actionMessageKey) return { key: actionMessageKey };
      if (error.serverMessage) return { text: error.serverMessage };
      if (error.code) return { key: `errors:${error.code}` };
      return { key: 'errors:common.default' };
  }
}
