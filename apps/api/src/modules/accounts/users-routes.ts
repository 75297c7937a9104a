import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { actorOf } from '../../policies/actor.ts';

export const usersRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { users } = services;

  serve(app, endpoints.accounts.users, async (request) => users.list(actorOf(request), request.query));

  serve(app, endpoints.accounts.roles, async (request) => ({ data: await users.roles(actorOf(request)) }));

  serve(app, endpoints.accounts.user, async (request) => ({ data: await users.get(actorOf(request), request.params.id) }));

  serve(app, endpoints.accounts.createUser, async (request, reply) => reply.code(201).send({ data: await users.create(actorOf(request), request.body) }));

  serve(app, endpoints.accounts.updateUser, async (request) => ({ data: await users.update(actorOf(request), request.params.id, request.body) }));

  serve(app, endpoints.accounts.resetUserPassword, async (request) => {
    const { channel } = await users.resetPassword(actorOf(request), request.params.id);
    return { data: { message: request.t(`messages:password_reset_sent_${channel}`), channel } };
  });

  serve(app, endpoints.accounts.sendSignInLink, async (request) => {
    const { channel, name } = await users.sendSignInLink(actorOf(request), request.params.id);
    return { data: { message: request.t(`messages:sign_in_link_sent_${channel}`, { name }), channel } };
  });

  serve(app, endpoints.accounts.archiveUsers, async (request) => {
    const archived = await users.archive(actorOf(request), request.body.users);
    return { data: { archived, message: request.t('messages:users_archived', { count: archived }) } };
  });
};
