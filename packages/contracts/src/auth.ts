import { z } from 'zod';
import { checkTokenResponseSchema } from './system.js';

/** Which client is logging in: the console keeps tokens in cookies; apps receive them. */
export const CLIENT_APPS = ['console', 'patient', 'doctor'] as const;
export const clientAppSchema = z.enum(CLIENT_APPS).default('console');
export type ClientApp = (typeof CLIENT_APPS)[number];

export const tenantCodeSchema = z.string().trim().min(1).max(64).describe('Tenant code');
export const otpCodeSchema = z.string().regex(/^\d{6}$/, { error: 'must be 6 digits' });
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?\d{3,16}$/, { error: 'must be 3 to 16 digits' })
  .describe('Phone number, 3 to 16 digits, optional leading +');
export const emailSchema = z.string().trim().toLowerCase().pipe(z.email()).describe('Email address');

export const passwordGrantSchema = z.object({
  tenant: tenantCodeSchema,
  username: z.string().trim().min(1).max(254).describe('Email or phone number'),
  password: z.string().min(1).max(128),
  grant_type: z.literal('password'),
  remember_me: z.boolean().optional(),
  app: clientAppSchema.optional(),
});

export const otpSendSmsSchema = z.object({ tenant: tenantCodeSchema, phoneNumber: phoneSchema });
export const otpSendMailSchema = z.object({ tenant: tenantCodeSchema, email: emailSchema });
export const OTP_PURPOSES = ['LOGIN', 'RESET_PASSWORD', 'REGISTER', 'UNLOCK'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];
export const otpSentResponseSchema = z.object({
  /** Seconds before another code may be requested for the same destination. */
  resendAfterSeconds: z.number().int(),
  /** Seconds the code stays valid. */
  expiresInSeconds: z.number().int(),
});

export const otpGrantSchema = z.object({
  tenantId: tenantCodeSchema.describe('Tenant code (named tenantId in the product’s call)'),
  type: z.enum(['SMS', 'EMAIL']),
  otp: otpCodeSchema,
  username: z.string().trim().min(1).max(254).describe('The phone number or email the code was sent to'),
  remember_me: z.boolean().optional(),
  app: clientAppSchema.optional(),
});

export const refreshTokenSchema = z.object({
  refresh_token: z.string().min(1).max(200).optional().describe('Apps send it here; the console’s cookie is used otherwise'),
});

/** Login answer: the session, plus the tokens for apps (the console gets cookies instead). */
export const tokenResponseSchema = checkTokenResponseSchema.extend({
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  accessExpiresAt: z.iso.datetime(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const resetPasswordSchema = z.object({
  tenant: tenantCodeSchema,
  type: z.enum(['SMS', 'EMAIL']),
  username: z.string().trim().min(1).max(254),
  otp: otpCodeSchema,
  newPassword: z.string().min(1).max(128),
  /** The client resetting: the patient app's password rule applies to `patient` (spec §5). */
  app: z.enum(CLIENT_APPS).optional(),
});
/** POST /account/forgot-password/send: where the reset code goes (type) for which account (username). */
export const forgotPasswordSendSchema = resetPasswordSchema.pick({ tenant: true, type: true, username: true });

/**
 * POST /auth/unlock: lift the lock that five failed logins set, with a code sent to the account's
 * own email or phone (type) by POST /auth/unlock/otp/send (unlockSendSchema).
 */
export const unlockSchema = resetPasswordSchema.pick({ tenant: true, type: true, username: true, otp: true });
export const unlockSendSchema = forgotPasswordSendSchema;

/** OTP life cycle constants (spec: 6 digits, single use, expiry, attempt limit, resend cooldown). */
export const OTP_RULES = { digits: 6, ttlSeconds: 300, maxAttempts: 5, resendCooldownSeconds: 60 } as const;
/** Access tokens are short; refresh tokens last the session (12 h, or 30 days with remember me). */
export const SESSION_RULES = { accessTokenMinutes: 15, rememberMeDays: 30 } as const;
