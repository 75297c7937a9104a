import {
  archiveUsersRequest,
  createUserRequest,
  envelope,
  idParam,
  resetUserPasswordResponse,
  rolesResponse,
  signInLinkResponse,
  updateUserRequest,
  userResponse,
  usersQuery,
  usersResponse,
} from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { actorOf } from '../../policies/actor.ts';
import { allowed } from '../../policies/policy.ts';
import { userPolicy } from '../../policies/user-policy.ts';
import { loadAllRoles } from './user-repository.ts';

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const { users } = services;

  app.get(
    '/users',
    {
      config: { access: { anyPermission: ['users.list'], section: 'users' } },
      schema: { tags, summary: 'Staff accounts, paged', querystring: usersQuery, response: { 200: usersResponse } },
    },
    async (request) => users.list(actorOf(request), request.query),
  );

  app.get(
    '/roles',
    { config: { access: { anyPermission: ['users.list'], section: 'users' } }, schema: { tags, summary: 'Roles and their permissions', response: { 200: rolesResponse } } },
    async (request) => {
      const actor = actorOf(request);
      const roles = await loadAllRoles(db);
      return { data: roles.map((role) => ({ ...role, grantable: allowed(userPolicy.grant(actor, { name: role.name, permissions: role.permissions.map((p) => p.name) })) })) };
    },
  );

  app.get(
    '/users/:id',
    { config: { access: { anyPermission: ['users.list'], section: 'users' } }, schema: { tags, summary: 'One account', params: idParam, response: { 200: userResponse } } },
    async (request) => ({ data: await users.get(actorOf(request), request.params.id) }),
  );

  app.post(
    '/users',
    {
      config: { access: { anyPermission: ['users.create'], section: 'users' } },
      schema: { tags, summary: 'Add an account (a temporary password is sent to it)', body: createUserRequest, response: { 201: userResponse } },
    },
    async (request, reply) => reply.code(201).send({ data: await users.create(actorOf(request), request.body) }),
  );

  app.put(
    '/users/:id',
    {
      config: { access: { anyPermission: ['users.edit'], section: 'users' } },
      schema: { tags, summary: 'Edit an account, its roles and scope', params: idParam, body: updateUserRequest, response: { 200: userResponse } },
    },
    async (request) => ({ data: await users.update(actorOf(request), request.params.id, request.body) }),
  );

  app.post(
    '/users/:id/reset',
    {
      config: { access: { anyPermission: ['users.edit'], section: 'users' } },
      schema: { tags, summary: "Reset an account's password (a temporary one is sent to it)", params: idParam, response: { 200: resetUserPasswordResponse } },
    },
    async (request) => {
      const { channel } = await users.resetPassword(actorOf(request), request.params.id);
      return { data: { message: request.t(`messages:password_reset_sent_${channel}`), channel } };
    },
  );

  app.post(
    '/users/:id/sign-in-link',
    {
      config: { access: { anyPermission: ['users.edit'], section: 'users' } },
      schema: { tags, summary: 'Send an account a one-time sign-in link (15 minutes) by e-mail or SMS', params: idParam, response: { 200: signInLinkResponse } },
    },
    async (request) => {
      const { channel, name } = await users.sendSignInLink(actorOf(request), request.params.id);
      return { data: { message: request.t(`messages:sign_in_link_sent_${channel}`, { name }), channel } };
    },
  );

  app.delete(
    '/users',
    {
      config: { access: { anyPermission: ['users.delete'], section: 'users' } },
      schema: { tags, summary: 'Archive accounts', body: archiveUsersRequest, response: { 200: envelope(z.object({ archived: z.number().int(), message: z.string() })) } },
    },
    async (request) => {
      const archived = await users.archive(actorOf(request), request.body.users);
      return { data: { archived, message: request.t('messages:users_archived', { count: archived }) } };
    },
  );
};
