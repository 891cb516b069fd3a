import { queryOptions } from '@tanstack/react-query';
import {
  checkTokenResponseSchema,
  otpSentResponseSchema,
  publicTenantSchema,
  registrationResponseSchema,
  tokenResponseSchema,
  verifyRegisterResponseSchema,
  type TokenResponse,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { setActiveProfile } from '../../api/profile-store';
import { clearSession, rememberTenant, saveSession } from '../../api/session-store';
import { forgetPushOnSignOut } from '../notifications/forget-push';

export const SESSION_QUERY_ROOT = 'session';

/** Who is signed in (the stored token's session), if anyone. */
export const sessionQuery = () =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, 'check-token'],
    queryFn: () => api.get('/auth/check-token', checkTokenResponseSchema),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** The tenant a typed code names (the console's lookup); a failure only means nothing is shown. */
export const publicTenantQuery = (code: string) =>
  queryOptions({
    queryKey: ['public', 'tenant-by-code', code],
    queryFn: () => api.get(`/manage/tenant/by-code/${encodeURIComponent(code)}`, publicTenantSchema),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** A new login starts on the account's own record. */
function keep(signedIn: TokenResponse, tenant: string, rememberMe: boolean): TokenResponse {
  setActiveProfile(null);
  if (signedIn.accessToken !== undefined && signedIn.refreshToken !== undefined)
    saveSession({ accessToken: signedIn.accessToken, refreshToken: signedIn.refreshToken }, rememberMe);
  rememberTenant(tenant);
  return signedIn;
}

/** Password login as the patient app: the server refuses other roles here (auth.patientOnly). */
export async function signIn(request: { tenant: string; username: string; password: string; rememberMe: boolean }) {
  const signedIn = await api.post(
    '/auth/oauth-token',
    {
      tenant: request.tenant,
      username: request.username,
      password: request.password,
      grant_type: 'password',
      remember_me: request.rememberMe,
      app: 'patient',
    },
    tokenResponseSchema,
  );
  return keep(signedIn, request.tenant, request.rememberMe);
}

export type OtpChannel = 'SMS' | 'EMAIL';

/** An email address goes by email, anything else by SMS. */
export function channelOf(destination: string): OtpChannel {
  return destination.includes('@') ? 'EMAIL' : 'SMS';
}

export function sendLoginCode(tenant: string, destination: string) {
  return channelOf(destination) === 'SMS'
    ? api.post('/auth/oauth/otp/send', { tenant, phoneNumber: destination }, otpSentResponseSchema)
    : api.post('/auth/oauth/otp/mail', { tenant, email: destination }, otpSentResponseSchema);
}

export async function signInWithCode(request: { tenant: string; destination: string; code: string; rememberMe: boolean }) {
  const signedIn = await api.post(
    '/auth/oauth/otp/token-web',
    {
      tenantId: request.tenant,
      type: channelOf(request.destination),
      otp: request.code,
      username: request.destination,
      remember_me: request.rememberMe,
      app: 'patient',
    },
    tokenResponseSchema,
  );
  return keep(signedIn, request.tenant, request.rememberMe);
}

export function sendResetCode(tenant: string, username: string) {
  return api.post('/account/forgot-password/send', { tenant, type: channelOf(username), username }, otpSentResponseSchema);
}

export function resetPassword(request: { tenant: string; username: string; otp: string; newPassword: string }) {
  return api.post('/account/forgot-password/reset', { ...request, type: channelOf(request.username), app: 'patient' });
}

export interface Registration {
  tenant: string;
  firstName: string;
  lastName: string;
  email: string;
  birthday: string;
  password: string;
  purpose: string;
}

export function register(request: Registration) {
  return api.post(
    '/account/register',
    { ...request, acceptTerms: true, acceptPrivacy: true, role: 'PATIENT', app: 'patient' },
    registrationResponseSchema,
  );
}

export function verifyRegistration(request: { tenant: string; email: string; token: string }) {
  return api.post('/auth/verifyRegisterByEmailOTP', request, verifyRegisterResponseSchema);
}

export async function signOut(): Promise<void> {
  // While the session still holds: the next person on this phone gets none of this account's pushes.
  await forgetPushOnSignOut();
  try {
    await api.post('/auth/logout', {});
  } finally {
    clearSession();
    setActiveProfile(null);
  }
}
