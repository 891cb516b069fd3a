/**
 * The app's tokens (apps get them in the login answer; the console gets cookies instead). Kept in
 * localStorage with "remember me" (the session outlives the browser), in sessionStorage without.
 */
export interface StoredSession {
  accessToken: string;
  refreshToken: string;
}

const KEY = 'rpm.patient.session';
const TENANT_KEY = 'rpm.patient.tenant';

function read(storage: Storage): StoredSession | undefined {
  try {
    const value = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<StoredSession> | null;
    if (typeof value?.accessToken === 'string' && typeof value.refreshToken === 'string')
      return { accessToken: value.accessToken, refreshToken: value.refreshToken };
  } catch {
    // A damaged entry is no session.
  }
  return undefined;
}

export function loadSession(): StoredSession | undefined {
  return read(sessionStorage) ?? read(localStorage);
}

export function saveSession(session: StoredSession, rememberMe: boolean): void {
  clearSession();
  (rememberMe ? localStorage : sessionStorage).setItem(KEY, JSON.stringify(session));
}

/** Replaces the tokens after a refresh, where they were kept. */
export function replaceSession(session: StoredSession): void {
  const storage = read(sessionStorage) ? sessionStorage : localStorage;
  storage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
  sessionStorage.removeItem(KEY);
}

/** The tenant code of the last login, filled in on the next visit. */
export function rememberedTenant(): string {
  return localStorage.getItem(TENANT_KEY) ?? '';
}

export function rememberTenant(code: string): void {
  localStorage.setItem(TENANT_KEY, code);
}
