import {
  otpSentResponseSchema,
  registrationResponseSchema,
  tokenResponseSchema,
  verifyRegisterResponseSchema,
  type registerSchema,
} from '@rpm/contracts';
import type { z } from 'zod';
import { api } from '../../api/client';
import { rememberTenant } from './remembered-tenant';

/** How a one-time code travels; the API's own names. */
export type OtpChannel = 'SMS' | 'EMAIL';

export type OtpSent = z.infer<typeof otpSentResponseSchema>;

/** Login code (spec §7 oauth/otp/send and oauth/otp/mail); the same answer whether or not the account exists. */
export function sendLoginCode(request: {
  tenant: string;
  channel: OtpChannel;
  destination: string;
}): Promise<OtpSent> {
  return request.channel === 'SMS'
    ? api.post(
        '/auth/oauth/otp/send',
        { tenant: request.tenant, phoneNumber: request.destination },
        { schema: otpSentResponseSchema },
      )
    : api.post(
        '/auth/oauth/otp/mail',
        { tenant: request.tenant, email: request.destination },
        { schema: otpSentResponseSchema },
      );
}

/** Signs in with the code; the session arrives as cookies, like the password login. */
export async function signInWithCode(request: {
  tenant: string;
  channel: OtpChannel;
  destination: string;
  code: string;
  rememberMe: boolean;
}) {
  const signedIn = await api.post(
    '/auth/oauth/otp/token-web',
    {
      tenantId: request.tenant,
      type: request.channel,
      otp: request.code,
      username: request.destination,
      remember_me: request.rememberMe,
    },
    { schema: tokenResponseSchema },
  );
  // The next visit starts with this tenant's code already filled in.
  rememberTenant(request.tenant);
  return signedIn;
}

export function sendResetCode(request: {
  tenant: string;
  type: OtpChannel;
  username: string;
}): Promise<OtpSent> {
  return api.post('/account/forgot-password/send', request, { schema: otpSentResponseSchema });
}

export function resetPassword(request: {
  tenant: string;
  type: OtpChannel;
  username: string;
  otp: string;
  newPassword: string;
}): Promise<unknown> {
  return api.post('/account/forgot-password/reset', request);
}

/** A code that lifts a lockout, to the locked account's own email or phone; same answer for any account. */
export function sendUnlockCode(request: { tenant: string; type: OtpChannel; username: string }): Promise<OtpSent> {
  return api.post('/auth/unlock/otp/send', request, { schema: otpSentResponseSchema });
}

/** Lifts the lockout; the password stays, and the user signs in with it afterwards. */
export function unlockWithCode(request: {
  tenant: string;
  type: OtpChannel;
  username: string;
  otp: string;
}): Promise<unknown> {
  return api.post('/auth/unlock', request);
}

export type RegistrationRequest = z.output<typeof registerSchema>;

export function register(request: RegistrationRequest) {
  return api.post('/account/register', request, { schema: registrationResponseSchema });
}

/** A new registration code ("resend"). */
export function sendRegistrationCode(request: { tenant: string; email: string }): Promise<OtpSent> {
  return api.post('/auth/create-verification-token', request, { schema: otpSentResponseSchema });
}

export function verifyRegistration(request: { tenant: string; email: string; token: string }) {
  return api.post('/auth/verifyRegisterByEmailOTP', request, { schema: verifyRegisterResponseSchema });
}

/** Codes a code-entry step shows beside the boxes; the rest belong at the top of the form. */
export const CODE_ERRORS = ['otp.wrong', 'otp.expired', 'otp.tooManyAttempts', 'otp.unverifiable'] as const;

/** After these the code cannot succeed any more: the user has to ask for a new one. */
export const NEEDS_NEW_CODE = ['otp.expired', 'otp.tooManyAttempts', 'otp.unverifiable'] as const;
