import {
  createVerificationTokenSchema,
  emailRegisterSchema,
  forgotPasswordSendSchema,
  otpGrantSchema,
  otpSendMailSchema,
  otpSendSmsSchema,
  otpSentResponseSchema,
  registerSchema,
  registrationResponseSchema,
  resetPasswordSchema,
  successEnvelope,
  tokenResponseSchema,
  unlockSchema,
  unlockSendSchema,
  verifyRegisterResponseSchema,
  verifyRegisterSchema,
} from '@rpm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { deliverSession } from '../auth/session-cookies.js';
import type { VerificationEnvironment } from './challenges.js';
import { loginWithCode, sendLoginCode } from './login-otp.js';
import { resetPassword, sendResetCode } from './password-reset.js';
import { register, registerWithCode, sendRegistrationCode, verifyRegistration } from './registration.js';
import { assertRegistrationInput } from './registration-input.js';
import { sendUnlockCode, unlockWithCode } from './unlock.js';

function environmentOf(app: FastifyInstance, request: FastifyRequest): VerificationEnvironment {
  return {
    database: app.database,
    clock: app.clock,
    sessionHours: app.config.sessionHours,
    audit: auditContextOf(request),
    secretsKey: app.config.secretsKey,
    language: request.language,
  };
}

const sentResponse = { 200: successEnvelope(otpSentResponseSchema) };

/** One-time codes under /auth: OTP login and the registration codes (spec §7 Auth). */
export const verificationAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/oauth/otp/send',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Send a login code by SMS (same answer whether or not the phone has an account)',
        body: otpSendSmsSchema,
        response: sentResponse,
      },
    },
    async (request) => {
      const sent = await sendLoginCode(environmentOf(app, request), { tenant: request.body.tenant, channel: 'SMS', destination: request.body.phoneNumber });
      app.messaging.kick();
      return ok(sent);
    },
  );

  app.post(
    '/oauth/otp/mail',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Send a login code by email (same answer whether or not the email has an account)',
        body: otpSendMailSchema,
        response: sentResponse,
      },
    },
    async (request) => {
      const sent = await sendLoginCode(environmentOf(app, request), { tenant: request.body.tenant, channel: 'EMAIL', destination: request.body.email });
      app.messaging.kick();
      return ok(sent);
    },
  );

  app.post(
    '/oauth/otp/token-web',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Log in with a code sent by SMS or email (answers like /auth/oauth-token)',
        body: otpGrantSchema,
        response: { 200: successEnvelope(tokenResponseSchema) },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const issued = await loginWithCode(environmentOf(app, request), {
        tenant: body.tenantId,
        channel: body.type,
        code: body.otp,
        username: body.username,
        rememberMe: body.remember_me ?? false,
        app: body.app ?? 'console',
      });
      return ok(deliverSession(app, reply, issued));
    },
  );

  app.post(
    '/unlock/otp/send',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Send a code that lifts a lockout to the locked account’s own email or phone (same answer for unknown or unlocked accounts, which get nothing)',
        body: unlockSendSchema,
        response: sentResponse,
      },
    },
    async (request) => {
      const { body } = request;
      const sent = await sendUnlockCode(environmentOf(app, request), { tenant: body.tenant, channel: body.type, username: body.username });
      app.messaging.kick();
      return ok(sent);
    },
  );

  app.post(
    '/unlock',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Lift a lockout with the code from /auth/unlock/otp/send; the password stays the same',
        body: unlockSchema,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      const { body } = request;
      await unlockWithCode(environmentOf(app, request), { tenant: body.tenant, channel: body.type, username: body.username, code: body.otp });
      return ok(null);
    },
  );

  app.post(
    '/create-verification-token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Email a registration code to an address that has no account (or a new code to a registration waiting for one)',
        body: createVerificationTokenSchema,
        response: sentResponse,
      },
    },
    async (request) => {
      const sent = await sendRegistrationCode(environmentOf(app, request), request.body);
      app.messaging.kick();
      return ok(sent);
    },
  );

  app.post(
    '/verifyRegisterByEmailOTP',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Verify a registration with the emailed code: a patient becomes ACTIVE, a doctor waits for health-center approval',
        body: verifyRegisterSchema,
        response: { 200: successEnvelope(verifyRegisterResponseSchema) },
      },
    },
    async (request) => ok(await verifyRegistration(environmentOf(app, request), request.body)),
  );

  app.post(
    '/email-register',
    {
      config: { access: 'public' },
      // Under-18 and missing consent have their own error codes (see assertRegistrationInput).
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary:
          'One-step patient registration: the form plus the code from create-verification-token; the account is ACTIVE at once. The spec names this call without a payload; this is our reading of it.',
        body: emailRegisterSchema,
        response: { 200: successEnvelope(verifyRegisterResponseSchema) },
      },
    },
    async (request) => {
      assertRegistrationInput(request);
      return ok(await registerWithCode(environmentOf(app, request), request.body));
    },
  );
};

/** Self-service account calls under /account: registration and "forgot password". */
export const verificationAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/register',
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: {
        tags: ['account'],
        summary: 'Register a patient or doctor account (UNACTIVATED until the emailed code is verified)',
        body: registerSchema,
        response: { 200: successEnvelope(registrationResponseSchema) },
      },
    },
    async (request) => {
      assertRegistrationInput(request);
      const registered = await register(environmentOf(app, request), request.body);
      app.messaging.kick();
      return ok(registered);
    },
  );

  app.post(
    '/forgot-password/send',
    {
      config: { access: 'public' },
      schema: {
        tags: ['account'],
        summary: 'Send a password reset code by SMS or email (same answer whether or not the account exists)',
        body: forgotPasswordSendSchema,
        response: sentResponse,
      },
    },
    async (request) => {
      const { body } = request;
      const sent = await sendResetCode(environmentOf(app, request), { tenant: body.tenant, channel: body.type, username: body.username });
      app.messaging.kick();
      return ok(sent);
    },
  );

  app.post(
    '/forgot-password/reset',
    {
      config: { access: 'public' },
      schema: {
        tags: ['account'],
        summary: 'Set a new password with a reset code; ends every session of the account',
        body: resetPasswordSchema,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      const { body } = request;
      await resetPassword(environmentOf(app, request), {
        tenant: body.tenant,
        channel: body.type,
        username: body.username,
        code: body.otp,
        newPassword: body.newPassword,
        app: body.app,
      });
      return ok(null);
    },
  );
};
