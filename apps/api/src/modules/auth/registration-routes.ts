import {
  envelope,
  errorResponse,
  getOtpRequest,
  googleAuthRequest,
  registerRequest,
  resetPasswordRequest,
  signedInResponse,
  otpSentResponse,
  validateOtpRequest,
} from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';

const tags = ['auth'];

export const registrationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { registration } = services;

  app.post(
    '/register',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Create an account (confirmed by a one-time code sent for this attempt, then it holds no role until granted one)',
        body: registerRequest,
        response: { 200: envelope(z.object({ message: z.string(), mail_or_phone: z.string(), registration: z.string() })) },
      },
    },
    async (request) => {
      const { contact, registration: attempt } = await registration.register(request.body, request);
      return { data: { message: request.t('messages:register_next_step'), mail_or_phone: contact, registration: attempt } };
    },
  );

  app.post(
    '/register/getOtp',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Send a one-time code (registration or password recovery)', body: getOtpRequest, response: { 200: otpSentResponse, 429: errorResponse } },
    },
    async (request) => {
      const sent = await registration.sendCode(request.body.mail_or_phone, request.body.purpose, request.locale, request.body.registration);
      const minutes = Math.round(sent.expiresIn / 60);
      return {
        data: {
          message: request.t('messages:code_sent', { minutes }),
          channel: sent.channel,
          resend_in: sent.resendIn,
          expires_in: sent.expiresIn,
        },
      };
    },
  );

  app.post(
    '/register/validateOtp',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Check a one-time code; a right one signs the person in', body: validateOtpRequest, response: { 200: signedInResponse } },
    },
    async (request) => registration.validateCode(request.body.mail_or_phone, request.body.purpose, request.body.otp, request, request.body.registration),
  );

  app.post(
    '/reset-password',
    {
      // Open while a temporary password must be changed: this is the change.
      config: { access: 'user', duringPasswordChange: true },
      schema: {
        tags,
        summary: 'Set a new password (signed in: with the current or temporary password, or in the session a recovery code opened)',
        body: resetPasswordRequest,
        response: { 200: signedInResponse },
      },
    },
    async (request) => registration.resetPassword(request.user!, request.body, request),
  );

  app.post(
    '/auth/byGoogle',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Sign in with a Google ID token', body: googleAuthRequest, response: { 200: signedInResponse } },
    },
    async (request) => registration.signInWithGoogle(request.body.id_token, request.body.google_id, request),
  );
};
