import { GENERATION_TYPES, generationTypesResponse, idParam, templateResponse, templatesQuery, templatesResponse } from '@sceau/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import type { Db } from '../../db/client.ts';
import { countries, templates } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';
import { templatePolicy } from '../../policies/template-policy.ts';
import { findTemplates, presentTemplates } from './templates-repository.ts';

const tags = ['templates'];
const access = { anyPermission: ['generation.create' as const, 'generation.view' as const], section: 'generation' as const };

export const templatesRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  async function detail(request: FastifyRequest, where: ReturnType<typeof eq>) {
    const scope = templatePolicy.visibleCondition(actorOf(request));
    const [row] = await findTemplates(db, and(where, scope));
    if (!row) throw new AppError('not_found');
    const [view] = await presentTemplates(db, [row], request.locale);
    return { data: { ...view!, design: row.design } };
  }

  app.get(
    '/templates',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Diploma templates, of an owner (`{id}_country` or `{id}_institution`) or all the user may use',
        querystring: templatesQuery,
        response: { 200: templatesResponse },
      },
    },
    async (request) => {
      const { owner } = request.query;
      const scope = templatePolicy.visibleCondition(actorOf(request));
      const byOwner = owner ? and(eq(templates.ownerType, owner.type), eq(templates.ownerId, owner.id)) : undefined;
      return { data: await presentTemplates(db, await findTemplates(db, and(byOwner, scope)), request.locale) };
    },
  );

  app.get(
    '/templates/drc',
    { config: { access }, schema: { tags, summary: "The country's Diplôme d'État template, with its design", response: { 200: templateResponse } } },
    async (request) => detail(request, await countryTemplate(db)),
  );

  app.get(
    '/templates/:id',
    { config: { access }, schema: { tags, summary: 'A template with its design', params: idParam, response: { 200: templateResponse } } },
    async (request) => detail(request, eq(templates.id, request.params.id)),
  );

  app.get(
    '/generations/types',
    { config: { access }, schema: { tags, summary: 'The kinds of documents a batch can issue', response: { 200: generationTypesResponse } } },
    async (request) => ({ data: GENERATION_TYPES.map((code) => ({ code, label: request.t(`messages:generation_types.${code}`) })) }),
  );
};

async function countryTemplate(db: Db) {
  const [congo] = await db.select({ id: countries.id }).from(countries).where(eq(countries.code, 'CD'));
  const [row] = congo
    ? await db
        .select({ id: templates.id })
        .from(templates)
        .where(and(eq(templates.ownerType, 'country'), eq(templates.ownerId, congo.id), eq(templates.generationType, 'diplome_etat')))
        .orderBy(templates.id)
        .limit(1)
    : [];
  if (!row) throw new AppError('not_found');
  return eq(templates.id, row.id);
}
