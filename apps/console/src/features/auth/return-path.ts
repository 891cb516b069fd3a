import type { SessionEndReason } from '../../api/error-reaction';

/** Why the login page is shown, when it is not a plain visit. */
export type LoginNotice = SessionEndReason | 'signedOut';

/** Router state handed to /login: where to go back to and what to tell the user. */
export interface LoginLocationState {
  from?: string;
  notice?: LoginNotice;
}

const LOGIN_NOTICES: readonly string[] = [
  'auth.unauthorized',
  'auth.sessionExpired',
  'auth.loggedInElsewhere',
  'signedOut',
];

/**
 * Where to go after signing in. Only same-origin paths are accepted ("//evil.example" is a
 * protocol-relative URL to another site), and never back to /login itself.
 */
export function safeReturnPath(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\'))
    return '/';
  if (
    from === '/login' ||
    from.startsWith('/login?') ||
    from.startsWith('/login/') ||
    from.startsWith('/login#')
  )
    return '/';
  return from;
}

/** Reads router state defensively: it survives reloads and may come from an older build. */
export function readLoginState(state: unknown): { from: string; notice: LoginNotice | null } {
  const record = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  const notice =
    typeof record.notice === 'string' && LOGIN_NOTICES.includes(record.notice)
      ? (record.notice as LoginNotice)
      : null;
  return { from: safeReturnPath(record.from), notice };
}
