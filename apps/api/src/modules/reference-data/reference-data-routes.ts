import multipart from '@fastify/multipart';
import { endpoints, REFERENCE_LIMITS } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';
import { authorize } from '../../policies/policy.ts';
import { referenceDataPolicy } from '../../policies/reference-data-policy.ts';
import * as repo from './reference-data-repository.ts';
import { ReferenceDataService } from './reference-data-service.ts';

export const referenceDataRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  const { referenceData } = endpoints;
  const service = new ReferenceDataService(db);
  // Public reference data changes between exam sessions, not between requests: let browsers and CDNs
  // keep it. What staff see of it (/reference-data/…) depends on who asks: never shared.
  app.addHook('onSend', async (request, reply) => {
    if (request.method !== 'GET' || reply.statusCode !== 200) return;
    reply.header('cache-control', request.url.startsWith('/api/reference-data/') ? 'private, no-cache' : 'public, max-age=300');
  });
  // A file past the limit is cut (`truncated`), not thrown: the route answers it with its own message.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: REFERENCE_LIMITS.importMaxBytes, files: 1, fields: 5, fieldSize: 256 } });

  serve(app, referenceData.countries, async (request) => ({ data: { data: await repo.listCountries(db, request.locale) } }));

  serve(app, referenceData.sessions, async () => ({ data: await repo.listSessions(db) }));

  serve(app, referenceData.educProvinces, async () => ({ data: await repo.listEducProvinces(db) }));

  serve(app, referenceData.options, async () => ({ data: await repo.listOptions(db) }));

  serve(app, referenceData.centresOfProvince, async (request) => ({ data: await repo.listCentresOfProvince(db, request.query.province) }));

  serve(app, referenceData.centre, async (request) => {
    if (request.query.option !== undefined) return { data: await repo.listCentresOfferingOption(db, request.params.id) };
    const centre = await repo.findCentre(db, request.params.id);
    if (!centre) throw new AppError('not_found');
    return { data: centre };
  });

  serve(app, referenceData.institution, async (request) => {
    const { centre, option } = request.query;
    if (centre !== undefined || option !== undefined) {
      const centreId = centre === '' ? request.params.id : centre;
      return { data: await repo.listInstitutions(db, { centre: centreId, option }) };
    }
    const institution = await repo.findInstitution(db, request.params.id);
    if (!institution) throw new AppError('not_found');
    return { data: institution };
  });

  serve(app, referenceData.institutionsOfCountry, async (request) => ({ data: await repo.listInstitutions(db, { country: request.params.id }) }));

  // ---------------------------------------------------------------- staff (ADR 0139)
  serve(app, referenceData.places, async (request) => ({ data: await service.places(actorOf(request), request.query.province) }));

  serve(app, referenceData.createCentre, async (request) => ({ data: await service.createCentre(actorOf(request), request.body) }));
  serve(app, referenceData.renameCentre, async (request) => ({ data: await service.renameCentre(actorOf(request), request.params.id, request.body) }));
  serve(app, referenceData.createSchool, async (request) => ({ data: await service.createSchool(actorOf(request), request.body) }));
  serve(app, referenceData.renameSchool, async (request) => ({ data: await service.renameSchool(actorOf(request), request.params.id, request.body) }));

  serve(app, referenceData.importPlaces, async (request) => {
    if (!request.isMultipart()) throw new AppError('unsupported_media_type');
    // Refused before the file is read when the actor may not change the lists.
    const actor = actorOf(request);
    authorize(referenceDataPolicy.manage(actor));
    let file: Buffer | null = null;
    let tooLarge = false;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      // Read to the end (the answer can then be sent), kept only up to the limit.
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size <= REFERENCE_LIMITS.importMaxBytes) chunks.push(chunk);
      }
      if (size > REFERENCE_LIMITS.importMaxBytes || part.file.truncated) tooLarge = true;
      else file = Buffer.concat(chunks);
    }
    if (tooLarge)
      throw new AppError('payload_too_large', { fields: { file: [{ key: 'field.reference_import_too_large', params: { size: REFERENCE_LIMITS.importMaxBytes / 1024 / 1024 } }] } });
    if (!file?.length) throw fieldError('file', 'field.file_required');
    const outcome = await service.importPlaces(actor, file);
    if ('result' in outcome) return { data: outcome.result };
    if (outcome.fileProblem) throw fieldError('file', outcome.fileProblem);
    // Nothing was written: every row's problem, the first ones listed.
    const listed = outcome.problems.slice(0, REFERENCE_LIMITS.importErrorsListed).map((p) => ({ key: `field.reference_import_${p.code}`, params: p.params }));
    throw new AppError('validation_failed', { fields: { file: [{ key: 'field.reference_import_nothing_written', params: { count: outcome.problems.length } }, ...listed] } });
  });
};
