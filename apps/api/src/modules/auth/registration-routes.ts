import {
  envelope,
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
import type { AppContext } from '../../app.ts';

const tags = ['auth'];

export const registrationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { registration } = services;

  app.post(
    '/register',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Create an account (confirmed by a one-time code, then it holds no role until granted one)',
        body: registerRequest,
        response: { 200: envelope(z.object({ message: z.string(), mail_or_phone: z.string() })) },
      },
    },
    async (request) => {
      const contact = await registration.register(request.body, request);
      return { data: { message: request.t('messages:register_next_step'), mail_or_phone: contact } };
    },
  );

  app.post(
    '/register/getOtp',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Send a one-time code (registration or password recovery)', body: getOtpRequest, response: { 200: otpSentResponse } },
    },
    async (request) => {
      const sent = await registration.sendCode(request.body.mail_or_phone, request.body.purpose, request.locale);
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
    async (request) => registration.validateCode(request.body.mail_or_phone, request.body.purpose, request.body.otp, request),
  );

  app.post(
    '/reset-password',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'Set a new password (signed in, e.g. after a recovery code)', body: resetPasswordRequest, response: { 200: signedInResponse } },
    },
    async (request) => registration.resetPassword(request.user!.id, request.body, request),
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
