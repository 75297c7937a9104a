import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';

export const registrationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { registration } = services;

  serve(app, endpoints.accounts.register, async (request) => {
    const { contact, registration: attempt } = await registration.register(request.body, request);
    return { data: { message: request.t('messages:register_next_step'), mail_or_phone: contact, registration: attempt } };
  });

  serve(app, endpoints.accounts.sendCode, async (request) => {
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
  });

  serve(app, endpoints.accounts.validateCode, async (request) =>
    registration.validateCode(request.body.mail_or_phone, request.body.purpose, request.body.otp, request, request.body.registration),
  );

  // Open while a temporary password must be changed: this is the change.
  serve(app, endpoints.accounts.resetPassword, async (request) => registration.resetPassword(request.user!, request.body, request), {
    config: { duringPasswordChange: true },
  });

  serve(app, endpoints.accounts.signInWithGoogle, async (request) => registration.signInWithGoogle(request.body.id_token, request.body.google_id, request));
};
